#!/usr/bin/env python3
"""N security groups in one VPC, created through `moonstack serve`.

    python3 bench/bench_security_groups.py [MOONSTACK_BINARY] [--groups N ...]

For each N (default 10,000 and 20,000) it starts `moonstack serve` on a free
port with a fresh state file (virtual time, --time-scale 0: nothing here
waits on a simulated delay anyway), creates one stack through boto3 — an
AWS::EC2::VPC and N AWS::EC2::SecurityGroup in it, each with an ingress
rule — polls describe_stacks every 10 ms until CREATE_COMPLETE and prints
the time, how much of it the create_stack call took (boto3 URL-encoding the
template's megabytes is a good part of it), the server's CPU seconds
meanwhile (in virtual time the events' timestamps do not measure the work),
and the ratio of the largest N's time to the smallest's.
Targets: 10,000 groups ≤ 1 s; 20,000 ≤ 2.2× that (linear: a group's name
is checked through a world index, sim/ec2/groups.lua, not a walk of the
VPC's groups — before it, 1,000 groups took 0.83 s and 2,000 took 3.5 s).
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from bench_services import cpu_seconds
from serve_process import free_port
from serve_vs_moto import client, stop, wait_complete, wait_until_up


def template(n):
    resources = {"Vpc": {"Type": "AWS::EC2::VPC", "Properties": {"CidrBlock": "10.0.0.0/16"}}}
    for i in range(n):
        resources["Sg%05d" % i] = {
            "Type": "AWS::EC2::SecurityGroup",
            "Properties": {
                "GroupDescription": "bench group %d" % i,
                "VpcId": {"Ref": "Vpc"},
                "SecurityGroupIngress": [{"IpProtocol": "tcp", "FromPort": 443, "ToPort": 443,
                                          "CidrIp": "10.0.0.0/16"}],
            },
        }
    return json.dumps({"Resources": resources})


def one_run(binary, n):
    """(polled seconds, the create_stack call's seconds, server CPU seconds) for N groups."""
    body = template(n)
    work = tempfile.mkdtemp(prefix="bench_sg_")
    proc = None
    try:
        port = free_port()
        log = open(os.path.join(work, "serve.log"), "w")
        proc = subprocess.Popen(
            [binary, "serve", "--port", str(port), "--state", os.path.join(work, "state.db"), "--time-scale", "0",
             "--max-template-body", str(len(body)), "--max-body-bytes", str(len(body) * 2 + (1 << 20))],
            stdout=log, stderr=log)
        wait_until_up("http://127.0.0.1:%d/moonstack/health" % port, proc, "moonstack serve")
        cf = client(port)
        cf.create_stack(StackName="warmup", TemplateBody=template(1))
        wait_complete(cf, "warmup")
        cpu = cpu_seconds(proc.pid)
        start = time.perf_counter()
        cf.create_stack(StackName="bench", TemplateBody=body)
        call = time.perf_counter() - start
        wait_complete(cf, "bench")
        seconds = time.perf_counter() - start
        return seconds, call, cpu_seconds(proc.pid) - cpu
    finally:
        if proc:
            stop(proc)
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary", nargs="?", default="build/moonstack")
    parser.add_argument("--groups", type=int, nargs="+", default=[10000, 20000])
    args = parser.parse_args()
    binary = args.binary
    if not os.path.exists(binary) and args.binary == "build/moonstack" and os.path.exists("build/host/moonstack"):
        binary = "build/host/moonstack"
    if not os.path.exists(binary):
        sys.exit("no moonstack binary at %s (pass its path as the first argument)" % binary)
    results = []
    for n in args.groups:
        seconds, call, cpu = one_run(binary, n)
        results.append((n, seconds))
        print("%6d security groups: %.3f s to CREATE_COMPLETE (the create_stack call %.3f s), server CPU %.2f s"
              % (n, seconds, call, cpu))
    if len(results) >= 2:
        (n0, t0), (n1, t1) = results[0], results[-1]
        print("%d / %d groups: %.2fx the time for %.2fx the groups" % (n1, n0, t1 / t0, n1 / n0))


if __name__ == "__main__":
    main()
