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
import shutil
import subprocess
import sys
import tempfile
import time

USER_DATA = {"Fn::Base64": {"Fn::Sub": "#!/bin/bash\n/opt/aws/bin/cfn-signal -e $? --stack ${AWS::StackName} --resource Web\n"}}


def run(binary, state, *args):
    env = dict(os.environ, MOONSTACK_STATE=state)
    t0 = time.perf_counter()
    r = subprocess.run([binary, *args], env=env, capture_output=True, text=True)
    dt = time.perf_counter() - t0
    if r.returncode != 0:
        sys.exit(f"{' '.join(args)} failed:\n{r.stdout}{r.stderr}")
    return dt, r.stdout


def status(binary, state, stack):
    _, out = run(binary, state, "describe-stacks", "--stack-name", stack)
    return json.loads(out)["Stacks"][0]["StackStatus"]


def rolling_template(n, batch):
    return {
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
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="bench_autoscaling_")
    try:
        state = os.path.join(tmp, "rolling.db")
        t = os.path.join(tmp, "rolling.json")
        with open(t, "w") as f:
            json.dump(rolling_template(a.instances, a.batch), f)
        create, _ = run(a.binary, state, "create-stack", "--stack-name", "r", "--template-body", "file://" + t)
        print(f"create: 1 group of {a.instances} instances        {create:7.3f} s  ({status(a.binary, state, 'r')})")
        update, _ = run(a.binary, state, "update-stack", "--stack-name", "r", "--use-previous-template",
                        "--parameters", "ParameterKey=Type,ParameterValue=t3.small")
        print(f"rolling update: {a.instances} instances, batches of {a.batch}  {update:7.3f} s  "
              f"({status(a.binary, state, 'r')}; target <= 1 s)")

        state = os.path.join(tmp, "groups.db")
        t = os.path.join(tmp, "groups.json")
        with open(t, "w") as f:
            json.dump(groups_template(a.groups, a.size), f)
        many, _ = run(a.binary, state, "create-stack", "--stack-name", "g", "--template-body", "file://" + t)
        print(f"create: {a.groups} groups of {a.size} instances        {many:7.3f} s  "
              f"({status(a.binary, state, 'g')}; target <= 1 s)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
