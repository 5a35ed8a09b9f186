// The internal (hub) apiextensions types the Go validation runs on, decoded from the v1 JSON the
// way the real server does it: v1 JSON -> v1 structs (null is a nil pointer, unknown fields gone)
// -> internal structs (pkg/apis/apiextensions/v1/conversion.go). Validation ports read this model
// so that nil-versus-empty and zero-value semantics stay Go's. Wrongly typed fields would have
// failed decoding before validation; here they read as unset.
import { isPlainObject } from '../../apis/object.ts';

/** Internal JSONSchemaProps. `undefined` is a nil pointer, slice or map. */
export interface Schema {
  id: string;
  schema: string;
  ref: string | undefined;
  description: string;
  type: string;
  nullable: boolean;
  format: string;
  title: string;
  /** *JSON: undefined is nil (v1 `default: null` decodes to nil as well). */
  default: unknown;
  maximum: number | undefined;
  exclusiveMaximum: boolean;
  minimum: number | undefined;
  exclusiveMinimum: boolean;
  maxLength: number | undefined;
  minLength: number | undefined;
  pattern: string;
  maxItems: number | undefined;
  minItems: number | undefined;
  uniqueItems: boolean;
  multipleOf: number | undefined;
  enum: unknown[] | undefined;
  maxProperties: number | undefined;
  minProperties: number | undefined;
  required: string[] | undefined;
  items: SchemaOrArray | undefined;
  allOf: Schema[] | undefined;
  oneOf: Schema[] | undefined;
  anyOf: Schema[] | undefined;
  not: Schema | undefined;
  properties: Map<string, Schema> | undefined;
  additionalProperties: SchemaOrBool | undefined;
  patternProperties: Map<string, Schema> | undefined;
  dependencies: Map<string, SchemaOrStringArray> | undefined;
  additionalItems: SchemaOrBool | undefined;
  definitions: Map<string, Schema> | undefined;
  externalDocs: { description: string; url: string } | undefined;
  example: unknown;
  xPreserveUnknownFields: boolean | undefined;
  xEmbeddedResource: boolean;
  xIntOrString: boolean;
  xListMapKeys: string[] | undefined;
  xListType: string | undefined;
  xMapType: string | undefined;
  xValidations: Rule[] | undefined;
}

export interface SchemaOrArray {
  schema: Schema | undefined;
  schemas: Schema[] | undefined;
}
export interface SchemaOrBool {
  allows: boolean;
  schema: Schema | undefined;
}
export interface SchemaOrStringArray {
  schema: Schema | undefined;
  property: string[] | undefined;
}

export interface Rule {
  rule: string;
  message: string;
  messageExpression: string;
  reason: string | undefined;
  fieldPath: string;
  optionalOldSelf: boolean | undefined;
}

export interface Validation {
  openAPIV3Schema: Schema | undefined;
}

export interface Scale {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath: string | undefined;
}

export interface Subresources {
  /** CustomResourceSubresourceStatus is an empty struct: only presence counts. */
  status: boolean;
  scale: Scale | undefined;
}

export interface Column {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
  jsonPath: string;
}

export interface SelectableField {
  jsonPath: string;
}

export interface Version {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated: boolean;
  deprecationWarning: string | undefined;
  schema: Validation | undefined;
  subresources: Subresources | undefined;
  additionalPrinterColumns: Column[] | undefined;
  selectableFields: SelectableField[] | undefined;
}

export interface Names {
  plural: string;
  singular: string;
  shortNames: string[] | undefined;
  kind: string;
  listKind: string;
  categories: string[] | undefined;
}

export interface ServiceReference {
  namespace: string;
  name: string;
  path: string | undefined;
  port: number;
}

export interface WebhookClientConfig {
  url: string | undefined;
  service: ServiceReference | undefined;
  /** []byte, kept as the base64 text it travels as in JSON. */
  caBundle: string;
}

export interface Conversion {
  strategy: string;
  webhookClientConfig: WebhookClientConfig | undefined;
  conversionReviewVersions: string[] | undefined;
}

export interface Spec {
  group: string;
  version: string;
  names: Names;
  scope: string;
  validation: Validation | undefined;
  subresources: Subresources | undefined;
  versions: Version[];
  additionalPrinterColumns: Column[] | undefined;
  selectableFields: SelectableField[] | undefined;
  conversion: Conversion | undefined;
  /** Always set: v1 has a plain bool that converts to a non-nil *bool. */
  preserveUnknownFields: boolean;
}

export interface Condition {
  type: string;
  status: string;
}

export interface Status {
  conditions: Condition[];
  acceptedNames: Names;
  storedVersions: string[] | undefined;
}

export interface Crd {
  name: string;
  annotations: Record<string, string>;
  spec: Spec;
  status: Status;
}

type Json = Record<string, unknown>;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const optStr = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const bool = (v: unknown): boolean => v === true;
const optBool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const obj = (v: unknown): Json | undefined => (isPlainObject(v) ? v : undefined);
const strs = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined);
const objs = (v: unknown): Json[] | undefined => (Array.isArray(v) ? v.map((x) => obj(x) ?? {}) : undefined);

// The v1 JSON each schema node came from, for hooks that take the wire form. Kept off the object
// so that semanticEqual compares only what Go compares.
const rawSchemas = new WeakMap<Schema, Json>();

/** The v1 JSON a schema node was decoded from. */
export function rawOf(s: Schema): Json {
  return rawSchemas.get(s) ?? {};
}

/** v1 JSONSchemaProps JSON -> internal JSONSchemaProps. */
export function toSchema(raw: Json): Schema {
  const s = decodeSchema(raw);
  rawSchemas.set(s, raw);
  return s;
}

function decodeSchema(raw: Json): Schema {
  return {
    id: str(raw.id),
    schema: str(raw.$schema),
    ref: optStr(raw.$ref),
    description: str(raw.description),
    type: str(raw.type),
    nullable: bool(raw.nullable),
    format: str(raw.format),
    title: str(raw.title),
    default: raw.default ?? undefined,
    maximum: num(raw.maximum),
    exclusiveMaximum: bool(raw.exclusiveMaximum),
    minimum: num(raw.minimum),
    exclusiveMinimum: bool(raw.exclusiveMinimum),
    maxLength: num(raw.maxLength),
    minLength: num(raw.minLength),
    pattern: str(raw.pattern),
    maxItems: num(raw.maxItems),
    minItems: num(raw.minItems),
    uniqueItems: bool(raw.uniqueItems),
    multipleOf: num(raw.multipleOf),
    // An enum entry that is JSON null decodes to a JSON{} with no Raw, i.e. nil in the internal type.
    enum: Array.isArray(raw.enum) ? raw.enum.map((e) => e ?? undefined) : undefined,
    maxProperties: num(raw.maxProperties),
    minProperties: num(raw.minProperties),
    required: strs(raw.required),
    items: toSchemaOrArray(raw.items),
    allOf: schemaList(raw.allOf),
    oneOf: schemaList(raw.oneOf),
    anyOf: schemaList(raw.anyOf),
    not: obj(raw.not) ? toSchema(obj(raw.not)!) : undefined,
    properties: schemaMap(raw.properties),
    additionalProperties: toSchemaOrBool(raw.additionalProperties),
    patternProperties: schemaMap(raw.patternProperties),
    dependencies: dependencyMap(raw.dependencies),
    additionalItems: toSchemaOrBool(raw.additionalItems),
    definitions: schemaMap(raw.definitions),
    externalDocs: obj(raw.externalDocs) ? { description: str(obj(raw.externalDocs)!.description), url: str(obj(raw.externalDocs)!.url) } : undefined,
    example: raw.example ?? undefined,
    xPreserveUnknownFields: optBool(raw['x-kubernetes-preserve-unknown-fields']),
    xEmbeddedResource: bool(raw['x-kubernetes-embedded-resource']),
    xIntOrString: bool(raw['x-kubernetes-int-or-string']),
    xListMapKeys: strs(raw['x-kubernetes-list-map-keys']),
    xListType: optStr(raw['x-kubernetes-list-type']),
    xMapType: optStr(raw['x-kubernetes-map-type']),
    xValidations: objs(raw['x-kubernetes-validations'])?.map(toRule),
  };
}

function toRule(raw: Json): Rule {
  return {
    rule: str(raw.rule),
    message: str(raw.message),
    messageExpression: str(raw.messageExpression),
    reason: optStr(raw.reason),
    fieldPath: str(raw.fieldPath),
    optionalOldSelf: optBool(raw.optionalOldSelf),
  };
}

function schemaList(v: unknown): Schema[] | undefined {
  return objs(v)?.map(toSchema);
}

function schemaMap(v: unknown): Map<string, Schema> | undefined {
  const o = obj(v);
  if (!o) return undefined;
  const m = new Map<string, Schema>();
  for (const [k, s] of Object.entries(o)) m.set(k, toSchema(obj(s) ?? {}));
  return m;
}

function dependencyMap(v: unknown): Map<string, SchemaOrStringArray> | undefined {
  const o = obj(v);
  if (!o) return undefined;
  const m = new Map<string, SchemaOrStringArray>();
  for (const [k, d] of Object.entries(o)) {
    m.set(k, { schema: obj(d) ? toSchema(obj(d)!) : undefined, property: strs(d) });
  }
  return m;
}

// JSONSchemaPropsOrArray.UnmarshalJSON: an object is a schema, an array a list of schemas.
function toSchemaOrArray(v: unknown): SchemaOrArray | undefined {
  if (v === undefined || v === null) return undefined;
  if (Array.isArray(v)) return { schema: undefined, schemas: v.map((s) => toSchema(obj(s) ?? {})) };
  if (isPlainObject(v)) return { schema: toSchema(v), schemas: undefined };
  return { schema: undefined, schemas: undefined };
}

// JSONSchemaPropsOrBool.UnmarshalJSON: an object allows with a schema; true/false allow or not.
function toSchemaOrBool(v: unknown): SchemaOrBool | undefined {
  if (v === undefined || v === null) return undefined;
  if (isPlainObject(v)) return { allows: true, schema: toSchema(v) };
  return { allows: v === true, schema: undefined };
}

function toValidation(v: unknown): Validation | undefined {
  const o = obj(v);
  if (!o) return undefined;
  const s = obj(o.openAPIV3Schema);
  return { openAPIV3Schema: s ? toSchema(s) : undefined };
}

function toSubresources(v: unknown): Subresources | undefined {
  const o = obj(v);
  if (!o) return undefined;
  const scale = obj(o.scale);
  return {
    status: obj(o.status) !== undefined,
    scale: scale
      ? { specReplicasPath: str(scale.specReplicasPath), statusReplicasPath: str(scale.statusReplicasPath), labelSelectorPath: optStr(scale.labelSelectorPath) }
      : undefined,
  };
}

function toColumns(v: unknown): Column[] | undefined {
  return objs(v)?.map((c) => ({
    name: str(c.name),
    type: str(c.type),
    format: str(c.format),
    description: str(c.description),
    priority: num(c.priority) ?? 0,
    jsonPath: str(c.jsonPath),
  }));
}

function toSelectableFields(v: unknown): SelectableField[] | undefined {
  return objs(v)?.map((f) => ({ jsonPath: str(f.jsonPath) }));
}

export function toNames(v: unknown): Names {
  const o = obj(v) ?? {};
  return {
    plural: str(o.plural),
    singular: str(o.singular),
    shortNames: strs(o.shortNames),
    kind: str(o.kind),
    listKind: str(o.listKind),
    categories: strs(o.categories),
  };
}

// Convert_v1_CustomResourceConversion_To_apiextensions_CustomResourceConversion: webhook.* is flattened.
function toConversion(v: unknown): Conversion | undefined {
  const o = obj(v);
  if (!o) return undefined;
  const webhook = obj(o.webhook);
  const cc = webhook ? obj(webhook.clientConfig) : undefined;
  const service = cc ? obj(cc.service) : undefined;
  return {
    strategy: str(o.strategy),
    conversionReviewVersions: webhook ? strs(webhook.conversionReviewVersions) : undefined,
    webhookClientConfig: cc
      ? {
          url: optStr(cc.url),
          service: service
            ? {
                namespace: str(service.namespace),
                name: str(service.name),
                path: optStr(service.path),
                // SetDefaults_ServiceReference: a missing port is 443.
                port: num(service.port) ?? 443,
              }
            : undefined,
          caBundle: str(cc.caBundle),
        }
      : undefined,
  };
}

function toVersion(raw: Json): Version {
  return {
    name: str(raw.name),
    served: bool(raw.served),
    storage: bool(raw.storage),
    deprecated: bool(raw.deprecated),
    deprecationWarning: optStr(raw.deprecationWarning),
    schema: toValidation(raw.schema),
    subresources: toSubresources(raw.subresources),
    additionalPrinterColumns: toColumns(raw.additionalPrinterColumns),
    selectableFields: toSelectableFields(raw.selectableFields),
  };
}

/**
 * Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec: version is
 * versions[0].name, and per-version schema/subresources/columns/selectableFields that are identical
 * in all versions move to the top level. That is why a single-version v1 CRD reports schema errors
 * under `spec.validation.openAPIV3Schema`.
 */
export function toSpec(raw: Json): Spec {
  const versions = (objs(raw.versions) ?? []).map(toVersion);
  const spec: Spec = {
    group: str(raw.group),
    version: '',
    names: toNames(raw.names),
    scope: str(raw.scope),
    validation: undefined,
    subresources: undefined,
    versions,
    additionalPrinterColumns: undefined,
    selectableFields: undefined,
    conversion: toConversion(raw.conversion),
    preserveUnknownFields: bool(raw.preserveUnknownFields),
  };
  if (versions.length === 0) return spec;
  spec.version = versions[0]!.name;
  const first = versions[0]!;
  const same = <K extends keyof Version>(k: K) => versions.every((v) => semanticEqual(v[k], first[k]));
  const subresourcesIdentical = same('subresources');
  const validationIdentical = same('schema');
  const columnsIdentical = same('additionalPrinterColumns');
  const selectableIdentical = same('selectableFields');
  if (subresourcesIdentical) spec.subresources = first.subresources;
  if (validationIdentical) spec.validation = first.schema;
  if (columnsIdentical) spec.additionalPrinterColumns = first.additionalPrinterColumns;
  if (selectableIdentical) spec.selectableFields = first.selectableFields;
  spec.versions = versions.map((v) => ({
    ...v,
    subresources: subresourcesIdentical ? undefined : v.subresources,
    schema: validationIdentical ? undefined : v.schema,
    additionalPrinterColumns: columnsIdentical ? undefined : v.additionalPrinterColumns,
    selectableFields: selectableIdentical ? undefined : v.selectableFields,
  }));
  return spec;
}

export function toCrd(raw: Json): Crd {
  const metadata = obj(raw.metadata) ?? {};
  const annotations: Record<string, string> = {};
  for (const [k, v] of Object.entries(obj(metadata.annotations) ?? {})) if (typeof v === 'string') annotations[k] = v;
  const status = obj(raw.status) ?? {};
  return {
    name: str(metadata.name),
    annotations,
    spec: toSpec(obj(raw.spec) ?? {}),
    status: {
      conditions: (objs(status.conditions) ?? []).map((c) => ({ type: str(c.type), status: str(c.status) })),
      acceptedNames: toNames(status.acceptedNames),
      storedVersions: strs(status.storedVersions),
    },
  };
}

/** apiextensions.IsCRDConditionTrue. */
export function isConditionTrue(crd: Crd, type: string): boolean {
  return crd.status.conditions.some((c) => c.type === type && c.status === 'True');
}

/**
 * apiequality.Semantic.DeepEqual over this model: a nil slice or map equals an empty one (Go's
 * Equalities.DeepEqual rule), a nil pointer does not equal a pointer to a zero struct.
 */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const emptyA = isEmptyCollection(a);
  const emptyB = isEmptyCollection(b);
  if ((a === undefined && emptyB) || (b === undefined && emptyA)) return true;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => semanticEqual(x, b[i]));
  }
  if (a instanceof Map || b instanceof Map) {
    if (!(a instanceof Map) || !(b instanceof Map) || a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !semanticEqual(v, b.get(k))) return false;
    return true;
  }
  if (typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a as object);
    const kb = Object.keys(b as object);
    const keys = new Set([...ka, ...kb]);
    for (const k of keys) {
      if (!semanticEqual((a as Json)[k], (b as Json)[k])) return false;
    }
    return true;
  }
  return false;
}

function isEmptyCollection(v: unknown): boolean {
  return (Array.isArray(v) && v.length === 0) || (v instanceof Map && v.size === 0);
}
