# cfnresponse: the module AWS provides to inline (ZipFile) Python code of
# Lambda-backed custom resources, with its documented interface and
# behaviour ("cfn-response module", AWS CloudFormation User Guide): send()
# PUTs the response JSON to event['ResponseURL'] and prints what it sent.
# Written for moonstack with the standard library only (AWS's uses urllib3).
# The content-length header counts the body's characters, as AWS's does.
import json

SUCCESS = "SUCCESS"
FAILED = "FAILED"


def send(event, context, responseStatus, responseData, physicalResourceId=None, noEcho=False, reason=None):
    responseUrl = event['ResponseURL']
    print(responseUrl)
    responseBody = {
        'Status': responseStatus,
        'Reason': reason or "See the details in CloudWatch Log Stream: {}".format(context.log_stream_name),
        'PhysicalResourceId': physicalResourceId or context.log_stream_name,
        'StackId': event['StackId'],
        'RequestId': event['RequestId'],
        'LogicalResourceId': event['LogicalResourceId'],
        'NoEcho': noEcho,
        'Data': responseData,
    }
    json_responseBody = json.dumps(responseBody)
    print("Response body:")
    print(json_responseBody)
    headers = {'content-type': '', 'content-length': str(len(json_responseBody))}
    try:
        print("Status code:", _put(responseUrl, json_responseBody, headers))
    except Exception as e:
        print("send(..) failed executing http.request(..):", e)


def _put(url, body, headers):
    """PUTs body to url; the response's reason phrase. Plain http over a
    socket (http.client and urllib.parse import the email and ipaddress
    packages: tens of ms per invocation), https through http.client."""
    scheme, _, rest = url.partition("://")
    netloc, slash, path = rest.partition("/")
    path = slash + path if slash else "/"
    if scheme == "https":
        import http.client
        conn = http.client.HTTPSConnection(netloc, timeout=30)
        conn.request('PUT', path, body=body, headers=headers)
        reason = conn.getresponse().reason
        conn.close()
        return reason
    import socket
    host, _, port = netloc.rpartition(":") if netloc.rpartition(":")[2].isdigit() else (netloc, "", "80")
    data = body.encode("utf-8")
    head = "PUT %s HTTP/1.1\r\nHost: %s\r\nContent-Length: %d\r\ncontent-type: \r\nConnection: close\r\n\r\n" % (
        path, netloc, len(data))
    with socket.create_connection((host.strip("[]"), int(port)), timeout=30) as s:
        s.sendall(head.encode("latin-1") + data)
        reply = b""
        while b"\r\n" not in reply:
            chunk = s.recv(4096)
            if not chunk:
                break
            reply += chunk
    status_line = reply.split(b"\r\n", 1)[0].decode("latin-1")
    return status_line.split(" ", 2)[2] if status_line.count(" ") >= 2 else status_line
