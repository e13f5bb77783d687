"""S3 objects far over a Lua string's comfort through `moonstack serve`:
boto3's upload_file (multipart: 8 MiB parts, 10 at once) and download_file
(ranged GETs, 10 at once) of one file, its bytes kept as blobs of the state
file (engine/store/blob_store.h). Prints upload and download MB/s and the
server's peak resident set (VmHWM) over its idle one.

    python3 bench/serve_s3_large.py [MOONSTACK_BINARY] [--mib N] [--repeat R]
"""
import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

import boto3
from boto3.s3.transfer import TransferConfig

from serve_process import free_port


def peak_rss_mb(pid):
    """The process's peak resident set size in MB (VmHWM)."""
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024.0
    return -1


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser()
    parser.add_argument("binary", nargs="?", default=os.path.join(here, "..", "build", "host", "moonstack"))
    parser.add_argument("--mib", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="moonstack_s3_bench_")
    port = free_port()
    url = "http://127.0.0.1:%d" % port
    server = subprocess.Popen([args.binary, "serve", "--port", str(port), "--state", os.path.join(work, "state.db")],
                              stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(url + "/moonstack/health").read()
                break
            except OSError:
                time.sleep(0.1)
        idle = peak_rss_mb(server.pid)
        s3 = boto3.client("s3", endpoint_url=url, region_name="us-east-1",
                          aws_access_key_id="test", aws_secret_access_key="test")
        s3.create_bucket(Bucket="bench")
        up, down = os.path.join(work, "up.bin"), os.path.join(work, "down.bin")
        with open(up, "wb") as f:
            f.write(os.urandom(args.mib << 20))
        digest = hashlib.md5(open(up, "rb").read()).hexdigest()
        config = TransferConfig(multipart_threshold=8 << 20, multipart_chunksize=8 << 20, max_concurrency=10)
        ups, downs = [], []
        for i in range(args.repeat):
            start = time.monotonic()
            s3.upload_file(up, "bench", "object-%d" % i, Config=config)
            ups.append(time.monotonic() - start)
            start = time.monotonic()
            s3.download_file("bench", "object-%d" % i, down, Config=config)
            downs.append(time.monotonic() - start)
            if hashlib.md5(open(down, "rb").read()).hexdigest() != digest:
                sys.exit("download %d differs from the upload" % i)
        size = float(args.mib * 1.048576)
        print("object: %d MiB, %d round trips" % (args.mib, args.repeat))
        print("upload_file:   %.0f MB/s (best %.2f s)" % (size / min(ups), min(ups)))
        print("download_file: %.0f MB/s (best %.2f s)" % (size / min(downs), min(downs)))
        print("serve peak RSS: %.0f MB (idle %.0f MB)" % (peak_rss_mb(server.pid), idle))
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
