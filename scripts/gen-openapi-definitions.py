#!/usr/bin/env python3
"""Generates src/generated/openapi-definitions.generated.ts: the OpenAPI definitions of every
built-in kind, as kube-openapi's openapi-gen derives them from the Go types of a v1.36 apiserver.

For each kind of the stable API packages gen-go-types.py reads (k8s.io/api, apiextensions-apiserver,
kube-aggregator at the tags go_types.MODULES names) and every struct reachable from it, one
definition named `io.k8s.api.<group>.<version>.<Type>` (apimachinery and the other modules under
their own Go package paths) with what openapi-gen emits (kube-openapi pkg/generators/openapi.go):
- descriptions from the doc comments (generateDescription: paragraphs kept, `+markers` and TODO
  lines dropped, indented lines on their own line, nothing after `---`);
- `required`: a field without `+optional` and without omitempty (isOptional), `+required` wins;
- `default`: `{}` for a non-pointer struct, the zero value of a non-omitempty builtin, `""`/`{}`
  for list items and map values (mustEnforceDefault), nothing for types with their own
  UnmarshalJSON;
- the patch and list markers clients compute patches from: `patchStrategy`/`patchMergeKey` tags
  → `x-kubernetes-patch-strategy`/`x-kubernetes-patch-merge-key`, `+listType`, `+listMapKey`,
  `+mapType`, `+structType` → `x-kubernetes-list-type`, `x-kubernetes-list-map-keys`,
  `x-kubernetes-map-type` (on fields and on struct definitions);
- `x-kubernetes-group-version-kind` on kinds and lists;
- references to structs as `$ref` (wrapped in allOf when the field adds a description or default,
  as the v3 builder does), and the types with their own OpenAPI schema (resource.Quantity,
  intstr.IntOrString, metav1.Time/MicroTime as date-time strings, RawExtension, []byte as byte
  strings) as openapi-gen's OpenAPISchemaType/OpenAPIV3OneOfTypes give them.
- `enum` and the "Possible enum values" description lines of a field whose type is a `+enum`
  string type (kube-openapi pkg/generators/enum.go): the typed constants of that type.
Not emitted (yet): `x-kubernetes-unions`, validation markers (+minimum, ...).

Run: python3 scripts/gen-openapi-definitions.py > src/generated/openapi-definitions.generated.ts
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from go_types import GoTypes, import_path_of, json_table, kind_structs, markers, SERVED_PACKAGES as PACKAGES, source_version, split_map  # noqa: E402

V3 = '#/components/schemas/'

# Types with their own OpenAPI schema (OpenAPISchemaType / OpenAPIV3OneOfTypes methods), v3 and v2.
SPECIAL = {
    'resource.Quantity': ({'oneOf': [{'type': 'string'}, {'type': 'number'}]}, {'type': 'string'}),
    'intstr.IntOrString': ({'format': 'int-or-string', 'oneOf': [{'type': 'integer'}, {'type': 'string'}]},
                           {'format': 'int-or-string', 'type': 'string'}),
    'meta.v1.Time': ({'format': 'date-time', 'type': 'string'},) * 2,
    'meta.v1.MicroTime': ({'format': 'date-time', 'type': 'string'},) * 2,
    'meta.v1.Duration': ({'type': 'string'},) * 2,
    'meta.v1.FieldsV1': ({'type': 'object'},) * 2,
    'runtime.RawExtension': ({'type': 'object'},) * 2,
    'apiextensions.v1.JSON': ({},) * 2,
    'apiextensions.v1.JSONSchemaPropsOrArray': ({},) * 2,
    'apiextensions.v1.JSONSchemaPropsOrBool': ({},) * 2,
    'apiextensions.v1.JSONSchemaPropsOrStringArray': ({},) * 2,
}
# OpenAPITypeFormat of the Go builtins, and their zero values (OpenAPIZeroValue).
BUILTIN = {
    'string': ('string', None, ''), 'bool': ('boolean', None, False),
    'int': ('integer', 'int32', 0), 'int8': ('integer', 'byte', 0), 'int16': ('integer', 'int32', 0),
    'int32': ('integer', 'int32', 0), 'int64': ('integer', 'int64', 0), 'uint': ('integer', 'int32', 0),
    'uint8': ('integer', 'byte', 0), 'byte': ('integer', 'byte', 0), 'uint16': ('integer', 'int32', 0),
    'uint32': ('integer', 'int64', 0), 'uint64': ('integer', 'int64', 0),
    'float32': ('number', 'float', 0), 'float64': ('number', 'double', 0),
}

types = GoTypes()
definitions = {}
pending = []


def def_name(full):
    """`core.v1.Pod` → `io.k8s.api.core.v1.Pod` (the Go import path with its host reversed)."""
    pkg, name = full.rsplit('.', 1)
    path = import_path_of(pkg)
    host, rest = path.split('/', 1)
    return '.'.join(list(reversed(host.split('.'))) + rest.split('/') + [name])


def description(comments):
    """kube-openapi generateDescription over the comment text (ast.CommentGroup.Text lines)."""
    buf = ''
    for raw in comments:
        line = raw.strip()
        if not line.startswith('//'):
            continue
        line = line[2:]
        if line.startswith(' '):
            line = line[1:]
        if line.startswith('go:') or line.startswith('nolint'):
            continue
        if line == '---':
            break
        line = line.rstrip(' ')
        leading = line.lstrip(' ')
        if not line:
            buf = buf[:-1] if buf else buf
            buf += '\n\n'
        elif leading.startswith('TODO') or leading.startswith('+'):
            continue
        elif line.startswith(' ') or line.startswith('\t'):
            buf = buf[:-1] if buf else buf
            buf += '\n' + line + '\n'
        else:
            buf += line + ' '
    return buf.strip()


def resolve(go_type, pkg, imports):
    """('builtin'|'special'|'struct'|'slice'|'map'|'pointer', ...) for a Go type expression."""
    if go_type.startswith('*'):
        return ('pointer', go_type[1:])
    if go_type.startswith('[]'):
        return ('slice', go_type[2:])
    if go_type.startswith('map['):
        return ('map', split_map(go_type)[1])
    if go_type in BUILTIN:
        return ('builtin', go_type)
    if go_type == 'time.Duration':
        return ('builtin', 'int64')
    full = types.qualify(go_type, pkg, imports)
    if full in SPECIAL:
        return ('special', full)
    if full in types.structs:
        return ('struct', full)
    if full in types.named:
        under, upkg, uimports = types.named[full]
        return ('named', (under, upkg, uimports))
    raise SystemExit(f'cannot resolve {go_type} ({full}) in {pkg}')


def ref_to(full):
    if full not in definitions and full not in pending:
        pending.append(full)
    return {'$ref': V3 + def_name(full)}


def schema_of(go_type, pkg, imports, omit_empty, extra=None):
    """The schema of a type, with `extra` (description, extensions) beside it and the enforced default."""
    extra = dict(extra or {})
    kind, arg = resolve(go_type, pkg, imports)
    while kind == 'named':
        go_type, pkg, imports = arg
        kind, arg = resolve(go_type, pkg, imports)
    if kind == 'pointer':
        inner = schema_of(arg, pkg, imports, True, extra)
        inner.pop('default', None) if not extra.get('default') else None
        return inner
    if kind == 'builtin':
        typ, fmt, zero = BUILTIN[arg]
        out = {'type': typ, **({'format': fmt} if fmt else {})}
        if not omit_empty:
            out['default'] = zero
        return {**extra, **out}
    if kind == 'slice':
        k2, a2 = resolve(arg, pkg, imports)
        if k2 == 'builtin' and a2 in ('byte', 'uint8'):
            return {**extra, 'type': 'string', 'format': 'byte'}
        return {**extra, 'type': 'array', 'items': schema_of(arg, pkg, imports, False)}
    if kind == 'map':
        return {**extra, 'type': 'object', 'additionalProperties': schema_of(arg, pkg, imports, False)}
    if kind == 'special':
        return wrap(ref_to(arg), extra)
    # struct: a single embedded member counts as that member (mustEnforceDefault)
    st = types.structs[arg]
    fs = st['fields']
    if len(fs) == 1 and fs[0].embedded:
        k2, a2 = resolve(fs[0].go_type, st['pkg'], st['imports'])
        if k2 == 'special':
            return wrap(ref_to(arg), extra)
    return wrap(ref_to(arg), {**extra, 'default': {}})


def wrap(ref, extra):
    return {'allOf': [ref], **extra} if extra else ref


def struct_fields(full):
    """encoding/json's view of a struct: (json name, Field, pkg, imports), embedded structs without
    a JSON name promoted, the shallowest of equally named fields winning."""
    found = []

    def walk(name, depth):
        st = types.structs[name]
        for f in st['fields']:
            if f.json == '-' and not f.options:
                continue
            go_name = f.name or f.go_type.lstrip('*').split('.')[-1]
            if not go_name[0].isupper() and not f.embedded:
                continue
            if f.embedded and not f.json:
                target = f.go_type.lstrip('*')
                q = types.qualify(target, st['pkg'], st['imports']) if target not in BUILTIN else target
                if q in types.structs and q not in SPECIAL:
                    walk(q, depth + 1)
                    continue
            found.append((depth, len(found), f.json or go_name, f, st['pkg'], st['imports']))

    walk(full, 0)
    best = {}
    for e in found:
        if e[2] not in best or e[0] < best[e[2]][0]:
            best[e[2]] = e
    return sorted(best.values(), key=lambda e: e[1])


def type_extensions(comments):
    out = {}
    for key, ext in (('listType', 'x-kubernetes-list-type'), ('mapType', 'x-kubernetes-map-type'), ('structType', 'x-kubernetes-map-type')):
        vals = markers(comments, key)
        if vals:
            out[ext] = vals[-1]
    keys = markers(comments, 'listMapKey')
    if keys:
        out['x-kubernetes-list-map-keys'] = keys
    return out


def enum_of(go_type, pkg, imports):
    """(sorted values, description lines) when the field's type (or pointee) is a `+enum` string type."""
    name = go_type.lstrip('*')
    if name in BUILTIN or name.startswith('[') or name.startswith('map[') or name == 'time.Duration':
        return None
    full = types.qualify(name, pkg, imports)
    if full not in types.named or types.named[full][0] != 'string':
        return None
    if not any(c.strip() == '// +enum' for c in types.named_comments.get(full, [])):
        return None
    values = []  # enumType.addIfNotPresent: one entry per value, the longer comment winning
    for const, value, comments in types.consts.get(full, []):
        text = ' '.join(c.strip()[2:].removeprefix(' ') for c in comments if c.strip().startswith('//'))
        for i, (_, v, t) in enumerate(values):
            if v == value:
                if len(t) < len(text) or (len(t) == len(text) and t > text):
                    values[i] = (const, value, text)
                break
        else:
            values.append((const, value, text))
    if not values:
        return None
    lines = []
    for const, value, text in values:
        comment = re.sub(r'\s+', ' ', text.strip().removeprefix(const).strip())
        lines.append(f' - `{json.dumps(value)}` {comment}')
    return sorted(v for _, v, _ in values), ['//', '// Possible enum values:'] + ['// ' + line for line in sorted(lines)]


def parse_default(comments):
    vals = markers(comments, 'default')
    if not vals:
        return None
    try:
        return json.loads(vals[-1])
    except ValueError:
        return None  # a `ref(...)` default: not reproduced


def struct_definition(full, gvk):
    st = types.structs[full]
    props = {}
    required = []
    for name, f, pkg, imports in ((e[2], e[3], e[4], e[5]) for e in struct_fields(full)):
        omit = 'omitempty' in f.options or 'omitzero' in f.options
        optional = bool(markers(f.comments, 'optional')) or [c for c in f.comments if c.strip() == '// +optional']
        is_required = any(c.strip() == '// +required' for c in f.comments) or (not optional and not omit)
        extra = {}
        enum = enum_of(f.go_type, pkg, imports)
        desc = description(f.comments + (enum[1] if enum else []))
        if desc:
            extra['description'] = desc
        ext = type_extensions(f.comments)
        if 'patchStrategy' in f.tags:
            ext['x-kubernetes-patch-strategy'] = f.tags['patchStrategy']
        if 'patchMergeKey' in f.tags:
            ext['x-kubernetes-patch-merge-key'] = f.tags['patchMergeKey']
        schema = schema_of(f.go_type, pkg, imports, omit, extra)
        d = parse_default(f.comments)
        if d is not None:
            schema['default'] = d
        schema.update(ext)
        if enum:
            schema['enum'] = enum[0]
        props[name] = dict(sorted(schema.items()))
        if is_required:
            required.append(name)
    out = {'type': 'object'}
    desc = description(st['markers'])
    if desc:
        out['description'] = desc
    out['properties'] = dict(sorted(props.items()))
    if required:
        out['required'] = required
    out.update(type_extensions(st['markers']))
    if gvk:
        out['x-kubernetes-group-version-kind'] = [gvk]
    return dict(sorted(out.items()))


def special_definition(full, v2):
    st = types.structs.get(full)
    desc = description(st['markers']) if st else ''
    body = SPECIAL[full][1 if v2 else 0]
    return dict(sorted({**({'description': desc} if desc else {}), **body}.items()))


def is_kind(st):
    first = st['fields'][0] if st['fields'] else None
    return bool(first and first.embedded and first.go_type.endswith('TypeMeta') and 'inline' in first.options)


def meta_gvk(full):
    """The meta/v1 kinds (Status, DeleteOptions, ...) are registered unversioned, as v1 of the core group."""
    if full.startswith('meta.v1.') and is_kind(types.structs[full]):
        return {'group': '', 'kind': full.split('.')[-1], 'version': 'v1'}
    return None


def main():
    kinds = {}
    gvks = {}
    for group, version, full, _ in kind_structs(types, PACKAGES):
        kind = full.split('.')[-1]
        kinds[f'{group}/{version}/{kind}'] = def_name(full)
        gvks[full] = {'group': group, 'kind': kind, 'version': version}
        ref_to(full)
    v2 = {}
    while pending:
        full = pending.pop(0)
        if full in definitions:
            continue
        if full in SPECIAL:
            definitions[full] = special_definition(full, False)
            alt = special_definition(full, True)
            if alt != definitions[full]:
                v2[def_name(full)] = alt
        else:
            definitions[full] = None
            definitions[full] = struct_definition(full, gvks.get(full) or meta_gvk(full))
    sources = sorted({source_version(p) for p in PACKAGES + ['meta.v1']})
    table = {def_name(k): v for k, v in definitions.items()}
    print('// GENERATED by scripts/gen-openapi-definitions.py from the Go types of ' + ', '.join(sources) + '.')
    print('// Do not edit. Read by src/apis/openapi/builtin-schemas.ts.')
    print()
    print('// The tables are JSON read with JSON.parse, one entry a line: far cheaper to load than object literals.')
    print()
    print('/** `<group>/<version>/<Kind>` → the definition name of the kind (lists included). */')
    print('export const OPENAPI_KINDS: Readonly<Record<string, string>> = ' + json_table(dict(sorted(kinds.items())), ensure_ascii=False) + ';')
    print()
    print('/** Definition name → its OpenAPI v3 schema (refs under #/components/schemas/). */')
    print('export const OPENAPI_DEFINITIONS: Readonly<Record<string, Record<string, unknown>>> = '
          + json_table(dict(sorted(table.items())), ensure_ascii=False) + ';')
    print()
    print('/** The definitions whose swagger 2.0 form differs (no oneOf in 2.0). */')
    print('export const OPENAPI_V2_DEFINITIONS: Readonly<Record<string, Record<string, unknown>>> = '
          + json_table(dict(sorted(v2.items())), ensure_ascii=False) + ';')



main()
