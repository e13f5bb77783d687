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
                N  names the resource: its custom name (see NAME PROPERTY)

A second file, engine/catalog/aws_resource_schemas.jsonl, holds each type's
property schema for lib/generic.lua's validator: one JSON object per line,
sorted by type, with the keys

    type               the type name (always first, so a reader finds a line
                       by its prefix without parsing it)
    properties         top-level property schemas (see KEPT below)
    definitions        the schema's definitions, referenced as
                       {"$ref": "#/definitions/Name"} (kept as references,
                       not inlined: some are recursive)
    required           required top-level properties
    additionalProperties  false when the schema closes its top level
    createOnly         create-only JSON pointers, nested ones included
                       ("/properties/Foo/Bar"): changing them replaces
    writeOnly          write-only pointers: never returned by read
    readOnly           read-only pointers: attributes, never settable
    primaryIdentifier  pointers whose values identify the resource
    taggable           the schema's tagging.taggable (absent: false)
    nameProperty       the property that names the resource (absent: none)

KEPT keywords of a (sub)schema: type, enum, pattern, minLength, maxLength,
minimum, maximum, minItems, maxItems, required, additionalProperties (only
when false), properties, patternProperties, items, $ref. oneOf / anyOf /
allOf branches are not kept as alternatives: the properties they list are
merged into the object's own (so a closed object accepts every branch's
keys) and their `required` lists dropped, a loose reading that never
rejects what AWS accepts.

NAME PROPERTY: the create-only string property that gives the resource its
custom name: <Resource>Name (AWS::S3::Bucket: BucketName), else Name, else
an entry of NAME_OVERRIDES (types whose name property has another spelling,
from each type's "Name type" documentation).

Attribute names come from cfn-lint's GetAtt knowledge (Schema.get_atts), which
is readOnlyProperties with AWS's known exceptions applied; its regex keys are
turned into the glob form above.
"""

import argparse
import json
import os
import re
import sys

REGION = "us-east-1"
CATALOG_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "engine", "catalog")
DEFAULT_OUT = os.path.join(CATALOG_DIR, "aws_resource_types.tsv")
DEFAULT_SCHEMAS_OUT = os.path.join(CATALOG_DIR, "aws_resource_schemas.jsonl")
NAME_RE = re.compile(r"^[A-Za-z0-9_.*]+$")
TYPE_RE = re.compile(r"^[A-Za-z0-9]+::[A-Za-z0-9]+::[A-Za-z0-9]+$")

# Keywords of a (sub)schema the validator reads (see KEPT above).
SCALAR_KEYWORDS = ("type", "enum", "pattern", "minLength", "maxLength", "minimum", "maximum",
                   "minItems", "maxItems", "required", "$ref")
COMBINATORS = ("oneOf", "anyOf", "allOf")

# Name properties spelled otherwise than <Resource>Name / Name. Source: the
# "Name type" page of the CloudFormation User Guide (resources that accept a
# custom name) and each type's reference page.
NAME_OVERRIDES = {
    "AWS::RDS::DBInstance": "DBInstanceIdentifier",
    "AWS::RDS::DBCluster": "DBClusterIdentifier",
    "AWS::RDS::DBParameterGroup": "DBParameterGroupName",
    "AWS::ElastiCache::ReplicationGroup": "ReplicationGroupId",
    "AWS::ElastiCache::CacheCluster": "ClusterName",
    "AWS::ElasticLoadBalancingV2::LoadBalancer": "Name",
    "AWS::IAM::ManagedPolicy": "ManagedPolicyName",
    "AWS::Kinesis::Stream": "Name",
}


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


def compact(schema):
    """The kept keywords of one (sub)schema, recursively (see KEPT)."""
    if not isinstance(schema, dict):
        return {}
    out = {k: schema[k] for k in SCALAR_KEYWORDS if k in schema}
    if schema.get("additionalProperties") is False:
        out["additionalProperties"] = False
    props = dict(schema.get("properties", {}))
    for comb in COMBINATORS:
        for branch in schema.get(comb, []):
            if isinstance(branch, dict):
                for name, sub in branch.get("properties", {}).items():
                    props.setdefault(name, sub)
    if props:
        out["properties"] = {name: compact(sub) for name, sub in sorted(props.items())}
    if isinstance(schema.get("patternProperties"), dict):
        out["patternProperties"] = {k: compact(v) for k, v in schema["patternProperties"].items()}
        out.pop("additionalProperties", None)  # open to the patterns' keys; not checked further
    if isinstance(schema.get("items"), dict):
        out["items"] = compact(schema["items"])
    return out


def name_property(type_name, schema):
    """The create-only string property naming the resource, or None."""
    props = schema.get("properties", {})
    create_only = set(schema.get("createOnlyProperties", []))
    resource = type_name.split("::")[2]
    candidates = [NAME_OVERRIDES.get(type_name), resource + "Name", "Name"]
    for name in candidates:
        if name and name in props and "/properties/" + name in create_only:
            if props[name].get("type", "string") == "string":
                return name
    return None


def schema_line(type_name, schema):
    props = schema.get("properties", {})
    entry = {"type": type_name}
    entry["properties"] = {name: compact(sub) for name, sub in sorted(props.items())}
    defs = schema.get("definitions", {})
    if defs:
        entry["definitions"] = {name: compact(sub) for name, sub in sorted(defs.items())}
    if schema.get("required"):
        entry["required"] = sorted(schema["required"])
    if schema.get("additionalProperties", True) is False and not schema.get("patternProperties"):
        entry["additionalProperties"] = False
    for key, out_key in (("createOnlyProperties", "createOnly"), ("writeOnlyProperties", "writeOnly"),
                         ("readOnlyProperties", "readOnly"), ("primaryIdentifier", "primaryIdentifier")):
        if schema.get(key):
            entry[out_key] = list(schema[key])
    if schema.get("tagging", {}).get("taggable"):
        entry["taggable"] = True
    name = name_property(type_name, schema)
    if name:
        entry["nameProperty"] = name
    return json.dumps(entry, separators=(",", ":"), ensure_ascii=True)


def catalog_line(type_name, schema_obj, schema):
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
    name = name_property(type_name, schema)
    if name:
        flags[name].add("N")

    prop_fields = []
    for pname in sorted(props):
        if not NAME_RE.match(pname) or "*" in pname:
            raise ValueError(f"{type_name}: unexpected property name {pname!r}")
        f = flags[pname]
        if "C" in f:
            f.discard("c")
        fl = "".join(ch for ch in "RCcOWN" if ch in f)
        prop_fields.append(f"{pname}:{fl}" if fl else pname)

    type_flags = ""
    if schema.get("patternProperties") or schema.get("additionalProperties", True) is not False:
        type_flags += "P"
    return "\t".join([type_name, type_flags or "-", ",".join(attrs), ",".join(prop_fields)])


def write(path, lines):
    out = os.path.normpath(path)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w", encoding="ascii", newline="\n") as fh:
        fh.write("\n".join(lines) + "\n")
    print(f"wrote {out}: {os.path.getsize(out)} bytes", file=sys.stderr)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--output", default=DEFAULT_OUT)
    ap.add_argument("--schemas-output", default=DEFAULT_SCHEMAS_OUT)
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

    lines, schema_lines = [], []
    for type_name in sorted(manager.get_resource_types(REGION)):
        if not TYPE_RE.match(type_name):
            # cfn-lint's pseudo type "Module" and anything else not a
            # three-part AWS type name.
            print(f"skipping {type_name}", file=sys.stderr)
            continue
        schema_obj = manager.get_resource_schema(REGION, type_name)
        lines.append(catalog_line(type_name, schema_obj, schema_obj.schema))
        schema_lines.append(schema_line(type_name, schema_obj.schema))

    header = [
        f"# moonstack AWS resource catalog: {len(lines)} types, region {REGION}, from cfn-lint {cfnlint_version}"
        " (CloudFormation registry schemas).",
        "# Generated by tools/gen_resource_catalog.py; do not edit. Format: see that script.",
        "# TYPE<TAB>FLAGS<TAB>ATTRIBUTES<TAB>PROPERTIES(name[:RCcOWN])",
    ]
    write(args.output, header + lines)
    write(args.schemas_output, schema_lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
