// The Go renderings a few validation messages embed: the go-cmp diff of two structs that
// ValidatePodUpdate, ValidatePersistentVolumeClaimUpdate and ValidatePersistentVolumeUpdate append
// to their Forbidden text (`cmp.Diff(old, new)`), and the json.Marshal of an internal (untagged)
// struct that field.Invalid prints for ValidateImmutableField on such a value.
//
// Both are approximations by necessity: go-cmp documents its output as unstable (it even inserts
// random non-breaking spaces so nobody depends on it), and internal structs carry fields the v1
// object does not show. What is kept is what a reader uses: the internal type's name, each
// changed field under its Go name with the old (`-`) and new (`+`) values, unchanged runs elided
// as go-cmp elides them, and the Go field names of an internal struct's JSON.
import { GO_NAMED, GO_STRUCTS } from '../../generated/go-types.generated.ts';
import { goQuote } from '../../errors/go-format.ts';
import { isPlainObject } from '../object.ts';
import { isEmptyJson, semanticEqual } from './shared.ts';

type Json = Record<string, unknown>;

// JSON names whose Go field name is not the name with its first letter upper-cased.
const GO_FIELD_NAMES: Record<string, string> = {
  dnsPolicy: 'DNSPolicy',
  dnsConfig: 'DNSConfig',
  os: 'OS',
  hostIPC: 'HostIPC',
  hostPID: 'HostPID',
  serviceAccount: 'DeprecatedServiceAccount',
  gcePersistentDisk: 'GCEPersistentDisk',
  awsElasticBlockStore: 'AWSElasticBlockStore',
  nfs: 'NFS',
  iscsi: 'ISCSI',
  rbd: 'RBD',
  cephfs: 'CephFS',
  fc: 'FC',
  csi: 'CSI',
  storageos: 'StorageOS',
  uid: 'UID',
  seLinuxOptions: 'SELinuxOptions',
  seLinuxChangePolicy: 'SELinuxChangePolicy',
  gmsaCredentialSpecName: 'GMSACredentialSpecName',
  gmsaCredentialSpec: 'GMSACredentialSpec',
  fsGroup: 'FSGroup',
  fsGroupChangePolicy: 'FSGroupChangePolicy',
};

/** The Go field name of a JSON field (the internal types use the v1 names, capitalised). */
export function goFieldName(jsonName: string): string {
  return GO_FIELD_NAMES[jsonName] ?? jsonName.charAt(0).toUpperCase() + jsonName.slice(1);
}

// Go's zero values of the scalar kinds, as go-cmp prints an unset non-pointer field.
const SCALAR_ZERO: Record<string, string> = { string: '""', bool: 'false' };

/** The zero value of a Go type name from the facts (`*x`, `[]x` and maps are nil). */
function goZero(type: string): string {
  if (type.startsWith('*') || type.startsWith('[]') || type.startsWith('map[')) return 'nil';
  if (type in SCALAR_ZERO) return SCALAR_ZERO[type]!;
  if (/^u?int(8|16|32|64)?$|^float(32|64)$/.test(type)) return '0';
  // A named type of a scalar (core.v1.DNSPolicy is a string) or a struct.
  const named = GO_NAMED[type];
  if (named !== undefined) return goZero(named);
  return GO_STRUCTS[type] ? '{}' : 'nil';
}

// Fields whose value is a Go map with string keys (kept as they are, never renamed).
const MAP_FIELDS = new Set(['matchLabels', 'nodeSelector', 'labels', 'annotations', 'limits', 'requests', 'capacity', 'volumeAttributes', 'parameters', 'overhead']);

/** A map's entries as go-cmp prints them: quoted keys. */
function goMapLiteral(v: Json): string {
  return `{${Object.entries(v)
    .map(([k, e]) => `${goQuote(k)}: ${goLiteral(e, false)}`)
    .join(', ')}}`;
}

/** A value as go-cmp prints it inside a struct literal, Go field names for nested objects. */
function goLiteral(v: unknown, pointer: boolean, type = ''): string {
  if (v === undefined || v === null) return type ? goZero(type) : 'nil';
  const amp = pointer ? '&' : '';
  if (typeof v === 'string') return amp + goQuote(v);
  if (typeof v === 'number' || typeof v === 'boolean') return amp + String(v);
  if (Array.isArray(v)) return `{${v.map((e) => goLiteral(e, false)).join(', ')}}`;
  if (isPlainObject(v)) {
    return `${amp}{${Object.entries(v)
      .filter(([, e]) => !isEmptyJson(e))
      .map(([k, e]) => `${goFieldName(k)}: ${MAP_FIELDS.has(k) && isPlainObject(e) ? goMapLiteral(e) : goLiteral(e, false)}`)
      .join(', ')}}`;
  }
  return String(v);
}

/**
 * cmp.Diff(old, new) of two structs of the v1 Go type `goType` (a GO_STRUCTS key, e.g.
 * `core.v1.PodSpec`), printed under the internal type's name `internalName` (`core.PodSpec`).
 * `fields` restricts the comparison to some of the struct's fields (an embedded struct such as
 * PersistentVolumeSource). Empty when the two are semantically equal.
 */
export function goStructDiff(internalName: string, goType: string, oldValue: Json, newValue: Json, fields?: readonly string[]): string {
  const all = GO_STRUCTS[goType] ?? [];
  const members = fields ? all.filter(([name]) => fields.includes(name)) : all;
  const lines = [`  ${internalName}{`];
  let identical = 0;
  const flush = () => {
    if (identical > 0) lines.push(`  \t... // ${identical} identical ${identical === 1 ? 'field' : 'fields'}`);
    identical = 0;
  };
  let changed = false;
  for (const [name, type] of members) {
    const before = oldValue[name];
    const after = newValue[name];
    if (semanticEqual(before, after)) {
      identical++;
      continue;
    }
    flush();
    changed = true;
    const pointer = type.startsWith('*');
    const goName = goFieldName(name);
    const literal = (v: unknown) => (MAP_FIELDS.has(name) && isPlainObject(v) ? goMapLiteral(v) : goLiteral(v, pointer, type));
    lines.push(`- \t${goName}: ${literal(before)},`);
    lines.push(`+ \t${goName}: ${literal(after)},`);
  }
  if (!changed) return '';
  flush();
  lines.push('  }');
  return lines.join('\n') + '\n';
}

/**
 * json.Marshal of an internal struct (no json tags: Go field names, every level) given its v1
 * JSON; `metadata` stays as it is (metav1.ObjectMeta is tagged), and so do maps such as labels.
 */
export function internalStructJson(value: unknown): unknown {
  const walk = (v: unknown, mapValued: boolean): unknown => {
    if (Array.isArray(v)) return v.map((e) => walk(e, false));
    if (!isPlainObject(v)) return v;
    if (mapValued) return v;
    return Object.fromEntries(
      Object.entries(v).map(([k, e]) => {
        if (k === 'metadata') return ['metadata', e];
        // String-keyed maps of the internal types keep their keys (labels, selectors, quantities).
        return [goFieldName(k), walk(e, MAP_FIELDS.has(k))];
      }),
    );
  };
  return walk(value, false);
}

/**
 * json.Marshal of an internal struct whose fields are those of the v1 type `goType` (a GO_STRUCTS
 * key) in the same order, as for core.SecurityContext: every field is written (no omitempty), under
 * its Go name, nil pointers, slices and maps as null and unset scalars as their zero values.
 */
export function typedInternalJson(goType: string, value: unknown): string {
  const fields = GO_STRUCTS[goType];
  if (value === undefined || value === null) return 'null';
  if (!fields || !isPlainObject(value)) return JSON.stringify(value);
  return `{${fields.map(([name, type]) => `${JSON.stringify(goFieldName(name))}:${typedFieldJson(type, value[name])}`).join(',')}}`;
}

function typedFieldJson(type: string, v: unknown): string {
  if (type.startsWith('*')) return v === undefined || v === null ? 'null' : typedFieldJson(type.slice(1), v);
  if (type.startsWith('[]')) return Array.isArray(v) ? `[${v.map((e) => typedFieldJson(type.slice(2), e)).join(',')}]` : 'null';
  if (type.startsWith('map[')) return isPlainObject(v) ? JSON.stringify(v) : 'null';
  if (GO_STRUCTS[type]) return typedInternalJson(type, v ?? {});
  if (v !== undefined && v !== null) return JSON.stringify(v);
  const zero = goZero(type);
  return zero === 'nil' ? 'null' : zero;
}

/** The JSON of a value once internalStructJson has renamed its fields. */
export function internalJsonText(value: unknown): string {
  return JSON.stringify(internalStructJson(value) ?? null);
}

export type { Json as GoJson };
