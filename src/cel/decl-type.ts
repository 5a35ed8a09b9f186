// The CEL view of a structural schema (k8s.io/apiserver pkg/cel/common/schemas.go SchemaDeclType):
// which fields a rule can see, their CEL types, and the size bounds the cost estimator works with.
// Objects become object types (properties only; unknown fields stay invisible), additionalProperties
// maps, items lists, int-or-string dyn, and date-time/date/duration/byte strings timestamps,
// durations and bytes. Property names are escaped as Kubernetes escapes them (`__dash__`, ...).
import type { JSONSchemaProps } from '../schema/types.ts';

/** celconfig.MaxRequestSizeBytes: the cost model's upper bound for unbounded data. */
export const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;
const MAX_DURATION_SIZE_JSON = 32;
const MAX_DATETIME_SIZE_JSON = 32;
const MIN_DURATION_SIZE_JSON = 3;
const JSON_DATE_SIZE = 12;
const MIN_DATETIME_SIZE_JSON = 21;
const MIN_STRING_SIZE = 2;
const MIN_BOOL_SIZE = 4;
const MIN_NUMBER_SIZE = 1;

export type ScalarKind = 'string' | 'int' | 'double' | 'bool' | 'bytes' | 'timestamp' | 'duration' | 'dyn';

export interface DeclField {
  /** The JSON property name (the CEL name is the key of `fields`). */
  jsonName: string;
  type: DeclType;
  required: boolean;
}

interface DeclBase {
  /** Size bound of the value (characters, items, properties) for cost estimation; 0 when unbounded-irrelevant. */
  maxElements: number;
  minSerializedSize: number;
}

export type DeclType =
  | (DeclBase & { kind: 'object'; fields: Map<string, DeclField> })
  | (DeclBase & { kind: 'list'; elem: DeclType; listType: 'atomic' | 'set' | 'map'; mapKeys: readonly string[] })
  | (DeclBase & { kind: 'map'; elem: DeclType })
  | (DeclBase & { kind: 'scalar'; scalar: ScalarKind });

const RESERVED = new Set([
  'true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if',
  'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while',
]);

/** cel.Escape: the CEL name of a property, or undefined when it cannot be expressed. */
export function escapeName(ident: string): string | undefined {
  if (ident.length === 0 || (ident[0]! >= '0' && ident[0]! <= '9')) return undefined;
  if (RESERVED.has(ident)) return `__${ident}__`;
  if (!/^[a-zA-Z0-9_./-]*$/.test(ident)) return undefined;
  return ident.replace(/__|[-./]/g, (s) => (s === '__' ? '__underscores__' : s === '.' ? '__dot__' : s === '-' ? '__dash__' : '__slash__'));
}

const zeroIfNegative = (v: number): number => (v < 0 ? 0 : v);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

function scalar(kind: ScalarKind, minSerializedSize: number, maxElements = 0): DeclType {
  return { kind: 'scalar', scalar: kind, minSerializedSize, maxElements };
}

/** estimateMaxStringLengthPerRequest. */
function maxStringLength(s: JSONSchemaProps): number {
  if (s['x-kubernetes-int-or-string']) return MAX_REQUEST_SIZE_BYTES - 2;
  switch (s.format) {
    case 'duration':
      return MAX_DURATION_SIZE_JSON;
    case 'date':
      return JSON_DATE_SIZE;
    case 'date-time':
      return MAX_DATETIME_SIZE_JSON;
    default:
      return MAX_REQUEST_SIZE_BYTES - 2;
  }
}

/** WithTypeAndObjectMeta: resource roots always expose apiVersion, kind, metadata.name and metadata.generateName. */
function withTypeAndObjectMeta(s: JSONSchemaProps): JSONSchemaProps {
  const p = s.properties;
  const meta = p?.metadata;
  if (p?.kind?.type === 'string' && p.apiVersion?.type === 'string' && meta?.type === 'object' && meta.properties?.name?.type === 'string' && meta.properties.generateName?.type === 'string') return s;
  return {
    ...s,
    properties: {
      ...p,
      kind: { type: 'string' },
      apiVersion: { type: 'string' },
      metadata: { type: 'object', properties: { name: { type: 'string' }, generateName: { type: 'string' } } },
    },
  };
}

/** SchemaDeclType: undefined when the schema is not visible to CEL (no type, or children that are not). */
export function schemaDeclType(s: JSONSchemaProps | undefined, isResourceRoot: boolean): DeclType | undefined {
  if (s === undefined) return undefined;
  if (s['x-kubernetes-int-or-string']) {
    const maxLength = num(s.maxLength);
    return scalar('dyn', 1, maxLength !== undefined ? zeroIfNegative(maxLength) * 4 : maxStringLength(s));
  }
  if (isResourceRoot) s = withTypeAndObjectMeta(s);
  switch (s.type) {
    case 'array': {
      if (s.items === undefined || Array.isArray(s.items)) return undefined;
      const elem = schemaDeclType(s.items, s.items['x-kubernetes-embedded-resource'] === true);
      if (elem === undefined) return undefined;
      const maxItems = num(s.maxItems);
      const listType = s['x-kubernetes-list-type'] === 'set' || s['x-kubernetes-list-type'] === 'map' ? s['x-kubernetes-list-type'] : 'atomic';
      return {
        kind: 'list',
        elem,
        listType,
        mapKeys: s['x-kubernetes-list-map-keys'] ?? [],
        maxElements: maxItems !== undefined ? zeroIfNegative(maxItems) : Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (elem.minSerializedSize + 1)),
        minSerializedSize: 2,
      };
    }
    case 'object': {
      const ap = s.additionalProperties;
      if (ap !== undefined && typeof ap === 'object') {
        const elem = schemaDeclType(ap, ap['x-kubernetes-embedded-resource'] === true);
        if (elem === undefined) return undefined;
        const maxProps = num(s.maxProperties);
        return {
          kind: 'map',
          elem,
          maxElements: maxProps !== undefined ? zeroIfNegative(maxProps) : Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (elem.minSerializedSize + 6)),
          minSerializedSize: 2,
        };
      }
      const required = new Set(s.required ?? []);
      const fields = new Map<string, DeclField>();
      let minSerializedSize = 2;
      for (const [name, prop] of Object.entries(s.properties ?? {})) {
        const type = schemaDeclType(prop, prop['x-kubernetes-embedded-resource'] === true);
        if (type === undefined) continue;
        const celName = escapeName(name);
        if (celName !== undefined) fields.set(celName, { jsonName: name, type, required: required.has(name) });
        if (required.has(name) && prop.default === undefined) minSerializedSize += name.length + type.minSerializedSize + 4;
      }
      return { kind: 'object', fields, maxElements: 0, minSerializedSize };
    }
    case 'string': {
      switch (s.format) {
        case 'byte':
          return scalar('bytes', MIN_STRING_SIZE, num(s.maxLength) !== undefined ? zeroIfNegative(s.maxLength!) : maxStringLength(s));
        case 'duration':
          return scalar('duration', MIN_DURATION_SIZE_JSON, maxStringLength(s));
        case 'date':
          return scalar('timestamp', JSON_DATE_SIZE, maxStringLength(s));
        case 'date-time':
          return scalar('timestamp', MIN_DATETIME_SIZE_JSON, maxStringLength(s));
      }
      let max: number;
      if (num(s.maxLength) !== undefined) max = zeroIfNegative(s.maxLength!) * 4;
      else if (Array.isArray(s.enum) && s.enum.length > 0) max = Math.max(0, ...s.enum.map((e) => (typeof e === 'string' ? e.length : 0)));
      else max = maxStringLength(s);
      return scalar('string', MIN_STRING_SIZE, max);
    }
    case 'boolean':
      return scalar('bool', MIN_BOOL_SIZE);
    case 'number':
      return scalar('double', MIN_NUMBER_SIZE);
    case 'integer':
      return scalar('int', MIN_NUMBER_SIZE);
  }
  return undefined;
}

/** maxCardinality: how often data of this minimum size can occur in one request. */
export function maxCardinality(minSerializedSize: number): number {
  return Math.floor(MAX_REQUEST_SIZE_BYTES / (minSerializedSize + 1));
}
