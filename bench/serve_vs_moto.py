#!/usr/bin/env python3
"""moonstack serve against moto_server: the same stacks through boto3, side by side.

    python3 bench/serve_vs_moto.py [MOONSTACK_BINARY] [--resources N] [--repeat R] [--kinds ssm,sg,sqs]

Starts `moonstack serve` (default binary build/moonstack, falling back to
build/host/moonstack) and moto's server (`python3 -m moto.server`), each on a
free port of 127.0.0.1, creates the same template through boto3 against each,
polls describe_stacks (every 10 ms) until CREATE_COMPLETE and prints both times, their ratio
and the number of stack events each recorded, per kind of stack. Target:
moonstack at least 10x faster than moto on each while recording every
resource event.

The stacks (types both implement, moonstack's Lua providers against its
simulated services, moto's CloudFormationModels), N resources each
(default 300, a few hundred as real stacks have):
  ssm  N AWS::SSM::Parameter
  sg   a VPC and N AWS::EC2::SecurityGroup in it, each with an ingress rule
  sqs  N AWS::SQS::Queue
A body larger than AWS's 51,200-byte TemplateBody limit is accepted by
moonstack with --max-template-body (moto does not check the limit).

Fairness: moonstack runs in real time (--time-scale 1, serve's default), not
scaled or virtual time, so nothing is sped up. Neither side models a delay
for creating a parameter (moonstack's simulated Parameter Store answers at
once; moto creates every resource inside the CreateStack request), so both
times are the servers' own work. Both are measured the same way: from the
create_stack call until a describe_stacks poll (every 10 ms) sees
CREATE_COMPLETE, with one boto3 client each, after the same warm-up (a
one-resource stack). Each
server has its own fresh state (moonstack: a new state file in a temp dir).

Polling every 10 ms makes one run's figure coarse (moto's create is done
when its CreateStack call returns; moonstack's is seen by the first poll
after it ends), and a small shared machine is noisy: --repeat R runs the
whole pair R times, each with fresh servers, and prints the medians. For
moonstack it also prints the create's own duration, from its stack events'
timestamps (the stack's CREATE_IN_PROGRESS to its CREATE_COMPLETE), which no
polling coarsens; the ratio is always of the polled times, measured the same
way for both.

A second ratio takes polling out for both: from the create_stack call to the
timestamp each server gave its stack's CREATE_COMPLETE event (both servers
run on this machine, so their clock is ours; moto stamps its events too).
"""

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import boto3
import botocore.config


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def template(kind, n, prefix="bench"):
    """The template of `kind` ("ssm", "sg", "sqs") with n resources; names under `prefix`."""
    if kind == "ssm":
        resources = {
            "P%04d" % i: {
                "Type": "AWS::SSM::Parameter",
                "Properties": {"Name": "/%s/param-%04d" % (prefix, i), "Type": "String", "Value": "value-%04d" % i},
            }
            for i in range(n)
        }
    elif kind == "sg":
        resources = {"Vpc": {"Type": "AWS::EC2::VPC", "Properties": {"CidrBlock": "10.0.0.0/16"}}}
        for i in range(n):
            resources["G%04d" % i] = {
                "Type": "AWS::EC2::SecurityGroup",
                "Properties": {
                    "GroupDescription": "group %d" % i, "GroupName": "%s-group-%04d" % (prefix, i),
                    "VpcId": {"Ref": "Vpc"},
                    "SecurityGroupIngress": [{"IpProtocol": "tcp", "FromPort": 443, "ToPort": 443,
                                              "CidrIp": "10.%d.%d.0/24" % (i // 256, i % 256)}],
                },
            }
    elif kind == "sqs":
        resources = {
            "Q%04d" % i: {"Type": "AWS::SQS::Queue",
                          "Properties": {"QueueName": "%s-queue-%04d" % (prefix, i), "VisibilityTimeout": 60}}
            for i in range(n)
        }
    else:
        raise ValueError(kind)
    return json.dumps({"Description": "%d resources (%s)" % (n, kind), "Resources": resources})


def wait_until_up(url, proc, name, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            sys.exit("%s exited with status %d" % (name, proc.returncode))
        try:
            urllib.request.urlopen(url, timeout=1).read()
            return
        except Exception:
            time.sleep(0.1)
    sys.exit("%s did not answer %s" % (name, url))


def client(port):
    return boto3.session.Session().client(
        "cloudformation",
        endpoint_url="http://127.0.0.1:%d" % port,
        region_name="us-east-1",
        aws_access_key_id="x",
        aws_secret_access_key="x",
        config=botocore.config.Config(retries={"max_attempts": 0}, read_timeout=600),
    )


def wait_complete(cf, name):
    while True:
        status = cf.describe_stacks(StackName=name)["Stacks"][0]["StackStatus"]
        if status == "CREATE_COMPLETE":
            return
        if not status.endswith("_IN_PROGRESS"):
            sys.exit("stack %s ended in %s" % (name, status))
        time.sleep(0.01)


def create(cf, kind, body):
    """Seconds from create_stack to CREATE_COMPLETE, the CreateStack call's
    seconds, the stack's events and resources, the seconds between its
    first and last stack event (None when they carry no distinct times), the
    seconds from create_stack to the stack's CREATE_COMPLETE event's
    timestamp (the server's clock, the same machine's as ours), the seconds
    from the moment botocore sent the serialized request to that timestamp,
    and a one-resource stack's seconds to CREATE_COMPLETE, after the warm-up."""
    # When botocore hands the serialized CreateStack to the connection: the
    # client's own work (serializing the template) is before it.
    sent = []
    cf.meta.events.register("before-send.cloudformation.CreateStack", lambda **kw: sent.append(time.time()))
    # Warm-up, the same for both: the connection, and botocore's first
    # create_stack (loading the operation's model costs ~60 ms once).
    warmup, name = "warmup-" + kind, "bench-" + kind
    cf.create_stack(StackName=warmup, TemplateBody=template(kind, 1, prefix="warmup"))
    wait_complete(cf, warmup)
    floor_start = time.perf_counter()
    cf.create_stack(StackName="floor-" + kind, TemplateBody=template(kind, 1, prefix="floor"))
    wait_complete(cf, "floor-" + kind)
    floor = time.perf_counter() - floor_start
    start, start_wall = time.perf_counter(), time.time()
    cf.create_stack(StackName=name, TemplateBody=body)
    request = time.perf_counter() - start
    wait_complete(cf, name)
    seconds = time.perf_counter() - start
    events = 0
    stack_times = []
    complete = None
    for page in cf.get_paginator("describe_stack_events").paginate(StackName=name):
        events += len(page["StackEvents"])
        for e in page["StackEvents"]:
            if e["ResourceType"] == "AWS::CloudFormation::Stack":
                stack_times.append(e["Timestamp"])
                if e["ResourceStatus"] == "CREATE_COMPLETE":
                    complete = e["Timestamp"].timestamp() - start_wall
    resources = 0
    for page in cf.get_paginator("list_stack_resources").paginate(StackName=name):
        resources += len(page["StackResourceSummaries"])
    own = (max(stack_times) - min(stack_times)).total_seconds() if len(stack_times) >= 2 else None
    served = complete + start_wall - sent[-1] if complete is not None and sent else None
    return seconds, request, events, resources, own, complete, served, floor


def stop(proc):
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def one_run(binary, kind, body):
    """Both servers, fresh, each creating `body`: ((moonstack figures), (moto figures))."""
    work = tempfile.mkdtemp(prefix="serve_vs_moto_")
    procs = []
    try:
        ms_port, moto_port = free_port(), free_port()
        ms_log = open(os.path.join(work, "moonstack.log"), "w")
        moonstack = subprocess.Popen(
            [binary, "serve", "--port", str(ms_port), "--state", os.path.join(work, "state.db"),
             "--time-scale", "1", "--max-template-body", str(len(body)), "--max-body-bytes", str(16 << 20)],
            stdout=ms_log, stderr=ms_log)
        procs.append(moonstack)
        moto_log = open(os.path.join(work, "moto.log"), "w")
        moto = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(moto_port)],
                                stdout=moto_log, stderr=moto_log)
        procs.append(moto)
        wait_until_up("http://127.0.0.1:%d/moonstack/health" % ms_port, moonstack, "moonstack serve")
        wait_until_up("http://127.0.0.1:%d/moto-api/" % moto_port, moto, "moto_server")
        return create(client(ms_port), kind, body), create(client(moto_port), kind, body)
    finally:
        for p in procs:
            stop(p)
        shutil.rmtree(work, ignore_errors=True)


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary", nargs="?", default="build/moonstack")
    parser.add_argument("--resources", type=int, default=300, help="resources per stack")
    parser.add_argument("--kinds", default="ssm,sg,sqs", help="stacks to run: ssm, sg, sqs (comma-separated)")
    parser.add_argument("--repeat", type=int, default=1, help="runs, each with fresh servers (medians printed)")
    args = parser.parse_args()
    binary = args.binary
    if not os.path.exists(binary) and os.path.exists("build/host/moonstack") and args.binary == "build/moonstack":
        binary = "build/host/moonstack"
    if not os.path.exists(binary):
        sys.exit("no moonstack binary at %s (pass its path as the first argument)" % binary)
    if args.repeat < 1:
        sys.exit("--repeat must be at least 1")

    kinds = [k for k in args.kinds.split(",") if k]
    summary = []
    for kind in kinds:
        summary.append((kind, compare(binary, kind, args.resources, args.repeat)))
    print()
    print("side by side (%d resources per stack, medians of %d run(s)):" % (args.resources, args.repeat))
    print("%-5s %12s %12s %8s" % ("stack", "moonstack", "moto", "ratio"))
    for kind, (ms_s, moto_s, ratio) in summary:
        print("%-5s %10.3f s %10.3f s %7.1fx%s" % (kind, ms_s, moto_s, ratio, "" if ratio >= 10 else "  (target >= 10x)"))


def compare(binary, kind, resources, repeat):
    """One kind of stack against both servers, `repeat` times; prints the
    figures and returns the median seconds of each and their ratio."""
    body = template(kind, resources)
    print("== %s: %d resources, %d bytes" % (kind, resources, len(body)))
    runs = []
    for i in range(repeat):
        ms, moto = one_run(binary, kind, body)
        runs.append((ms, moto))
        if repeat > 1:
            print("run %d: moonstack %.3f s (its own %s), moto %.3f s, ratio %.1fx; by event timestamps %s"
                  % (i + 1, ms[0], "%.3f s" % ms[4] if ms[4] is not None else "-", moto[0], moto[0] / ms[0],
                     "%.3f s / %.3f s" % (ms[5], moto[5]) if ms[5] is not None and moto[5] is not None else "-"))

    ms, moto = runs[-1]
    if repeat > 1:
        print("medians of %d runs:" % repeat)
    for name, k in (("moonstack serve", 0), ("moto_server", 1)):
        figures = [r[k] for r in runs]
        seconds, request = median([f[0] for f in figures]), median([f[1] for f in figures])
        events, resources = figures[-1][2], figures[-1][3]
        print("%-16s %7.3f s to CREATE_COMPLETE (the CreateStack call %.3f s), %5d stack events, %d resources"
              % (name + ":", seconds, request, events, resources))
    own = [r[0][4] for r in runs if r[0][4] is not None]
    if own:
        print("moonstack's own create (first to last stack event): %.3f s" % median(own))
    ratios = [r[1][0] / r[0][0] for r in runs]
    print("ratio (moto / moonstack): %.1fx (target >= 10x)%s"
          % (median(ratios), "" if repeat == 1 else ", runs %.1fx to %.1fx" % (min(ratios), max(ratios))))
    # The same comparison without polling's granularity: each server's own
    # timestamp of its stack's CREATE_COMPLETE, from the create_stack call.
    exact = [(r[0][5], r[1][5]) for r in runs if r[0][5] is not None and r[1][5] is not None and r[0][5] > 0]
    if exact:
        ms_t, moto_t = median([e[0] for e in exact]), median([e[1] for e in exact])
        exact_ratios = [e[1] / e[0] for e in exact]
        print("to the CREATE_COMPLETE event's timestamp (no polling): moonstack %.3f s, moto %.3f s, ratio %.1fx%s"
              % (ms_t, moto_t, median(exact_ratios),
                 "" if len(exact) == 1 else ", runs %.1fx to %.1fx" % (min(exact_ratios), max(exact_ratios))))
    # And without the client's serialization of the template either: from
    # the moment the request left botocore to that timestamp, each server's
    # own work alone.
    served = [(r[0][6], r[1][6]) for r in runs if r[0][6] is not None and r[1][6] is not None and r[0][6] > 0]
    if served:
        ms_t, moto_t = median([e[0] for e in served]), median([e[1] for e in served])
        served_ratios = [e[1] / e[0] for e in served]
        print("from the request sent to the CREATE_COMPLETE event's timestamp: moonstack %.3f s, moto %.3f s, "
              "ratio %.1fx%s" % (ms_t, moto_t, median(served_ratios),
                                 "" if len(served) == 1 else ", runs %.1fx to %.1fx" % (min(served_ratios),
                                                                                        max(served_ratios))))
    # The harness's floor: a one-resource stack after the warm-up, timed as
    # above (create_stack, then describe_stacks every 10 ms). A bigger stack
    # takes no less through it: moto's time / moonstack's floor bounds the
    # ratio whatever moonstack's own work.
    floor = median([r[0][7] for r in runs])
    print("one-resource stack through this harness: moonstack %.3f s, moto %.3f s (with moto at %.3f s here, "
          "the ratio cannot pass %.1fx)" % (floor, median([r[1][7] for r in runs]), median([r[1][0] for r in runs]),
                                             median([r[1][0] for r in runs]) / floor))
    return median([r[0][0] for r in runs]), median([r[1][0] for r in runs]), median(ratios)


if __name__ == "__main__":
    main()
