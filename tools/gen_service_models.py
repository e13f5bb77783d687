#!/usr/bin/env python3
"""Writes host/server/aws_service_models.json: what `moonstack serve` needs of
botocore's service models to decode requests and encode responses for the
services the simulated cloud (providers/sim/) holds.

    python3 tools/gen_service_models.py            # rewrites the committed file
    python3 tools/gen_service_models.py --check    # exit 1 when it is stale

Reads the machine's botocore (`pip install botocore`); the build does not run
this, it embeds the committed output (host/CMakeLists.txt). Every operation of
each service is kept, so a new sim action is reachable over HTTP without
regenerating; of the shapes, only those reachable from operations, and of each
only what the wire format depends on (no documentation, no constraints).

The output is one JSON object, one service per line:
  {"<sim service>": {"protocol", "signingName", "targetPrefix", "jsonVersion",
    "xmlNamespace", "operations": {name: {"http": {"method", "requestUri",
    "responseCode"}, "input", "output", "resultWrapper", "inputLocationName",
    "inputXmlNamespace"}}, "shapes": {name: botocore's shape, trimmed},
    "errors": {code: http status}}}
"""
import json
import sys
from pathlib import Path

import botocore.loaders

# sim service name (providers/sim/<name>.lua) -> botocore service name.
SERVICES = {
    "appstream": "appstream", "autoscaling": "autoscaling", "codedeploy": "codedeploy", "ec2": "ec2",
    "elasticache": "elasticache", "es": "es", "events": "events", "iam": "iam", "kms": "kms",
    "lambda": "lambda", "logs": "logs", "opensearch": "opensearch", "s3": "s3", "sns": "sns",
    "sqs": "sqs", "ssm": "ssm", "sts": "sts",
    "secretsmanager": "secretsmanager", "dynamodb": "dynamodb", "states": "stepfunctions",
}

SHAPE_KEYS = ("type", "member", "key", "value", "flattened", "locationName", "timestampFormat",
              "payload", "streaming", "xmlNamespace", "queryName", "required")
MEMBER_KEYS = ("shape", "location", "locationName", "queryName", "flattened", "xmlAttribute",
               "xmlNamespace", "timestampFormat", "jsonvalue", "hostLabel")
REF_KEYS = ("shape", "locationName", "queryName", "flattened", "xmlNamespace", "xmlAttribute")

OUT = Path(__file__).resolve().parent.parent / "host" / "server" / "aws_service_models.json"


def trim_ref(ref, keys):
    return {k: ref[k] for k in keys if k in ref}


def compact(model):
    meta = model["metadata"]
    shapes = model["shapes"]
    kept = {}
    errors = {}

    def visit(name):
        if name in kept:
            return
        shape = shapes[name]
        out = {k: (trim_ref(shape[k], REF_KEYS) if isinstance(shape[k], dict) else shape[k])
               for k in SHAPE_KEYS if k in shape}
        if isinstance(out.get("xmlNamespace"), dict):
            out["xmlNamespace"] = shape["xmlNamespace"]
        kept[name] = out
        if shape["type"] == "structure":
            out["members"] = {m: trim_ref(ref, MEMBER_KEYS) for m, ref in shape.get("members", {}).items()}
            for ref in shape.get("members", {}).values():
                visit(ref["shape"])
        for k in ("member", "key", "value"):
            if k in shape:
                visit(shape[k]["shape"])

    operations = {}
    for name, op in sorted(model["operations"].items()):
        http = op.get("http", {})
        o = {"http": {k: http[k] for k in ("method", "requestUri", "responseCode") if k in http}}
        if "input" in op:
            o["input"] = op["input"]["shape"]
            if "locationName" in op["input"]:
                o["inputLocationName"] = op["input"]["locationName"]
            if "xmlNamespace" in op["input"]:
                o["inputXmlNamespace"] = op["input"]["xmlNamespace"]["uri"]
            visit(op["input"]["shape"])
        if "output" in op:
            o["output"] = op["output"]["shape"]
            if "resultWrapper" in op["output"]:
                o["resultWrapper"] = op["output"]["resultWrapper"]
            visit(op["output"]["shape"])
        for err in op.get("errors", []):
            shape = shapes[err["shape"]]
            info = shape.get("error", {})
            errors[info.get("code", err["shape"])] = info.get("httpStatusCode", 400)
        operations[name] = o
    return {
        "protocol": meta["protocol"],
        "signingName": meta.get("signingName", meta["endpointPrefix"]),
        "targetPrefix": meta.get("targetPrefix", ""),
        "jsonVersion": meta.get("jsonVersion", ""),
        "xmlNamespace": meta.get("xmlNamespace", ""),
        "apiVersion": meta.get("apiVersion", ""),
        "awsQueryCompatible": "awsQueryCompatible" in meta,
        "operations": operations,
        "shapes": dict(sorted(kept.items())),
        "errors": dict(sorted(errors.items())),
    }


def render():
    loader = botocore.loaders.Loader()
    lines = []
    for sim_name, boto_name in sorted(SERVICES.items()):
        model = compact(loader.load_service_model(boto_name, "service-2"))
        lines.append(json.dumps(sim_name) + ":" + json.dumps(model, separators=(",", ":")))
    return "{\n" + ",\n".join(lines) + "\n}\n"


def main():
    text = render()
    if "--check" in sys.argv:
        stale = not OUT.exists() or OUT.read_text() != text
        if stale:
            print(f"{OUT} is stale: run python3 tools/gen_service_models.py", file=sys.stderr)
        return 1 if stale else 0
    OUT.write_text(text)
    print(f"wrote {OUT} ({len(text)} bytes, botocore {botocore.__version__})")
    return 0


if __name__ == "__main__":
    import botocore
    sys.exit(main())
