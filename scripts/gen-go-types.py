#!/usr/bin/env python3
"""Generates src/generated/go-types.generated.ts: the Go types every built-in kind decodes into,
as facts for kubefake's port of the apiserver's JSON decoding (sigs.k8s.io/json over the typed
structs: unknown and duplicate fields, wrong JSON types, the decoder's error texts).

For each kind of the stable API packages a default kube-apiserver v1.36 serves (k8s.io/api,
k8s.io/apiextensions-apiserver and k8s.io/kube-aggregator at the tags go_types.MODULES names), and
every struct reachable from them: the fields encoding/json sees (embedded structs without a JSON
name promoted, as typeFields does), each with its JSON name, its Go type and its omitempty /
omitzero options, plus the underlying type of every named non-struct type.

Type expressions are Go's own, with named types qualified by package id (go_types.py):
`int32`, `*int64`, `[]core.v1.Container`, `map[string]string`, `core.v1.ResourceList`,
`resource.Quantity`. Types with their own UnmarshalJSON (SPECIAL) are left opaque for the decoder.

Run: python3 scripts/gen-go-types.py > src/generated/go-types.generated.ts
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from go_types import GoTypes, json_table, kind_structs, SERVED_PACKAGES as PACKAGES, source_version, split_map  # noqa: E402


# Types that implement json.Unmarshaler: the decoder ports each one's UnmarshalJSON by name.
SPECIAL = {
    'resource.Quantity', 'intstr.IntOrString', 'meta.v1.Time', 'meta.v1.MicroTime', 'meta.v1.Duration',
    'meta.v1.FieldsV1', 'runtime.RawExtension', 'apiextensions.v1.JSON', 'apiextensions.v1.JSONSchemaPropsOrArray',
    'apiextensions.v1.JSONSchemaPropsOrBool', 'apiextensions.v1.JSONSchemaPropsOrStringArray',
}
BUILTIN = {'string', 'bool', 'byte', 'int', 'int8', 'int16', 'int32', 'int64', 'uint', 'uint8', 'uint16', 'uint32',
           'uint64', 'float32', 'float64'}

types = GoTypes()
structs_out = {}
named_out = {}
pending = []


def expr(go_type, pkg, imports):
    """A field's Go type with named types qualified; queues the structs and named types it reaches."""
    if go_type.startswith('*'):
        return '*' + expr(go_type[1:], pkg, imports)
    if go_type.startswith('[]'):
        return '[]' + expr(go_type[2:], pkg, imports)
    m = re.match(r'^\[(\d+)\](.*)$', go_type)
    if m:
        return f'[{m.group(1)}]' + expr(m.group(2), pkg, imports)
    if go_type.startswith('map['):
        key, value = split_map(go_type)
        return f'map[{expr(key, pkg, imports)}]{expr(value, pkg, imports)}'
    if go_type in BUILTIN:
        return 'uint8' if go_type == 'byte' else go_type
    if go_type == 'time.Duration':
        named_out['time.Duration'] = 'int64'
        return go_type
    full = types.qualify(go_type, pkg, imports)
    if full in SPECIAL:
        return full
    if full in types.structs:
        if full not in structs_out and full not in pending:
            pending.append(full)
        return full
    if full in types.named:
        under, upkg, uimports = types.named[full]
        if full not in named_out:
            named_out[full] = None
            named_out[full] = expr(under, upkg, uimports)
        return full
    raise SystemExit(f'cannot resolve {go_type} ({full}) in {pkg}')


def flags(field):
    return (1 if 'omitempty' in field.options else 0) | (2 if 'omitzero' in field.options else 0)


def struct_fields(full):
    """encoding/json typeFields: tagged names, promoted fields of unnamed embedded structs, the
    shallowest of equally named fields winning."""
    found = []  # (depth, order, json name, expr, flags)

    def walk(name, depth):
        st = types.structs[name]
        for f in st['fields']:
            if f.json == '-' and not f.options:
                continue
            go_name = f.name or f.go_type.lstrip('*').split('.')[-1]
            if not go_name[0].isupper() and not f.embedded:
                continue  # unexported
            target = f.go_type.lstrip('*')
            if f.embedded and not f.json:
                q = types.qualify(target, st['pkg'], st['imports']) if target not in BUILTIN else target
                if q in types.structs and q not in SPECIAL:
                    walk(q, depth + 1)
                    continue
            found.append((depth, len(found), f.json or go_name, expr(f.go_type, st['pkg'], st['imports']), flags(f)))

    walk(full, 0)
    best = {}
    for entry in found:
        if entry[2] not in best or entry[0] < best[entry[2]][0]:
            best[entry[2]] = entry
    return [[e[2], e[3], e[4]] for e in sorted(best.values(), key=lambda e: e[1])]


def main():
    kinds = {}
    for group, version, full, st in kind_structs(types, PACKAGES):
        kinds[f"{group + '/' if group else ''}{version}/{full.split('.')[-1]}"] = full
        expr(full.split('.')[-1], st['pkg'], st['imports'])
    while pending:
        name = pending.pop(0)
        if name not in structs_out:
            structs_out[name] = None
            structs_out[name] = struct_fields(name)
    sources = sorted({source_version(p) for p in PACKAGES + ['meta.v1']})
    print('// GENERATED by scripts/gen-go-types.py from the Go types of ' + ', '.join(sources) + '.')
    print('// Do not edit. The decoder that reads these facts is src/go/typed-json.ts.')
    print()
    print('// The tables are JSON read with JSON.parse, one entry a line: far cheaper to load than object literals.')
    print()
    print('/** apiVersion/Kind → the Go struct a body of that kind decodes into. */')
    print('export const GO_KINDS: Readonly<Record<string, string>> = ' + json_table(dict(sorted(kinds.items()))) + ';')
    print()
    print('/** Named non-struct types → their underlying type. */')
    print('export const GO_NAMED: Readonly<Record<string, string>> = ' + json_table(dict(sorted(named_out.items()))) + ';')
    print()
    print('/** Struct → its fields as encoding/json sees them: [JSON name, Go type, 1 omitempty | 2 omitzero]. */')
    print('export const GO_STRUCTS: Readonly<Record<string, readonly (readonly [string, string, number])[]>> = '
          + json_table({name: structs_out[name] for name in sorted(structs_out)}) + ';')



main()
