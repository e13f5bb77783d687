#!/usr/bin/env python3
"""Generate engine/catalog/aws_resource_types.tsv from cfn-lint's copy of the
CloudFormation registry schemas (us-east-1).

Run by hand when cfn-lint's schemas should be refreshed:

    pip install cfn-lint            # MIT-0; the schemas are AWS's public facts
    python3 tools/gen_resource_catalog.py            # writes the default path
    python3 tools/gen_resource_catalog.py -o FILE    # or somewhere else

The output is committed; the build never needs Python.

Format (UTF-8/ASCII text, one line per resource type, sorted by type; lines
starting with '#' are comments):

    TYPE <TAB> FLAGS <TAB> ATTRIBUTES <TAB> PROPERTIES

  TYPE        e.g. AWS::KMS::Key
  FLAGS       type-level flags, '-' when none:
                P  open properties: the schema accepts property names it does
                   not list (patternProperties / additionalProperties)
  ATTRIBUTES  comma-separated Fn::GetAtt attribute names, sorted. Nested
              names are dotted ("Endpoint.Address"). A '*' matches any run of
              characters ("Outputs.*" for AWS::CloudFormation::Stack, "*" for
              a type that accepts any attribute). Empty when none.
  PROPERTIES  comma-separated top-level properties, sorted, each NAME or
              NAME:FLAGS with FLAGS from
                R  required
                C  create-only (changing it requires replacement)
                c  a nested path below it is create-only
                O  read-only (output only; not settable in a template)
                W  write-only (never returned, so never a GetAtt value)

Attribute names come from cfn-lint's GetAtt knowledge (Schema.get_atts), which
is readOnlyProperties with AWS's known exceptions applied; its regex keys are
turned into the glob form above.
"""

import argparse
import os
import re
import sys

REGION = "us-east-1"
DEFAULT_OUT = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "engine", "catalog", "aws_resource_types.tsv"
)
NAME_RE = re.compile(r"^[A-Za-z0-9_.*]+$")
TYPE_RE = re.compile(r"^[A-Za-z0-9]+::[A-Za-z0-9]+::[A-Za-z0-9]+$")


def attr_from_key(key: str) -> str:
    """cfn-lint GetAtt keys are regexes (only a few use regex syntax)."""
    if key == ".*":
        return "*"
    if key.endswith("\\..*"):  # Outputs\..*  -> Outputs.*
        return key[: -len("\\..*")] + ".*"
    # readOnlyProperties paths like /properties/A/*/B arrive as "A.*.B": the
    # '*' is a JSON-pointer array wildcard; keep it as a glob.
    if "\\" in key or not NAME_RE.match(key):
        raise ValueError(f"unexpected GetAtt key {key!r}")
    return key


def pointer_top(pointer: str):
    parts = pointer.split("/")
    if len(parts) < 3 or parts[1] != "properties":
        return None, False
    return parts[2], len(parts) > 3


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--output", default=DEFAULT_OUT)
    args = ap.parse_args()

    try:
        import cfnlint
        from cfnlint.schema import PROVIDER_SCHEMA_MANAGER as manager
    except ImportError:
        print("cfn-lint is not installed: pip install cfn-lint", file=sys.stderr)
        return 1
    try:
        from importlib.metadata import version

        cfnlint_version = version("cfn-lint")
    except Exception:  # pragma: no cover
        cfnlint_version = getattr(cfnlint, "__version__", "unknown")

    lines = []
    for type_name in sorted(manager.get_resource_types(REGION)):
        if not TYPE_RE.match(type_name):
            # cfn-lint's pseudo type "Module" and anything else not a
            # three-part AWS type name.
            print(f"skipping {type_name}", file=sys.stderr)
            continue
        schema_obj = manager.get_resource_schema(REGION, type_name)
        schema = schema_obj.schema

        attrs = sorted({attr_from_key(k) for k in schema_obj.get_atts.data.keys()})

        props = schema.get("properties", {})
        required = set(schema.get("required", []))
        flags = {name: set() for name in props}

        def mark(pointers, flag, nested_flag=None):
            for p in pointers:
                top, nested = pointer_top(p)
                if top is None or top not in flags:
                    continue
                if nested:
                    if nested_flag:
                        flags[top].add(nested_flag)
                else:
                    flags[top].add(flag)

        for r in required:
            if r in flags:
                flags[r].add("R")
        mark(schema.get("createOnlyProperties", []), "C", "c")
        mark(schema.get("readOnlyProperties", []), "O")
        mark(schema.get("writeOnlyProperties", []), "W")

        prop_fields = []
        for name in sorted(props):
            if not NAME_RE.match(name) or "*" in name:
                raise ValueError(f"{type_name}: unexpected property name {name!r}")
            f = flags[name]
            if "C" in f:
                f.discard("c")
            order = "RCcOW"
            fl = "".join(ch for ch in order if ch in f)
            prop_fields.append(f"{name}:{fl}" if fl else name)

        type_flags = ""
        if schema.get("patternProperties") or schema.get("additionalProperties", True) is not False:
            type_flags += "P"

        lines.append("\t".join([type_name, type_flags or "-", ",".join(attrs), ",".join(prop_fields)]))

    header = [
        f"# moonstack AWS resource catalog: {len(lines)} types, region {REGION}, from cfn-lint {cfnlint_version}"
        " (CloudFormation registry schemas).",
        "# Generated by tools/gen_resource_catalog.py; do not edit. Format: see that script.",
        "# TYPE<TAB>FLAGS<TAB>ATTRIBUTES<TAB>PROPERTIES(name[:RCcOW])",
    ]
    out = os.path.normpath(args.output)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w", encoding="ascii", newline="\n") as fh:
        fh.write("\n".join(header + lines) + "\n")
    print(f"wrote {out}: {len(lines)} types, {os.path.getsize(out)} bytes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
