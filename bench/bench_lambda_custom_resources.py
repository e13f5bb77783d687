#!/usr/bin/env python3
"""100 inline-Python custom resources in one stack, created: the cost of a Lambda invocation.

    python3 bench/bench_lambda_custom_resources.py [MOONSTACK_BINARY] [--count N] [--repeat R]

One stack holds an AWS::Lambda::Function (python3.12, inline code with
cfnresponse) and N Custom:: resources (default 100) whose ServiceToken is
that function, so creating it runs N invocations, each a python3 process
(host/lambda/runner.cc). `moonstack create-stack` runs in embedded mode,
virtual time, in a fresh state directory. Prints, per run: the create's wall
time and that time per invocation; then, from the function's REPORT lines in
/aws/lambda/<name> (read with `moonstack world call logs FilterLogEvents`),
the cold starts (REPORT lines with Init Duration: process start, harness,
imports) and their mean Init Duration, the mean Duration (the handler); and
the CPU time moonstack and its python3
processes used (RUSAGE_CHILDREN), per invocation: on a loaded machine wall
time is mostly waiting for a CPU. Invocations run one after another with
one engine worker (2 cores: hardware_concurrency - 1). Target: <= 50 ms per
invocation.

python3 is the first on PATH, as the runner finds it (a wrapper such as a
pyenv shim is resolved once to the interpreter it starts).
"""

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CODE = """import cfnresponse
def handler(event, context):
    props = event['ResourceProperties']
    cfnresponse.send(event, context, cfnresponse.SUCCESS, {'Value': props['Value']}, 'res-' + props['Value'])
"""


def template(n):
    resources = {"Fn": {"Type": "AWS::Lambda::Function", "Properties": {
        "FunctionName": "bench-cr", "Runtime": "python3.12", "Handler": "index.handler",
        "Role": "arn:aws:iam::123456789012:role/bench", "Code": {"ZipFile": CODE}}}}
    for i in range(n):
        resources["R%03d" % i] = {"Type": "Custom::Bench", "Properties": {
            "ServiceToken": {"Fn::GetAtt": ["Fn", "Arn"]}, "Value": str(i)}}
    return json.dumps({"Resources": resources})


def run(binary, n):
    work = tempfile.mkdtemp(prefix="bench_lambda_cr_")
    try:
        path = os.path.join(work, "t.json")
        with open(path, "w") as f:
            f.write(template(n))
        env = dict(os.environ, MOONSTACK_STATE=os.path.join(work, "state.db"))
        # The function's execution role, made before the timed create: Lambda
        # refuses a role that is missing or does not trust it.
        trust = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "sts:AssumeRole",
                                                          "Principal": {"Service": "lambda.amazonaws.com"}}]}
        subprocess.run([binary, "world", "call", "iam", "CreateRole",
                        json.dumps({"RoleName": "bench", "AssumeRolePolicyDocument": trust})],
                       env=env, check=True, stdout=subprocess.DEVNULL)
        start = time.perf_counter()
        cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([binary, "create-stack", "--stack-name", "bench", "--template-body", "file://" + path],
                       env=env, check=True, stdout=subprocess.DEVNULL)
        wall = time.perf_counter() - start
        cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (cpu_after.ru_utime - cpu_before.ru_utime) + (cpu_after.ru_stime - cpu_before.ru_stime)
        status = json.loads(subprocess.run([binary, "describe-stacks", "--stack-name", "bench"], env=env, check=True,
                                           capture_output=True, text=True).stdout)["Stacks"][0]["StackStatus"]
        if status != "CREATE_COMPLETE":
            sys.exit("create ended %s" % status)
        events = json.loads(subprocess.run(
            [binary, "world", "call", "logs", "FilterLogEvents", json.dumps({"logGroupName": "/aws/lambda/bench-cr",
                                                                           "filterPattern": "REPORT"})],
            env=env, check=True, capture_output=True, text=True).stdout)["events"]
        init, handler = [], []
        for e in events:
            handler.append(float(re.search(r"\tDuration: ([0-9.]+) ms", e["message"]).group(1)))
            cold = re.search(r"Init Duration: ([0-9.]+) ms", e["message"])
            if cold:
                init.append(float(cold.group(1)))
        return wall, cpu, len(events), len(init), sum(init) / max(1, len(init)), sum(handler) / len(handler)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary", nargs="?", default=os.path.join(HERE, "..", "build", "host", "moonstack"))
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print("python3: %s" % shutil.which("python3"))
    for _ in range(args.repeat):
        wall, cpu, invocations, cold, init_ms, handler_ms = run(args.binary, args.count)
        print("%d custom resources: create %.2f s wall, %.1f ms per invocation (%d invocations, %d cold starts "
              "of mean init %.1f ms; handler %.1f ms); CPU %.2f s in all, %.1f ms per invocation" % (
                  args.count, wall, wall * 1000 / invocations, invocations, cold, init_ms, handler_ms, cpu,
                  cpu * 1000 / invocations))


if __name__ == "__main__":
    main()
