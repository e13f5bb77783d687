# moonstack's runtime harness for Lambda's python3.x runtimes: one warm
# execution environment, as Lambda's runtime interface client runs it. Init
# (extract the code, import the handler's module) runs once; then one
# invocation per request, module-level state kept between them.
#
#   python3 -u bootstrap.py <init.json>
#
# init.json (written by host/lambda/runner.cc): handler, task_dir, zip (a
# code archive to extract into task_dir, or ""), layers (archives to extract
# into opt_dir, in order: Lambda's /opt), python_version (the runtime's,
# "3.12"), site_packages.
# Protocol (host/lambda/execution_environment.h): messages are JSON, each
# preceded by its length (4 bytes, big-endian). Requests come on stdin,
# answers go to fd 3; stdout and stderr are the function's log.
#   after init:  {"ready": true, "error": <Lambda's error object, or null>}
#                (an init error ends the process after it)
#   request:     {"event", "context": {...}, "deadline_epoch_ms", "capture_response_url"}
#   answer:      {"ok": bool, "payload": <handler's result or Lambda's error
#                object>, "responses": [<bodies PUT to the ResponseURL>], "handler_ms"}
# EOF on stdin (the host ended without stopping it) ends the process and
# removes the environment's directory, the parent of this file's.
import json
import os
import struct
import sys
import time


def error_object(exc, request_id=None):
    import traceback
    obj = {"errorMessage": str(exc), "errorType": type(exc).__name__}
    if request_id:
        obj["requestId"] = request_id
    obj["stackTrace"] = traceback.format_list(traceback.extract_tb(exc.__traceback__)[1:])
    return obj


def runtime_error(error_type, message):
    return {"errorMessage": message, "errorType": error_type, "requestId": "", "stackTrace": []}


class LambdaContext:
    """The context object Lambda passes to a Python handler."""

    def __init__(self, c, deadline_epoch_ms):
        self.function_name = c["function_name"]
        self.function_version = c["function_version"]
        self.invoked_function_arn = c["invoked_function_arn"]
        self.memory_limit_in_mb = c["memory_limit_in_mb"]
        self.aws_request_id = c["aws_request_id"]
        self.log_group_name = c["log_group_name"]
        self.log_stream_name = c["log_stream_name"]
        self.identity = None
        self.client_context = None
        self._deadline_epoch_ms = deadline_epoch_ms

    def get_remaining_time_in_millis(self):
        return max(0, int(self._deadline_epoch_ms - time.time() * 1000))


class ResponseCapture:
    """Serves ResponseURL on 127.0.0.1 inside this process: each PUT's body
    is kept and answered 200, as S3 answers a presigned PUT. For embedded
    mode, where no server listens for custom-resource responses."""

    def __init__(self):
        import socket
        import threading
        self.bodies = []
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(8)
        self.url = "http://127.0.0.1:%d/cloudformation-custom-resource-response" % self._sock.getsockname()[1]
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            conn, _ = self._sock.accept()
            try:
                self._answer(conn)
            except OSError:
                pass
            finally:
                conn.close()

    def _answer(self, conn):
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = conn.recv(65536)
            if not chunk:
                return
            data += chunk
        head, body = data.split(b"\r\n\r\n", 1)
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value.strip())
        while len(body) < length:
            chunk = conn.recv(65536)
            if not chunk:
                break
            body += chunk
        if head.split(b" ", 1)[0] == b"PUT":
            self.bodies.append(body[:length].decode("utf-8", "replace"))
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        else:
            conn.sendall(b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")


def load_handler(spec):
    """The handler function, or Lambda's error object when it cannot be found."""
    name = spec["handler"]
    module_name, _, function_name = name.rpartition(".")
    if not module_name:
        return None, runtime_error("Runtime.MalformedHandlerName", "Bad handler '%s': not enough values to unpack "
                                   "(expected 2, got 1)" % name)
    import importlib
    try:
        module = importlib.import_module(module_name.replace("/", "."))
    except ImportError as e:
        return None, runtime_error("Runtime.ImportModuleError", "Unable to import module '%s': %s" % (module_name, e))
    except Exception as e:  # a syntax error or an exception at import time
        return None, runtime_error("Runtime.UserCodeSyntaxError" if isinstance(e, SyntaxError)
                                   else type(e).__name__, "%s" % e)
    fn = getattr(module, function_name, None)
    if fn is None:
        return None, runtime_error("Runtime.HandlerNotFound",
                                   "Handler '%s' missing on module '%s'" % (function_name, module_name))
    return fn, None


_capture = None


def shared_capture():
    """The environment's one ResponseCapture, started at its first use: one
    listening thread for the environment's life (a thread per invocation
    would pile up, each holding a stack of the function's address space)."""
    global _capture
    if _capture is None:
        _capture = ResponseCapture()
    return _capture


def invoke(fn, request):
    """One invocation: the answer to send back."""
    event = request["event"]
    capture = None
    if request.get("capture_response_url") and isinstance(event, dict) and "ResponseURL" in event:
        capture = shared_capture()
        capture.bodies = []
        event["ResponseURL"] = capture.url
    context = LambdaContext(request["context"], request["deadline_epoch_ms"])
    started = time.perf_counter()
    ok = True
    try:
        result = fn(event, context)
        payload = json.loads(json.dumps(result))
    except TypeError as e:
        if "JSON serializable" in str(e):
            ok, payload = False, runtime_error("Runtime.MarshalError", "Unable to marshal response: %s" % e)
        else:
            ok, payload = False, error_object(e, context.aws_request_id)
    except Exception as e:
        ok, payload = False, error_object(e, context.aws_request_id)
    if not ok and payload.get("errorType") != "Runtime.MarshalError":
        print("[ERROR] %s: %s" % (payload["errorType"], payload["errorMessage"]), file=sys.stderr)
        print("Traceback (most recent call last):\n" + "".join(payload["stackTrace"]), end="", file=sys.stderr)
    handler_ms = (time.perf_counter() - started) * 1000
    return {"ok": ok, "payload": payload, "responses": capture.bodies if capture else [], "handler_ms": handler_ms}


def read_exactly(fd, n):
    data = b""
    while len(data) < n:
        chunk = os.read(fd, n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def receive(fd):
    head = read_exactly(fd, 4)
    body = head and read_exactly(fd, struct.unpack(">I", head)[0])
    return None if body is None else json.loads(body)


def send(fd, message):
    data = json.dumps(message).encode()
    data = struct.pack(">I", len(data)) + data
    while data:
        data = data[os.write(fd, data):]


def extract(archive, directory):
    """A zip archive's files into `directory`, with the permissions the
    archive records (a layer's bin/ tools stay executable, as Lambda keeps them)."""
    import zipfile
    with zipfile.ZipFile(archive) as z:
        for info in z.infolist():
            target = z.extract(info, directory)
            mode = (info.external_attr >> 16) & 0o777
            if mode and not info.is_dir():
                os.chmod(target, mode)


def main():
    # The protocol's descriptors, out of reach of the function's own
    # subprocesses (os.dup makes them non-inheritable): stdin becomes
    # /dev/null, fd 3 is closed.
    requests, answers = os.dup(0), os.dup(3)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.close(3)
    with open(sys.argv[1]) as f:
        spec = json.load(f)
    task_dir = spec["task_dir"]
    if spec.get("zip"):
        extract(spec["zip"], task_dir)
    opt_dir = spec.get("opt_dir", "")
    for layer in spec.get("layers", []):  # a later layer's files over an earlier one's
        extract(layer, opt_dir)
    # Lambda's order: the code, the layers' /opt/python/lib/pythonX.Y/site-packages
    # and /opt/python, then the runtime (here the harness, for cfnresponse).
    layer_paths = [os.path.join(opt_dir, "python", "lib", "python" + spec.get("python_version", ""), "site-packages"),
                   os.path.join(opt_dir, "python")] if opt_dir else []
    sys.path[0:0] = [task_dir] + layer_paths + [os.path.dirname(os.path.abspath(__file__))]
    # Run with -S: the interpreter's site-packages (boto3, if installed), as
    # the host found them, without their .pth files (runner.cc).
    sys.path.extend(p for p in spec.get("site_packages", []) if p not in sys.path)
    fn, error = load_handler(spec)  # importing the code is Init, as on Lambda
    if error:
        print("[ERROR] %s: %s" % (error["errorType"], error["errorMessage"]), file=sys.stderr)
    sys.stdout.flush()
    sys.stderr.flush()
    send(answers, {"ready": True, "error": error})
    if error:
        return
    while True:
        request = receive(requests)
        if request is None:
            # The host ended without stopping this environment (it would
            # have killed it): the environment's directory goes with it.
            import shutil
            shutil.rmtree(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), ignore_errors=True)
            return
        answer = invoke(fn, request)
        sys.stdout.flush()
        sys.stderr.flush()
        send(answers, answer)


main()
