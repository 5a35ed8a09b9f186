#!/usr/bin/env python3
"""Generates src/generated/protobuf-messages.generated.ts: the protobuf field tables of every kind
a default kube-apiserver v1.36 serves from k8s.io/api, for kubefake's decoder of
`application/vnd.kubernetes.protobuf` request bodies (src/http/protobuf/decode.ts), which kubectl's
typed clients send (`kubectl autoscale`, `create token`, `drain`, `certificate approve`...). List kinds are left
out: no endpoint takes one as a body.

Each row is [proto field number, Go json tag, type] (notation in src/http/protobuf/schema.ts).
Both halves come from the Go struct field of types.go: its `protobuf:"<wire>,<number>,..."` tag
(the same facts go-to-protobuf wrote generated.proto from) and its json tag and Go type, which
decide the JSON encoding/json would print for the decoded struct. Rows are in Go declaration
order. Messages are named `<package id>.<Name>` (`core.v1.PodSpec`, `meta.v1.ObjectMeta`).

Named slice types (`type ExtraValue []string`) are proto messages `{ repeated T items = 1 }`
(go-to-protobuf's wrapper for a named slice), marked as such: their JSON is the slice itself.

Run: python3 scripts/gen-protobuf-messages.py > src/generated/protobuf-messages.generated.ts
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from go_types import GoTypes, json_table, kind_structs, source_version, split_map  # noqa: E402

# The k8s.io/api group versions a default v1.36 apiserver serves (apiextensions and
# apiregistration objects are not sent as protobuf by kubectl; their JSON schema types have no
# protobuf form kubefake models).
PACKAGES = [
    'admissionregistration.v1', 'apps.v1', 'authentication.v1', 'authorization.v1', 'autoscaling.v1',
    'autoscaling.v2', 'batch.v1', 'certificates.v1', 'coordination.v1', 'core.v1', 'discovery.v1',
    'events.v1', 'flowcontrol.v1', 'networking.v1', 'node.v1', 'policy.v1', 'rbac.v1', 'resource.v1',
    'scheduling.v1', 'storage.v1',
]

# apimachinery types with their own proto messages and JSON forms, decoded by name.
SPECIAL = {
    'meta.v1.Time': 'Time',
    'meta.v1.MicroTime': 'MicroTime',
    'meta.v1.Duration': 'Duration',
    'meta.v1.FieldsV1': 'FieldsV1',
    'resource.Quantity': 'Quantity',
    'intstr.IntOrString': 'IntOrString',
    'runtime.RawExtension': 'RawExtension',
}
# The Go scalars the served kinds use (API conventions allow no others; a float or an unsized int
# in a new API version stops the generator with "cannot resolve" until the decoder learns it).
SCALARS = {'string': 'string', 'bool': 'bool', 'int32': 'int32', 'int64': 'int64'}

types = GoTypes()
messages = {}   # name -> rows
wrappers = {}   # name -> element type (named slices)
pending = []


def notation(go_type, pkg, imports, where):
    """The table notation of a field's Go type; queues the structs it reaches."""
    if go_type.startswith('*'):
        return '*' + notation(go_type[1:], pkg, imports, where)
    if go_type == '[]byte':
        return 'bytes'
    if go_type.startswith('[]'):
        return '[]' + notation(go_type[2:], pkg, imports, where)
    if go_type.startswith('map['):
        key, value = split_map(go_type)
        if notation(key, pkg, imports, where) != 'string':
            raise SystemExit(f'{where}: map key {key} is not a string')
        return 'map[string]' + notation(value, pkg, imports, where)
    if go_type in SCALARS:
        return SCALARS[go_type]
    full = types.qualify(go_type, pkg, imports)
    if full in SPECIAL:
        return SPECIAL[full]
    if full in types.structs:
        queue(full)
        return full
    if full in types.named:
        under, upkg, uimports = types.named[full]
        if under.startswith('[]') and under != '[]byte':
            # go-to-protobuf wraps a named slice in a message of its own.
            if full not in wrappers:
                wrappers[full] = None
                wrappers[full] = notation(under[2:], upkg, uimports, full)
            return full
        return notation(under, upkg, uimports, full)
    raise SystemExit(f'{where}: cannot resolve {go_type} ({full})')


def queue(full):
    if full not in messages and full not in pending:
        pending.append(full)


def rows_of(full):
    st = types.structs[full]
    rows = []
    for f in st['fields']:
        proto = f.tags.get('protobuf')
        if not proto or proto == '-':
            continue  # TypeMeta (the envelope carries it) and fields with no wire form
        parts = proto.split(',')
        number = int(parts[1])
        tag = f.tags.get('json', '')
        if f.embedded and not tag.split(',')[0]:
            tag = ',inline' if tag in ('', ',inline') else tag
        rows.append([number, tag, notation(f.go_type, st['pkg'], st['imports'], f'{full}.{f.name or f.go_type}')])
    return rows


def main():
    kinds = {}
    for group, version, full, st in kind_structs(types, PACKAGES):
        # Lists are sent as their items' messages; kinds without protobuf tags have no wire form.
        if any(f.go_type.endswith('.ListMeta') for f in st['fields']) or not any('protobuf' in f.tags for f in st['fields']):
            continue
        kinds[f"{group + '/' if group else ''}{version} {full.split('.')[-1]}"] = full
        queue(full)
    queue('meta.v1.DeleteOptions')
    while pending:
        name = pending.pop(0)
        messages[name] = None
        messages[name] = rows_of(name)
    for name, element in wrappers.items():
        messages[name] = [[1, 'items', '[]' + element]]
    sources = sorted({source_version(p) for p in PACKAGES + ['meta.v1']})
    print('// GENERATED by scripts/gen-protobuf-messages.py from the Go types (json and protobuf struct tags) of')
    print('// ' + ', '.join(sources) + '. Do not edit. Read by src/http/protobuf/schemas/index.ts.')
    print()
    print('/** `apiVersion Kind` → the root message of a body of that kind. */')
    print('export const PROTOBUF_KINDS: Readonly<Record<string, string>> = ' + json_table(dict(sorted(kinds.items()))) + ';')
    print()
    print('/** Named slices: go-to-protobuf messages `{ repeated T items = 1 }` whose JSON is the slice itself. */')
    print('export const PROTOBUF_SLICE_WRAPPERS: readonly string[] = ' + json.dumps(sorted(wrappers)) + ';')
    print()
    print('/** Message → [proto field number, Go json tag, type] rows in Go declaration order. */')
    print('export const PROTOBUF_MESSAGES: Readonly<Record<string, readonly (readonly [number, string, string])[]>> = ' + json_table({n: messages[n] for n in sorted(messages)}) + ';')



main()
