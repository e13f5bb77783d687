#!/usr/bin/env python3
"""10,000 SQS queues and 10,000 S3 buckets, each in one stack, through `moonstack serve`.

    python3 bench/bench_services.py [MOONSTACK_BINARY] [--sizes 10000,20000] [--kinds sqs,s3] [--repeat R]

For each kind and size, a fresh `moonstack serve` (virtual time,
--time-scale 0, a new state file in a temp dir) creates one stack of N
AWS::SQS::Queue or N AWS::S3::Bucket resources with generated names (the
providers/aws/sqs/queue.lua and s3/bucket.lua providers against the
simulated SQS and S3), through boto3, polled every 10 ms until
CREATE_COMPLETE. Prints, per run: seconds from the create_stack call to
CREATE_COMPLETE (polled) and the server's CPU seconds meanwhile (in virtual
time the events' timestamps do not measure the work; on a shared machine
wall - CPU is mostly waiting for a CPU); then the time to page through the
stack's resources and events with boto3's paginators (no target: each
page is read alone, so it grows with the stack, not its square); then the
ratio of the second size's time to the first's (linear: 2x resources <=
2.2x time).
Target: <= 1 s per 10,000 resources.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

import boto3
import botocore.config

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_process import free_port  # noqa: E402

TYPES = {"sqs": ("Q", "AWS::SQS::Queue"), "s3": ("B", "AWS::S3::Bucket")}


def template(kind, n):
    prefix, rtype = TYPES[kind]
    return json.dumps({"Resources": {"%s%05d" % (prefix, i): {"Type": rtype} for i in range(n)}},
                      separators=(",", ":"))


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(binary, kind, n):
    """(polled seconds, server CPU seconds, resources) of one fresh create."""
    body = template(kind, n)
    work = tempfile.mkdtemp(prefix="bench_services_")
    port = free_port()
    log = open(os.path.join(work, "serve.log"), "w")
    proc = subprocess.Popen([binary, "serve", "--port", str(port), "--state", os.path.join(work, "state.db"),
                             "--time-scale", "0", "--max-template-body", str(len(body)),
                             "--max-body-bytes", str(len(body) * 2 + (1 << 20))], stdout=log, stderr=log)
    try:
        deadline = time.time() + 60
        while True:
            try:
                urllib.request.urlopen("http://127.0.0.1:%d/moonstack/health" % port, timeout=1).read()
                break
            except Exception:
                if proc.poll() is not None or time.time() > deadline:
                    sys.exit("moonstack serve did not start (see %s)" % log.name)
                time.sleep(0.05)
        cf = boto3.session.Session().client(
            "cloudformation", endpoint_url="http://127.0.0.1:%d" % port, region_name="us-east-1",
            aws_access_key_id="x", aws_secret_access_key="x",
            config=botocore.config.Config(retries={"max_attempts": 0}, read_timeout=600))
        cf.create_stack(StackName="warmup", TemplateBody=template(kind, 1))
        while cf.describe_stacks(StackName="warmup")["Stacks"][0]["StackStatus"] != "CREATE_COMPLETE":
            time.sleep(0.01)
        cpu0 = cpu_seconds(proc.pid)
        start = time.perf_counter()
        cf.create_stack(StackName="bench", TemplateBody=body)
        while True:
            status = cf.describe_stacks(StackName="bench")["Stacks"][0]["StackStatus"]
            if status == "CREATE_COMPLETE":
                break
            if not status.endswith("_IN_PROGRESS"):
                sys.exit("the stack ended in %s" % status)
            time.sleep(0.01)
        seconds = time.perf_counter() - start
        cpu = cpu_seconds(proc.pid) - cpu0
        # The listings a client pages through (the aws CLI pages them all):
        # each page is read alone, so paging a stack costs O(stack).
        listings = []
        for api, key in (("list_stack_resources", "StackResourceSummaries"), ("describe_stack_events", "StackEvents")):
            t, cpu0 = time.perf_counter(), cpu_seconds(proc.pid)
            items = pages = 0
            for page in cf.get_paginator(api).paginate(StackName="bench"):
                pages += 1
                items += len(page[key])
            listings.append((api, items, pages, time.perf_counter() - t, cpu_seconds(proc.pid) - cpu0))
        return seconds, cpu, listings[0][1], listings
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary", nargs="?", default="build/host/moonstack")
    parser.add_argument("--sizes", default="10000,20000")
    parser.add_argument("--kinds", default="sqs,s3")
    parser.add_argument("--repeat", type=int, default=1, help="runs per size (the best is kept)")
    args = parser.parse_args()
    if not os.path.exists(args.binary):
        sys.exit("no moonstack binary at %s" % args.binary)
    sizes = [int(s) for s in args.sizes.split(",")]
    for kind in args.kinds.split(","):
        best = {}
        for n in sizes:
            runs = [run(args.binary, kind, n) for _ in range(args.repeat)]
            seconds, cpu, resources, listings = min(runs)
            best[n] = seconds
            print("%-3s %6d %s: %.3f s to CREATE_COMPLETE (polled), server CPU %.3f s, %d resources%s"
                  % (kind, n, TYPES[kind][1], seconds, cpu, resources,
                     "" if seconds <= n / 10000.0 else "  (target <= %.1f s)" % (n / 10000.0)))
            for api, items, pages, wall, server_cpu in listings:
                print("    %s: %d items in %d pages, %.2f s (server CPU %.2f s)" % (api, items, pages, wall, server_cpu))
        if len(sizes) == 2:
            ratio = best[sizes[1]] / best[sizes[0]]
            print("%-3s %dx resources: %.2fx time (linear: <= %.1fx)"
                  % (kind, sizes[1] // sizes[0], ratio, 1.1 * sizes[1] / sizes[0]))


if __name__ == "__main__":
    main()
