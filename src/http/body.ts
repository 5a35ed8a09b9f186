// Reading and decoding request bodies: the 3 MiB limit, JSON or YAML, and the 400 texts of
// transformDecodeError (apiserver/pkg/endpoints/handlers/rest.go).
import { admissionContextOf } from './admission-outcome.ts';
import { apiVersionOf } from '../apis/object.ts';
import type { ResourceType } from '../apis/resource-type.ts';
import { badRequest, nestedTooDeep, requestEntityTooLarge, unsupportedMediaType } from '../errors/status-error.ts';
import { goYamlToJson } from '../go/yaml.ts';
import { MAX_OBJECT_DEPTH, nestingDepth } from '../util/nesting-depth.ts';
import type { WriteOptions } from '../apis/options.ts';
import { goDuplicateFieldError, goJsonTypeError, parseGoJson, summarizeGoData, VERSION_KIND_ERROR_PREFIX } from '../go/json.ts';
import { decodeGoUtf8 } from '../go/utf8.ts';
import type * as ProtobufDecoder from './protobuf/decode.ts';
import { isKubernetesProtobuf } from './protobuf/media-type.ts';
import { contentTypeEssence } from './media-types.ts';
import { rememberRequestBody } from './sent-bodies.ts';
import { writeOptionsFrom } from './query-options.ts';
import { yamlDuplicateKeyError } from './yaml-strict.ts';

export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

/** What the endpoint decodes: built-ins also take protobuf (kubectl's typed clients send it); custom resources do not. */
export interface BodyTarget {
  apiVersion: string;
  kind: string;
  protobuf: boolean;
}

/** The body target of a write to `type` (its own kind; protobuf for built-ins). */
export const bodyTarget = (type: ResourceType): BodyTarget => ({ apiVersion: apiVersionOf(type.group, type.version), kind: type.kind, protobuf: !type.unstructured });

const contentTypesFor = (target: BodyTarget) =>
  target.protobuf ? ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'] : ['application/json', 'application/yaml'];

/** The protobuf decoder, loaded by readBody() for the first protobuf body instead of with kubefake. */
let protobuf: typeof ProtobufDecoder | undefined;

export async function readBody(request: Request): Promise<Uint8Array> {
  if (!protobuf && isKubernetesProtobuf(request.headers.get('content-type'))) protobuf = await import('./protobuf/decode.ts');
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_REQUEST_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw requestEntityTooLarge(`limit is ${MAX_REQUEST_BODY_BYTES}`);
    }
    chunks.push(value);
  }
  const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  rememberRequestBody(request, bytes); // for the request log's body()
  return bytes;
}

type Parsed = { ok: true; value: unknown; strictErrors: string[]; json?: string } | { ok: false; error: string; tooDeep?: boolean };

/**
 * JSON or YAML into a plain value, or the error the serializer's Decode returns: meta.go's
 * `couldn't get version/kind; json parse error: ...` for JSON, sigs.k8s.io/yaml YAMLToJSON's bare
 * `yaml: ...` for YAML (json.go Decode returns it unwrapped). A value nested deeper than
 * kubefake handles is `tooDeep`.
 *
 * With `strict`, also what the strict serializer finds on top of the lenient decode (json.go
 * unmarshal): go-yaml's duplicate-key error for YAML, `duplicate field "<path>"` per JSON key set twice.
 */
function parseBody(body: Uint8Array, format: 'json' | 'yaml', strict: boolean): Parsed {
  if (format === 'json') {
    const parsed = parseGoJson(body, { trackDuplicates: strict });
    if (!parsed.ok) return { ok: false, error: VERSION_KIND_ERROR_PREFIX + parsed.error };
    if (nestingDepth(parsed.value, MAX_OBJECT_DEPTH) > MAX_OBJECT_DEPTH) return { ok: false, error: '', tooDeep: true };
    return { ok: true, value: parsed.value, strictErrors: parsed.duplicates.map(goDuplicateFieldError), json: strict ? decodeGoUtf8(body) : undefined };
  }
  const text = Buffer.from(body).toString('utf8');
  // go-yaml's lenient decode keeps the last of duplicate keys; the strict pass reports them.
  const parsed = goYamlToJson(text);
  if (!parsed.ok) return parsed;
  const duplicates = strict ? yamlDuplicateKeyError(text) : undefined;
  return { ok: true, value: parsed.value, strictErrors: duplicates ? [duplicates] : [] };
}

/**
 * Decodes a body meant to be an object of the target kind. Missing Content-Type is JSON, as
 * kubectl relies on (`PUT .../scale` without one).
 */
export function decodeObjectBody(bytes: Uint8Array, contentType: string | undefined, target: BodyTarget): Record<string, unknown> {
  return decodeBody(bytes, contentType, target, false).object;
}

/**
 * decodeObjectBody for create and update bodies, with the strict decoding findings (duplicate
 * fields) that fieldValidation turns into a 400 (Strict) or warnings (Warn).
 */
export function decodeWriteBody(
  bytes: Uint8Array,
  contentType: string | undefined,
  target: BodyTarget,
): { object: Record<string, unknown>; strictErrors: string[]; json?: string } {
  return decodeBody(bytes, contentType, target, true);
}

/**
 * A create or update request read whole: its body decoded for `target` (strict findings kept for
 * fieldValidation) and the WriteOptions of its query, with the User-Agent field managers fall back to.
 */
export async function readWriteRequest(request: Request, query: URLSearchParams, target: BodyTarget): Promise<{ body: Record<string, unknown>; options: WriteOptions }> {
  const { object, strictErrors, json } = decodeWriteBody(await readBody(request), contentTypeEssence(request.headers.get('content-type')), target);
  return { body: object, options: { ...writeOptionsFrom(query), strictDecodeErrors: strictErrors, bodyJson: json, userAgent: request.headers.get('user-agent') ?? undefined, ...admissionContextOf(request) } };
}

function decodeBody(
  bytes: Uint8Array,
  contentType: string | undefined,
  target: BodyTarget,
  strict: boolean,
): { object: Record<string, unknown>; strictErrors: string[]; json?: string } {
  const expectedKind = target.kind;
  if (target.protobuf && contentType !== undefined && isKubernetesProtobuf(contentType)) {
    const object = decodeProtobufBody(bytes, target);
    if (nestingDepth(object, MAX_OBJECT_DEPTH) > MAX_OBJECT_DEPTH) throw nestedTooDeep(MAX_OBJECT_DEPTH);
    return { object, strictErrors: [] };
  }
  const format = contentType === undefined || contentType === 'application/json' ? 'json' : contentType === 'application/yaml' ? 'yaml' : undefined;
  if (!format) throw unsupportedMediaType(contentTypesFor(target));
  const parsed = parseBody(bytes, format, strict);
  const fail = (err: string) => badRequest(`the object provided is unrecognized (must be of type ${expectedKind}): ${err} (${summarizeGoData(bytes)})`);
  if (!parsed.ok) throw parsed.tooDeep ? nestedTooDeep(MAX_OBJECT_DEPTH) : fail(parsed.error);
  const value = parsed.value ?? {};
  const typeError = goJsonTypeError(value);
  if (typeError) throw fail(VERSION_KIND_ERROR_PREFIX + typeError);
  return { object: value as Record<string, unknown>, strictErrors: parsed.strictErrors, json: parsed.json };
}

function decodeProtobufBody(bytes: Uint8Array, target: BodyTarget): Record<string, unknown> {
  if (!protobuf) throw new Error('kubefake internal error: a protobuf body decoded without readBody()');
  try {
    return protobuf.decodeKubernetesProtobuf(bytes, { apiVersion: target.apiVersion, kind: target.kind }).object;
  } catch (err) {
    if (!(err instanceof protobuf.ProtobufDecodeError)) throw err;
    // A kind kubefake has no protobuf schema for is one it cannot read in that format.
    if (err.reason === 'unknownKind') throw unsupportedMediaType(contentTypesFor({ ...target, protobuf: false }));
    throw badRequest(`the object provided is unrecognized (must be of type ${target.kind}): ${err.message} (${summarizeGoData(bytes)})`);
  }
}
