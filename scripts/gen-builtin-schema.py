#!/usr/bin/env python3
"""Generates src/generated/builtin-schema.ts: the server-side apply schema of the built-in
kinds kubefake serves, from the Go types of k8s.io/api, k8s.io/apimachinery and
k8s.io/apiextensions-apiserver v0.36.3 (bare git mirrors under /work/.mirror,
read by go_types.py).

It reproduces what openapi-gen emits and kube-openapi's schemaconv reads for SSA: struct fields,
`+listType`/`+listMapKey` (else the patchStrategy/patchMergeKey tags), `+mapType`,
`+structType=atomic`, and `+default` values (list-map keys such as a port's protocol default).

Run: python3 scripts/gen-builtin-schema.py > src/generated/builtin-schema.ts
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from go_types import GoTypes, markers  # noqa: E402

TAG = 'v0.36.3'
# The packages of the ROOTS below (others load as their types are reached).
SOURCES = ['core.v1', 'apps.v1', 'batch.v1', 'coordination.v1', 'rbac.v1', 'events.v1', 'autoscaling.v1', 'meta.v1', 'apiextensions.v1']
# Types with a custom OpenAPI definition (schemaconv: untyped scalar 'u', untyped atomic 'x',
# deduced 'd' for definitions without a type).
SPECIAL = {
    'meta.v1.Time': 'u', 'meta.v1.MicroTime': 'u', 'meta.v1.Duration': 's', 'meta.v1.FieldsV1': 'd',
    'resource.Quantity': 'u', 'intstr.IntOrString': 'u', 'runtime.RawExtension': 'x', 'types.UID': 's',
    'apiextensions.v1.JSON': 'd', 'apiextensions.v1.JSONSchemaPropsOrArray': 'd',
    'apiextensions.v1.JSONSchemaPropsOrBool': 'd', 'apiextensions.v1.JSONSchemaPropsOrStringArray': 'd',
    'apiextensions.v1.JSONSchemaURL': 's',
}
SCALARS = {'string': 's', 'bool': 'b'}
for t in ['int', 'int8', 'int16', 'int32', 'int64', 'uint', 'uint8', 'uint16', 'uint32', 'uint64', 'float32', 'float64']:
    SCALARS[t] = 'n'

ROOTS = {
    'v1/Pod': 'core.v1.Pod', 'v1/Service': 'core.v1.Service', 'v1/Namespace': 'core.v1.Namespace',
    'v1/Node': 'core.v1.Node', 'v1/PersistentVolumeClaim': 'core.v1.PersistentVolumeClaim',
    'v1/ServiceAccount': 'core.v1.ServiceAccount', 'v1/ConfigMap': 'core.v1.ConfigMap', 'v1/Secret': 'core.v1.Secret',
    'v1/Endpoints': 'core.v1.Endpoints', 'v1/Event': 'core.v1.Event',
    'apps/v1/Deployment': 'apps.v1.Deployment', 'apps/v1/StatefulSet': 'apps.v1.StatefulSet',
    'apps/v1/DaemonSet': 'apps.v1.DaemonSet', 'apps/v1/ReplicaSet': 'apps.v1.ReplicaSet',
    'batch/v1/Job': 'batch.v1.Job', 'batch/v1/CronJob': 'batch.v1.CronJob',
    'coordination.k8s.io/v1/Lease': 'coordination.v1.Lease', 'events.k8s.io/v1/Event': 'events.v1.Event',
    'rbac.authorization.k8s.io/v1/Role': 'rbac.v1.Role', 'rbac.authorization.k8s.io/v1/ClusterRole': 'rbac.v1.ClusterRole',
    'rbac.authorization.k8s.io/v1/RoleBinding': 'rbac.v1.RoleBinding',
    'rbac.authorization.k8s.io/v1/ClusterRoleBinding': 'rbac.v1.ClusterRoleBinding',
    'apiextensions.k8s.io/v1/CustomResourceDefinition': 'apiextensions.v1.CustomResourceDefinition',
    'autoscaling/v1/Scale': 'autoscaling.v1.Scale',
}

types = GoTypes()
structs = types.structs   # full name -> {'fields': [go_types.Field], 'markers': [...], 'pkg': pkg, 'imports': alias -> pkg}
aliases = types.named     # full name -> (goType, pkg, imports)


def schema_fields(st):
    """(jsonName | '<inline>', goType, comments, tags) of the fields openapi-gen publishes: tagged ones."""
    out = []
    for f in st['fields']:
        if not f.has_tag or f.json == '-':
            continue
        if f.embedded and not f.json:
            out.append(('<inline>', f.go_type, f.comments, f.tags))
        else:
            out.append((f.json or f.name or f.go_type, f.go_type, f.comments, f.tags))
    return out


def qualify(goType, pkg, alias_map):
    return types.qualify(goType, pkg, alias_map)


emitted = {}
wanted = []


def ref(goType, pkg, alias_map, field_markers=(), tags=None):
    """A type reference: a letter, a named type, or an inline list/map definition."""
    tags = tags or {}
    t = goType.lstrip('*')
    if t == '[]byte':
        return 's'
    if t.startswith('[]'):
        item = ref(t[2:], pkg, alias_map)
        out = {'l': item}
        list_type = (markers(field_markers, 'listType') or [None])[0]
        if list_type == 'set':
            out['t'] = 'set'
        elif list_type == 'map':
            out['t'] = 'map'
            out['k'] = markers(field_markers, 'listMapKey')
        elif list_type is None and tags.get('patchStrategy') in ('merge', 'merge,retainKeys'):
            if tags.get('patchMergeKey'):
                out['t'] = 'map'
                out['k'] = [tags['patchMergeKey']]
            else:
                out['t'] = 'set'
        return out
    if t.startswith('map['):
        value = t[t.index(']') + 1:]
        out = {'f': {}, 'e': ref(value, pkg, alias_map)}
        if (markers(field_markers, 'mapType') or [None])[0] == 'atomic':
            out['a'] = 1
        return out
    if t in SCALARS:
        return SCALARS[t]
    full = qualify(t, pkg, alias_map)
    if full in SPECIAL:
        return SPECIAL[full]
    if full in structs:
        if full not in emitted and full not in wanted:
            wanted.append(full)
        base = {}
        # A field-level +mapType on a struct-typed field overrides its element relationship.
        if (markers(field_markers, 'mapType') or [None])[0] == 'atomic':
            return {'r': full, 'a': 1}
        return full
    if full in aliases:
        under, apkg, amap = aliases[full]
        return ref(under, apkg, amap, field_markers, tags)
    raise SystemExit(f'cannot resolve {goType} ({full}) in {pkg}')


def default_value(comments):
    d = markers(comments, 'default')
    if not d:
        return None
    try:
        return json.loads(d[0])
    except ValueError:
        return None  # ref(...) defaults name Go constants; no list-map key uses one


def struct_def(full):
    s = structs[full]
    fields = {}
    defaults = {}

    def add(name):
        st = structs[name]
        for (jname, goType, comments, tags) in schema_fields(st):
            if jname == '<inline>':
                add(qualify(goType.lstrip('*'), st['pkg'], st['imports']))
                continue
            fields[jname] = ref(goType, st['pkg'], st['imports'], comments, tags)
            dv = default_value(comments)
            if dv is not None:
                defaults[jname] = dv

    add(full)
    out = {'f': fields}
    if not fields:
        out['e'] = 'd'  # an object schema without properties: schemaconv deduces its content
    if (markers(s['markers'], 'structType') or [None])[0] == 'atomic':
        out['a'] = 1
    if defaults:
        out['dflt'] = defaults
    return out


ZERO_SPECIAL = {'meta.v1.Time': None, 'meta.v1.MicroTime': None, 'resource.Quantity': '0', 'intstr.IntOrString': 0, 'meta.v1.Duration': '0s'}
ZERO_SCALAR = {'s': '', 'n': 0, 'b': False}
MISSING = object()


def zero_field(goType, pkg, alias_map, omitempty):
    """What DefaultUnstructuredConverter.ToUnstructured writes for a zero field (MISSING: nothing)."""
    if goType.startswith('*') or goType.startswith('[]') or goType.startswith('map['):
        return MISSING if omitempty else None
    if goType in SCALARS:
        return MISSING if omitempty else ZERO_SCALAR[SCALARS[goType]]
    full = qualify(goType, pkg, alias_map)
    if full in ZERO_SPECIAL:
        return ZERO_SPECIAL[full]
    if full in SPECIAL:
        return MISSING if omitempty else None
    if full in structs:
        return zero_struct(full)  # a struct value is always written, omitempty or not
    if full in aliases:
        under, apkg, amap = aliases[full]
        return zero_field(under, apkg, amap, omitempty)
    return MISSING


def zero_struct(full):
    out = {}
    st = structs[full]
    for (jname, goType, comments, tags) in schema_fields(st):
        omitempty = 'omitempty' in tags.get('json', '').split(',')[1:]
        if jname == '<inline>':
            out.update(zero_struct(qualify(goType.lstrip('*'), st['pkg'], st['imports'])))
            continue
        z = zero_field(goType, st['pkg'], st['imports'], omitempty)
        if z is not MISSING:
            out[jname] = z
    return out


def main():
    for pkg in SOURCES:
        types.load(pkg)
    for root in ROOTS.values():
        wanted.append(root)
    while wanted:
        name = wanted.pop(0)
        if name in emitted:
            continue
        emitted[name] = None
        emitted[name] = struct_def(name)
    print('// GENERATED by scripts/gen-builtin-schema.py from the Go types of k8s.io/api,')
    print('// k8s.io/apimachinery and k8s.io/apiextensions-apiserver ' + TAG + '. Do not edit.')
    print('// Encoding (read by src/apply/builtin-schema.ts): s string, n numeric, b boolean, u untyped scalar,')
    print('// x untyped atomic, d deduced; {f: fields, e: element, a: atomic, dflt: field defaults} for')
    print('// maps and structs, {r: named, a: atomic} for a named struct made atomic at its field,')
    print('// {l: item, t: set|map, k: keys} for lists (atomic without t).')
    # The encoding's type is emitted here so generated data imports nothing (no import circle with its reader).
    print('export type GeneratedDef =')
    print("  | 's' | 'n' | 'b' | 'u' | 'x' | 'd' | string")
    print('  | { f: Record<string, GeneratedDef>; e?: GeneratedDef; a?: 1; dflt?: Record<string, unknown> }')
    print('  | { r: string; a: 1 }')
    print("  | { l: GeneratedDef; t?: 'set' | 'map'; k?: string[] };")
    print()
    print('export const BUILTIN_ROOTS: Readonly<Record<string, string>> = ' + json.dumps(ROOTS, indent=2) + ';')
    print()
    print('/** The zero value of each kind as ToUnstructured writes it: the live object of a create. */')
    print('export const BUILTIN_ZERO: Readonly<Record<string, Record<string, unknown>>> = ' + json.dumps({k: zero_struct(v) for k, v in ROOTS.items()}, separators=(',', ':')) + ';')
    print()
    print('export const BUILTIN_DEFS: Readonly<Record<string, GeneratedDef>> = {')
    for name in sorted(emitted):
        print(f'  {json.dumps(name)}: {json.dumps(emitted[name], separators=(",", ":"))},')
    print('};')


main()
