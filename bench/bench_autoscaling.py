#!/usr/bin/env python3
"""Auto Scaling through the whole moonstack binary, virtual time.

    python3 bench/bench_autoscaling.py [MOONSTACK_BINARY] [--instances N] [--batch B] [--groups G] [--size S]

1. Rolling update: a stack of one launch configuration and one Auto Scaling
   group of N instances (default 1,000) whose UserData runs cfn-signal; the
   update changes the launch configuration's instance type, so the group
   replaces every instance in batches of B (default 100) with
   AutoScalingRollingUpdate WaitOnResourceSignals (each batch waits for its
   instances' signals). Prints the update-stack's wall time. Target <= 1 s.
2. Many groups: a stack of G groups (default 100) of S instances (default
   10) each, one shared launch configuration. Prints the create-stack's wall
   time. Target <= 1 s.

Each run has its own state file in a temp dir. The create of (1) is printed
too (N instances launched and booted), but has no target.
"""
import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

USER_DATA = {"Fn::Base64": {"Fn::Sub": "#!/bin/bash\n/opt/aws/bin/cfn-signal -e $? --stack ${AWS::StackName} --resource Web\n"}}


def run(binary, state, *args):
    """Runs one command; (wall seconds, CPU seconds of the process, stdout)."""
    env = dict(os.environ, MOONSTACK_STATE=state)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    r = subprocess.run([binary, *args], env=env, capture_output=True, text=True)
    dt = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if r.returncode != 0:
        sys.exit(f"{' '.join(args)} failed:\n{r.stdout}{r.stderr}")
    return dt, cpu, r.stdout


def status(binary, state, stack):
    _, _, out = run(binary, state, "describe-stacks", "--stack-name", stack)
    return json.loads(out)["Stacks"][0]["StackStatus"]


def rolling_template(n, batch, signals=True):
    t = {
        "Parameters": {"Type": {"Type": "String", "Default": "t3.micro"}},
        "Resources": {
            "Config": {"Type": "AWS::AutoScaling::LaunchConfiguration", "Properties": {
                "ImageId": "ami-0123456789abcdef0", "InstanceType": {"Ref": "Type"}, "UserData": USER_DATA}},
            "Web": {"Type": "AWS::AutoScaling::AutoScalingGroup",
                    "UpdatePolicy": {"AutoScalingRollingUpdate": {
                        "MaxBatchSize": str(batch), "WaitOnResourceSignals": "true", "PauseTime": "PT10M"}},
                    "Properties": {"LaunchConfigurationName": {"Ref": "Config"}, "MinSize": "0",
                                   "MaxSize": str(n + batch), "DesiredCapacity": str(n),
                                   "AvailabilityZones": ["us-east-1a", "us-east-1b", "us-east-1c"]}},
        },
    }
    if not signals:
        del t["Resources"]["Config"]["Properties"]["UserData"]
        t["Resources"]["Web"]["UpdatePolicy"]["AutoScalingRollingUpdate"] = {"MaxBatchSize": str(batch)}
    return t


def groups_template(g, size):
    resources = {"Config": {"Type": "AWS::AutoScaling::LaunchConfiguration", "Properties": {
        "ImageId": "ami-0123456789abcdef0", "InstanceType": "t3.micro"}}}
    for i in range(g):
        resources[f"Group{i}"] = {"Type": "AWS::AutoScaling::AutoScalingGroup", "Properties": {
            "LaunchConfigurationName": {"Ref": "Config"}, "MinSize": str(size), "MaxSize": str(size),
            "AvailabilityZones": ["us-east-1a", "us-east-1b"]}}
    return {"Resources": resources}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("binary", nargs="?", default=os.path.join(here, "..", "build", "host", "moonstack"))
    ap.add_argument("--instances", type=int, default=1000)
    ap.add_argument("--batch", type=int, default=100)
    ap.add_argument("--groups", type=int, default=100)
    ap.add_argument("--size", type=int, default=10)
    ap.add_argument("--no-signals", action="store_true",
                    help="the rolling update without UserData cfn-signal and WaitOnResourceSignals")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="bench_autoscaling_")
    try:
        state = os.path.join(tmp, "rolling.db")
        t = os.path.join(tmp, "rolling.json")
        with open(t, "w") as f:
            json.dump(rolling_template(a.instances, a.batch, not a.no_signals), f)
        wall, cpu, _ = run(a.binary, state, "create-stack", "--stack-name", "r", "--template-body", "file://" + t)
        print(f"create: 1 group of {a.instances} instances            wall {wall:6.3f} s  cpu {cpu:6.3f} s  "
              f"({status(a.binary, state, 'r')})")
        wall, cpu, _ = run(a.binary, state, "update-stack", "--stack-name", "r", "--use-previous-template",
                           "--parameters", "ParameterKey=Type,ParameterValue=t3.small")
        print(f"rolling update: {a.instances} instances, batches of {a.batch}  wall {wall:6.3f} s  cpu {cpu:6.3f} s  "
              f"({status(a.binary, state, 'r')}; target <= 1 s)")

        state = os.path.join(tmp, "groups.db")
        t = os.path.join(tmp, "groups.json")
        with open(t, "w") as f:
            json.dump(groups_template(a.groups, a.size), f)
        wall, cpu, _ = run(a.binary, state, "create-stack", "--stack-name", "g", "--template-body", "file://" + t)
        print(f"create: {a.groups} groups of {a.size} instances            wall {wall:6.3f} s  cpu {cpu:6.3f} s  "
              f"({status(a.binary, state, 'g')}; target <= 1 s)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
