#!/usr/bin/env python3
"""moonstack serve's memory and disk under create/delete churn.

    python3 bench/serve_churn.py [MOONSTACK_BINARY] [--cycles N] [--parameters P] [--every K]

Starts `moonstack serve` (default build/host/moonstack) on a free port with a
fresh state file in a temp dir and virtual time (--time-scale 0), then runs N
cycles (default 1,200) through boto3: create a stack, poll describe_stacks
until CREATE_COMPLETE, delete it, poll by its ID until DELETE_COMPLETE. The
stack is a VPC, a security group and 1 + P AWS::SSM::Parameter resources
(default P = 20 values of 2,000 characters: a ~42 KB template, so the state
file grows ~26 MB per 100 cycles). Every K cycles (default 100) it prints the
server's RSS (VmRSS), the state file's size and the lock files present.

What to look for: RSS levels off however many stacks came and went (a
bound: SQLite's page cache per connection, store/database.cc, and serve
giving freed pages back between operations, host/server/freed_memory.h),
and no lock file outlives its operation (store/stack_lock.h). The state
file keeps growing here:
deleted stacks are kept 90 days of the operation clock's time, and this
runs for minutes (store/deleted_stacks.h; tests/stack/retention_test.cc
passes the 90 days in virtual time).
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

from serve_process import free_port, rss_mb


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("binary", nargs="?", default=os.path.join(here, "..", "build", "host", "moonstack"))
    ap.add_argument("--cycles", type=int, default=1200)
    ap.add_argument("--parameters", type=int, default=20)
    ap.add_argument("--every", type=int, default=100)
    args = ap.parse_args()

    state_dir = tempfile.mkdtemp(prefix="moonstack_churn_")
    state = os.path.join(state_dir, "state.db")
    port = free_port()
    log = open(os.path.join(state_dir, "serve.log"), "w")
    server = subprocess.Popen([args.binary, "serve", "--port", str(port), "--state", state, "--time-scale", "0"],
                              stderr=log)
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/moonstack/health")
                break
            except OSError:
                time.sleep(0.1)
        cf = boto3.client("cloudformation", endpoint_url=f"http://127.0.0.1:{port}", region_name="us-east-1",
                          aws_access_key_id="x", aws_secret_access_key="x")
        resources = {
            "Vpc": {"Type": "AWS::EC2::VPC", "Properties": {"CidrBlock": "10.0.0.0/16"}},
            "Group": {"Type": "AWS::EC2::SecurityGroup",
                      "Properties": {"GroupDescription": "web", "VpcId": {"Ref": "Vpc"}}},
            "Param": {"Type": "AWS::SSM::Parameter", "Properties": {"Type": "String", "Value": "x" * 100}},
        }
        for i in range(args.parameters):
            resources[f"P{i}"] = {"Type": "AWS::SSM::Parameter", "Properties": {"Type": "String", "Value": "y" * 2000}}
        template = json.dumps({"Resources": resources})

        def wait(stack, want):
            while True:
                status = cf.describe_stacks(StackName=stack)["Stacks"][0]["StackStatus"]
                if status == want:
                    return
                if not status.endswith("IN_PROGRESS"):
                    sys.exit(f"{stack}: {status}")
                time.sleep(0.005)

        locks = state + ".locks"
        print(f"template {len(template) // 1024} KB; start: RSS {rss_mb(server.pid):.1f} MB", flush=True)
        start = time.time()
        for i in range(1, args.cycles + 1):
            name = f"churn{i}"
            stack_id = cf.create_stack(StackName=name, TemplateBody=template)["StackId"]
            wait(name, "CREATE_COMPLETE")
            cf.delete_stack(StackName=name)
            wait(stack_id, "DELETE_COMPLETE")
            if i % args.every == 0:
                lock_files = len(os.listdir(locks)) if os.path.isdir(locks) else 0
                print(f"{i:5d} cycles: RSS {rss_mb(server.pid):6.1f} MB, state file "
                      f"{os.path.getsize(state) >> 20:4d} MB, {lock_files} lock files, {time.time() - start:.0f} s",
                      flush=True)
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(state_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
