// Reading and decoding request bodies: the 3 MiB limit, JSON or YAML, and the 400 texts of
// transformDecodeError (apiserver/pkg/endpoints/handlers/rest.go).
import { load, YAML11_SCHEMA, type YAMLException } from 'js-yaml';
import { badRequest, requestEntityTooLarge, unsupportedMediaType } from '../errors/status-error.ts';
import { goJsonTypeError, parseGoJson, summarizeGoData } from './go-json.ts';
import { decodeKubernetesProtobuf, isKubernetesProtobuf, ProtobufDecodeError } from './protobuf/decode.ts';

export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

/** What the endpoint decodes: built-ins also take protobuf (kubectl's typed clients send it); custom resources do not. */
export interface BodyTarget {
  apiVersion: string;
  kind: string;
  protobuf: boolean;
}

const contentTypesFor = (target: BodyTarget) =>
  target.protobuf ? ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'] : ['application/json', 'application/yaml'];

export async function readBody(request: Request): Promise<Uint8Array> {
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
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

/** Parses JSON or YAML into a plain value, or returns the decoder's error text. */
export function parseStructured(body: Uint8Array, format: 'json' | 'yaml'): { ok: true; value: unknown } | { ok: false; error: string } {
  if (format === 'json') {
    const parsed = parseGoJson(body);
    return parsed.ok ? { ok: true, value: parsed.value } : { ok: false, error: parsed.error };
  }
  try {
    return { ok: true, value: load(Buffer.from(body).toString('utf8'), { schema: YAML11_SCHEMA }) };
  } catch (err) {
    return { ok: false, error: `error converting YAML to JSON: yaml: ${(err as YAMLException).reason ?? (err as Error).message}` };
  }
}

/**
 * Decodes a body meant to be an object of the target kind. Missing Content-Type is JSON, as
 * kubectl relies on (`PUT .../scale` without one).
 */
export function decodeObjectBody(bytes: Uint8Array, contentType: string | undefined, target: BodyTarget): Record<string, unknown> {
  const expectedKind = target.kind;
  if (target.protobuf && contentType !== undefined && isKubernetesProtobuf(contentType)) return decodeProtobufBody(bytes, target);
  const format = contentType === undefined || contentType === 'application/json' ? 'json' : contentType === 'application/yaml' ? 'yaml' : undefined;
  if (!format) throw unsupportedMediaType(contentTypesFor(target));
  const parsed = parseStructured(bytes, format);
  const fail = (err: string) => badRequest(`the object provided is unrecognized (must be of type ${expectedKind}): couldn't get version/kind; json parse error: ${err} (${summarizeGoData(bytes)})`);
  if (!parsed.ok) throw fail(parsed.error);
  const value = parsed.value ?? {};
  const typeError = goJsonTypeError(value);
  if (typeError) throw fail(typeError);
  return value as Record<string, unknown>;
}

function decodeProtobufBody(bytes: Uint8Array, target: BodyTarget): Record<string, unknown> {
  try {
    return decodeKubernetesProtobuf(bytes, { apiVersion: target.apiVersion, kind: target.kind }).object;
  } catch (err) {
    if (!(err instanceof ProtobufDecodeError)) throw err;
    // A kind kubefake has no protobuf schema for is one it cannot read in that format.
    if (err.reason === 'unknownKind') throw unsupportedMediaType(contentTypesFor({ ...target, protobuf: false }));
    throw badRequest(`the object provided is unrecognized (must be of type ${target.kind}): ${err.message} (${summarizeGoData(bytes)})`);
  }
}
