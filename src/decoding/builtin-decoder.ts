// Typed decoding of built-in kinds, as kube-apiserver's codec does it before anything else runs
// (apimachinery runtime/serializer/json/json.go Decode, runtime/serializer/versioning Decode,
// apiserver endpoints/handlers create.go/update.go/patch.go): the body is decoded into the Go
// struct of the kind it declares, from the generated Go-type facts, keyed by group/version/kind, so
// any built-in kind present in the facts decodes this way.
import { apiVersionOf, isPlainObject, parseGroupVersion, type KubeObject } from '../apis/object.ts';
import { decodeGoBase64 } from '../go/base64.ts';
import { goJson } from '../errors/go-format.ts';
import { GO_KINDS, GO_NAMED, GO_STRUCTS } from '../generated/go-types.generated.ts';
import { decodeTypedJson, GoTypeSystem, type TypedJsonResult } from '../go/typed-json.ts';
import { setOwn } from '../util/own-property.ts';
import { convertFromUnstructured, type ConverterResult } from '../go/unstructured-converter.ts';
import { SPECIAL_DECODERS, SPECIAL_ZERO } from './special-types.ts';

const TYPES = new GoTypeSystem({ named: GO_NAMED, structs: GO_STRUCTS }, new Set(Object.keys(SPECIAL_DECODERS)));

/** The group versions the facts describe (a kind missing from one of them is not registered). */
const KNOWN_GROUP_VERSIONS = new Set(Object.keys(GO_KINDS).map((k) => k.slice(0, k.lastIndexOf('/'))));

const kindKey = (apiVersion: string, kind: string) => `${apiVersion}/${kind}`;

/** Whether kubefake decodes writes of this kind as Go structs (every kind the facts hold). */
export function hasTypedDecoding(group: string, version: string, kind: string): boolean {
  return Object.hasOwn(GO_KINDS, kindKey(apiVersionOf(group, version), kind));
}

export interface TypedDecodeRequest {
  /** The endpoint's group, version and kind. */
  group: string;
  version: string;
  kind: string;
  /** The object as parsed (YAML, protobuf, a patched object). */
  object: Record<string, unknown>;
  /** The JSON document as sent, when the body was JSON: keys in document order, duplicates kept. */
  json?: string;
  /** fieldValidation Strict or Warn: the strict decoder, reporting unknown and duplicate fields. */
  strict: boolean;
  /**
   * `unstructured`: the object is a strategic merge patch's result, converted to the struct by
   * runtime.DefaultUnstructuredConverter instead of being decoded from JSON (patch.go).
   */
  via?: 'json' | 'unstructured';
}

export type TypedDecodeOutcome =
  | { ok: true; object: KubeObject; strictErrors: string[] }
  /** `message` is the whole 400 text for a body; `error` the decoder's own (patches wrap it). */
  | { ok: false; message: string; error: string }
  /** The body names another version of the kind, or one the facts do not know: left to the caller. */
  | { ok: 'skipped' };

/** internal package of a group, as the conversion error names the hub type (`core.ConfigMap`). */
function internalPackage(group: string, kind: string): string {
  if (group === '' || (group === 'events.k8s.io' && kind === 'Event')) return 'core';
  return group.split('.')[0]!;
}

function base64Error(text: string): string | undefined {
  const decoded = decodeGoBase64(text);
  return decoded.ok ? undefined : decoded.error;
}

const fromConverter = (r: ConverterResult): TypedJsonResult => (r.ok ? { ok: true, value: r.value, strictErrors: r.unknownFields } : r);

/**
 * The name of the scheme serving a group: where runtime.NewScheme() was called, as
 * naming.GetNameFromCallsite trims a -trimpath file name (from its last "/pkg/"). The
 * apiextensions and aggregator servers have schemes of their own.
 */
function schemeName(group: string): string {
  if (group === 'apiextensions.k8s.io') return 'pkg/apiserver/apiserver.go:55';
  if (group === 'apiregistration.k8s.io') return 'pkg/apiserver/scheme/scheme.go:28';
  return 'pkg/api/legacyscheme/scheme.go:30';
}

/**
 * Decodes `object` (or its JSON text) into the Go struct of the kind it declares, defaulting
 * apiVersion and kind from the endpoint (gvkWithDefaults). A kind other than the endpoint's is
 * decoded too and then refused as conversion does; an unregistered one is refused as the scheme does.
 */
export function decodeBuiltin(req: TypedDecodeRequest): TypedDecodeOutcome {
  const target = apiVersionOf(req.group, req.version);
  const apiVersion = typeof req.object.apiVersion === 'string' ? req.object.apiVersion : '';
  const bodyKind = typeof req.object.kind === 'string' && req.object.kind !== '' ? req.object.kind : req.kind;
  let gv = parseGroupVersion(apiVersion) ?? { group: req.group, version: req.version };
  if (gv.version === '' && (gv.group === '' || gv.group === req.group)) gv = { group: gv.group === '' ? req.group : gv.group, version: req.version };
  const bodyVersion = apiVersionOf(gv.group, gv.version);
  const fail = (error: string) => ({ ok: false as const, error, message: `${bodyKind} in version ${JSON.stringify(gv.version)} cannot be handled as a ${req.kind}: ${error}` });
  const root = GO_KINDS[kindKey(bodyVersion, bodyKind)];
  if (root === undefined) {
    // A group version kubefake has no facts for (a beta version) is left to the apiVersion check.
    if (!KNOWN_GROUP_VERSIONS.has(bodyVersion)) return { ok: 'skipped' };
    return fail(`no kind ${JSON.stringify(bodyKind)} is registered for version ${JSON.stringify(bodyVersion)} in scheme ${JSON.stringify(schemeName(req.group))}`);
  }
  const hooks = { special: SPECIAL_DECODERS, specialZero: SPECIAL_ZERO, base64Error };
  const result =
    req.via === 'unstructured'
      ? fromConverter(convertFromUnstructured(TYPES, req.object, root, { ...hooks, returnUnknownFields: req.strict }))
      : decodeTypedJson(TYPES, req.json ?? goJson(req.object), root, { ...hooks, strict: req.strict });
  if (!result.ok) return fail(result.error);
  if (bodyKind !== req.kind || gv.group !== req.group) {
    // The versioning codec converts what it decoded to the endpoint's internal type: no conversion
    // exists between two kinds.
    const from = `${gv.version}.${bodyKind}`;
    return fail(`converting (${from}) to (${internalPackage(req.group, req.kind)}.${req.kind}): unknown conversion`);
  }
  // Another version of the same kind converts; the handler's apiVersion check answers it.
  if (bodyVersion !== target) return { ok: 'skipped' };
  // Without the sent document the object was decoded from its keys sorted (as Go marshals a map);
  // what is stored keeps the order the object came in.
  const object = req.json === undefined ? keepKeyOrder(result.value, req.object) : result.value;
  return { ok: true, object: object as KubeObject, strictErrors: result.strictErrors };
}

/** `decoded` with its object keys in the order `source` has them (keys `source` lacks last). */
function keepKeyOrder(decoded: unknown, source: unknown): unknown {
  if (Array.isArray(decoded)) return Array.isArray(source) ? decoded.map((v, i) => keepKeyOrder(v, source[i])) : decoded;
  if (!isPlainObject(decoded) || !isPlainObject(source)) return decoded;
  const out: Record<string, unknown> = {};
  const put = (k: string) => setOwn(out, k, keepKeyOrder(decoded[k], source[k]));
  for (const k of Object.keys(source)) if (Object.hasOwn(decoded, k)) put(k);
  for (const k of Object.keys(decoded)) if (!Object.hasOwn(out, k)) put(k);
  return out;
}
