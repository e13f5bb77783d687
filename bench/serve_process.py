"""What the Python benchmarks that drive `moonstack serve` share: a free
port to start it on, and its resident memory."""
import socket


def free_port():
    """A port nobody listens on now (the kernel's pick for port 0)."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def rss_mb(pid):
    """The process's resident set size in MB (VmRSS), or -1."""
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return -1
