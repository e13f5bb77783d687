#!/usr/bin/env python3
"""Soak: create/update/delete churn against `moonstack serve` for N minutes,
with SIGKILLs of the server at random points, checking after every restart
that nothing was lost or wedged.

    python3 bench/soak.py build/host/moonstack --minutes 10 [--seed 1]

Every `--kill-every` seconds (on average) the server is killed with SIGKILL
in the middle of whatever it is doing and started again on the same state
file; it resumes what was in progress. Once every stack has settled, the
invariants are checked:
  - no stuck stack: every stack reaches a terminal status within --settle s;
  - no orphans: every live EC2 record of the simulated cloud (VPC, subnet,
    security group, instance; the sim's defaults aside) is a physical ID of
    a resource of a stack that exists (or of a retained one);
  - PRAGMA integrity_check is ok.
Printed per check: elapsed time, operations sent, kills, the server's RSS,
the state file's size (with its WAL), and the invariants. Exit status 1 when
an invariant failed.
"""
import argparse
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request

import boto3
import botocore

from serve_process import free_port, rss_mb

KINDS = ("ec2.vpc", "ec2.subnet", "ec2.security_group", "ec2.instance")


def template(version):
    """A network and an instance; `version` changes the group's description
    (a replacement) and the instance type (an update in place)."""
    return json.dumps({
        "Resources": {
            "Vpc": {"Type": "AWS::EC2::VPC", "Properties": {"CidrBlock": "10.0.0.0/16"}},
            "Subnet": {"Type": "AWS::EC2::Subnet",
                       "Properties": {"VpcId": {"Ref": "Vpc"}, "CidrBlock": "10.0.1.0/24"}},
            "Group": {"Type": "AWS::EC2::SecurityGroup",
                      "Properties": {"GroupDescription": "web v%d" % version, "VpcId": {"Ref": "Vpc"}}},
            "Server": {"Type": "AWS::EC2::Instance",
                       "Properties": {"ImageId": "ami-0123456789abcdef0",
                                      "InstanceType": ["t3.micro", "t3.small"][version % 2],
                                      "SubnetId": {"Ref": "Subnet"}, "SecurityGroupIds": [{"Ref": "Group"}]}},
        }
    })


class Server:
    def __init__(self, binary, state, time_scale, log):
        self.binary, self.state, self.time_scale, self.log = binary, state, time_scale, log
        self.proc = None
        self.port = None

    def start(self):
        self.port = free_port()
        self.proc = subprocess.Popen(
            [self.binary, "serve", "--port", str(self.port), "--state", self.state, "--time-scale", self.time_scale],
            stdout=subprocess.DEVNULL, stderr=self.log)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                with urllib.request.urlopen("http://127.0.0.1:%d/moonstack/health" % self.port, timeout=1) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.05)
        raise SystemExit("soak: the server did not start (see %s)" % self.log.name)

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return False
        return True

    def rss_mb(self):
        return rss_mb(self.proc.pid)

    def client(self):
        return boto3.client("cloudformation", endpoint_url="http://127.0.0.1:%d" % self.port, region_name="us-east-1",
                            aws_access_key_id="x", aws_secret_access_key="x",
                            config=botocore.config.Config(retries={"max_attempts": 0}, read_timeout=30))


def state_bytes(state):
    return sum(os.path.getsize(p) for p in (state, state + "-wal") if os.path.exists(p))


def check(state):
    """The invariants over the state file: (stuck stacks, orphans, integrity)."""
    db = sqlite3.connect("file:%s?mode=ro" % state, uri=True, timeout=30)
    integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
    stuck, owned = [], set()
    for key, data in db.execute("SELECT stack_key, data FROM stacks"):
        s = json.loads(data)
        if s["status"].endswith("_IN_PROGRESS") and s["status"] != "REVIEW_IN_PROGRESS":
            stuck.append("%s %s" % (s["name"], s["status"]))
        if s["status"] == "DELETE_COMPLETE":
            continue
        for (rdata,) in db.execute("SELECT data FROM resources WHERE stack = ?", (key,)):
            r = json.loads(rdata)
            for field in ("physical_id", "old_physical_id"):
                if r.get(field):
                    owned.add(r[field])
    orphans = []
    for kind, rid, data in db.execute("SELECT kind, id, data FROM world WHERE live = 1"):
        if kind not in KINDS:
            continue
        d = json.loads(data)
        if d.get("IsDefault") or d.get("GroupName") == "default":
            continue  # the sim's own
        if rid not in owned:
            orphans.append("%s %s" % (kind, rid))
    db.close()
    return stuck, orphans, integrity


def settle(cf, seconds):
    """Waits until no stack is in progress; False on timeout."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            stacks = cf.list_stacks()["StackSummaries"]
        except (botocore.exceptions.ClientError, botocore.exceptions.BotoCoreError):
            time.sleep(0.2)
            continue
        if not any(s["StackStatus"].endswith("_IN_PROGRESS") and s["StackStatus"] != "REVIEW_IN_PROGRESS"
                   for s in stacks):
            return True
        time.sleep(0.2)
    return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("moonstack")
    ap.add_argument("--minutes", type=float, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--kill-every", type=float, default=8.0, help="mean seconds between SIGKILLs")
    ap.add_argument("--time-scale", default="0.01")
    ap.add_argument("--stacks", type=int, default=6, help="at most this many stacks at once")
    ap.add_argument("--settle", type=float, default=120, help="seconds a stack may take to settle")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="moonstack_soak_")
    state = os.path.join(work, "state.db")
    log = open(os.path.join(work, "serve.log"), "w")
    server = Server(os.path.abspath(args.moonstack), state, args.time_scale, log)
    server.start()
    cf = server.client()
    start = time.time()
    end = start + args.minutes * 60
    next_kill = start + rng.expovariate(1.0 / args.kill_every)
    ops = kills = failures = 0
    names, versions, serial = [], {}, 0
    peak_rss = 0.0
    print("soak: state %s, %.1f min, kill every ~%.0f s, seed %d" % (state, args.minutes, args.kill_every, args.seed))
    print("%7s %6s %5s %8s %9s %6s %5s %7s %s" % ("t(s)", "ops", "kills", "rss(MB)", "state(MB)", "stacks", "stuck",
                                               "orphans", "integrity"))

    def report(final=False):
        nonlocal failures, cf
        settled = settle(cf, args.settle)
        stuck, orphans, integrity = check(state)
        if not settled and not stuck:
            stuck = ["(still in progress after %.0f s)" % args.settle]
        bad = bool(stuck or orphans or integrity != "ok")
        failures += bad
        rss = server.rss_mb()
        print("%7.0f %6d %5d %8.1f %9.2f %6d %5d %7d %s%s" % (
            time.time() - start, ops, kills, rss, state_bytes(state) / 1e6, len(names), len(stuck), len(orphans),
            integrity, "  FINAL" if final else ""))
        for what in stuck[:5] + orphans[:5]:
            print("        ! " + what)
        sys.stdout.flush()

    while time.time() < end:
        if time.time() >= next_kill:
            # Mid-operation, most likely: operations are always running.
            server.kill()
            kills += 1
            server.start()
            cf = server.client()
            report()
            next_kill = time.time() + rng.expovariate(1.0 / args.kill_every)
            continue
        action = rng.random()
        try:
            if not names or (action < 0.4 and len(names) < args.stacks):
                serial += 1
                name = "soak-%d" % serial
                cf.create_stack(StackName=name, TemplateBody=template(0))
                names.append(name)
                versions[name] = 0
            elif action < 0.8:
                name = rng.choice(names)
                versions[name] += 1
                cf.update_stack(StackName=name, TemplateBody=template(versions[name]))
            else:
                name = rng.choice(names)
                cf.delete_stack(StackName=name)
                names.remove(name)
            ops += 1
        except (botocore.exceptions.ClientError, botocore.exceptions.BotoCoreError):
            pass  # e.g. an update of a stack still in progress: AWS refuses it too
        peak_rss = max(peak_rss, server.rss_mb())
        time.sleep(rng.uniform(0, 0.2))

    report(final=True)
    clean = server.stop()
    stuck, orphans, integrity = check(state)
    print("soak: %d operations, %d kills, peak RSS %.1f MB, state %.2f MB, %s shutdown; %s" % (
        ops, kills, peak_rss, state_bytes(state) / 1e6, "clean" if clean else "FORCED",
        "all invariants held" if failures == 0 and clean else "%d check(s) FAILED" % failures))
    return 0 if failures == 0 and clean else 1


if __name__ == "__main__":
    sys.exit(main())
