// Reading a webhook's answer: client-go's Result.Into an AdmissionReview of the version sent
// (the webhook client's scheme knows admission.k8s.io v1 and v1beta1), then
// request/admissionreview.go VerifyAdmissionResponse. Errors are Go's texts.
import { isPlainObject, parseApiVersion } from '../../apis/object.ts';
import { replyFailure } from '../../apiextensions/conversion/conversion-review.ts';
import { decodeGoBase64 } from '../../go/base64.ts';
import { goJsonTypeError, goJsonValueKind, parseGoJson, VERSION_KIND_ERROR_PREFIX } from '../../go/json.ts';
import { goQuote } from '../../errors/go-format.ts';
import type { Status } from '../../errors/status-error.ts';
import type { WebhookReply } from '../../webhooks/types.ts';
import type { ReviewVersion } from './request.ts';

const GROUP = 'admission.k8s.io';
const SCHEME = 'k8s.io/apiserver/pkg/util/webhook/client.go:71';

export interface AdmissionResponse {
  allowed: boolean;
  /** The decoded JSON patch bytes; undefined without one. */
  patch: Uint8Array | undefined;
  patchType: string;
  result: Partial<Status> | undefined;
  warnings: string[];
  auditAnnotations: Record<string, string>;
}

/** A failure of the call itself (`failed to call webhook: …`): what came back was no review. */
export class CallFailure extends Error {}

/** Result.Into: the review object, or a CallFailure with Go's text. */
export function decodeReview(reply: WebhookReply, version: ReviewVersion): Record<string, unknown> {
  const failure = replyFailure(reply);
  if (failure !== undefined) throw new CallFailure(failure);
  const decoded = parseGoJson(reply.body);
  if (!decoded.ok) throw new CallFailure(`${VERSION_KIND_ERROR_PREFIX}${decoded.error}`);
  const typeError = goJsonTypeError(decoded.value);
  if (typeError) throw new CallFailure(`${VERSION_KIND_ERROR_PREFIX}${typeError}`);
  const parsed = (decoded.value ?? {}) as Record<string, unknown>;
  const rawApiVersion = typeof parsed.apiVersion === 'string' ? parsed.apiVersion : '';
  const rawKind = typeof parsed.kind === 'string' ? parsed.kind : '';
  const gv = rawApiVersion ? parseApiVersion(rawApiVersion) : { group: GROUP, version };
  const kind = rawKind || 'AdmissionReview';
  if (gv.group === '' && gv.version === 'v1' && kind === 'Status') {
    if (parsed.status !== 'Success') throw new CallFailure(typeof parsed.message === 'string' ? parsed.message : '');
  } else if (gv.group === GROUP && (gv.version === 'v1' || gv.version === 'v1beta1') && kind === 'AdmissionReview') {
    if (gv.version !== version) throw new CallFailure(`converting (${gv.version}.AdmissionReview) to (${version}.AdmissionReview): unknown conversion`);
  } else {
    throw new CallFailure(`no kind ${goQuote(kind)} is registered for version ${goQuote(gv.group ? `${gv.group}/${gv.version}` : gv.version)} in scheme ${goQuote(SCHEME)}`);
  }
  const response = parsed.response;
  if (response !== undefined && response !== null && !isPlainObject(response)) {
    throw new CallFailure(`json: cannot unmarshal ${goJsonValueKind(response)} into Go struct field AdmissionReview.response of type ${version}.AdmissionResponse`);
  }
  return parsed;
}

/** encoding/json's []byte: base64.StdEncoding, failing with its text. */
function decodeBase64(text: string): Uint8Array {
  const decoded = decodeGoBase64(text);
  if (!decoded.ok) throw new CallFailure(decoded.error);
  return decoded.bytes;
}

const stringList = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

/** VerifyAdmissionResponse; an Error's message is the reason (`received invalid webhook response: <reason>`). */
export function verifyAdmissionResponse(review: Record<string, unknown>, version: ReviewVersion, uid: string, mutating: boolean): AdmissionResponse {
  const r = review.response;
  if (!isPlainObject(r)) throw new Error('webhook response was absent');
  const patchText = typeof r.patch === 'string' ? r.patch : '';
  const patch = patchText ? decodeBase64(patchText) : undefined;
  const hasPatchType = r.patchType !== undefined && r.patchType !== null;
  const patchTypeText = typeof r.patchType === 'string' ? r.patchType : '';
  let patchType = '';
  if (version === 'v1') {
    const responseUid = typeof r.uid === 'string' ? r.uid : '';
    if (responseUid !== uid) throw new Error(`expected response.uid=${goQuote(uid)}, got ${goQuote(responseUid)}`);
    const got = parseApiVersion(typeof review.apiVersion === 'string' ? review.apiVersion : '');
    const kind = typeof review.kind === 'string' ? review.kind : '';
    if (review.apiVersion !== `${GROUP}/v1` || kind !== 'AdmissionReview') {
      throw new Error(`expected webhook response of ${GROUP}/v1, Kind=AdmissionReview, got ${got.group}/${got.version}, Kind=${kind}`);
    }
    if (mutating) {
      if (patch?.length && !hasPatchType) throw new Error('webhook returned response.patch but not response.patchType');
      if (!patch?.length && hasPatchType) throw new Error('webhook returned response.patchType but not response.patch');
      if (hasPatchType) {
        patchType = patchTypeText;
        if (patchType.length === 0) throw new Error(`webhook returned invalid response.patchType of ${goQuote(patchType)}`);
      }
    } else {
      if (patch?.length) throw new Error('validating webhook may not return response.patch');
      if (hasPatchType) throw new Error('validating webhook may not return response.patchType');
    }
  } else if (mutating && patch?.length) {
    // v1beta1 has no patchType check: a patch is a JSON patch.
    patchType = 'JSONPatch';
  }
  const auditAnnotations: Record<string, string> = {};
  if (isPlainObject(r.auditAnnotations)) for (const [k, v] of Object.entries(r.auditAnnotations)) if (typeof v === 'string') auditAnnotations[k] = v;
  return {
    allowed: r.allowed === true,
    patch: mutating ? patch : undefined,
    patchType,
    result: isPlainObject(r.status) ? (r.status as Partial<Status>) : undefined,
    warnings: stringList(r.warnings),
    auditAnnotations,
  };
}
