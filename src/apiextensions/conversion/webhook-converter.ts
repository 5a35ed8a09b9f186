// Webhook conversion (apiextensions-apiserver pkg/apiserver/conversion/webhook_converter.go): the
// objects not yet at the desired version go to the webhook in one ConversionReview; each answer is
// checked (count, order, apiVersion, kind, name/namespace/uid unchanged) and gets the original
// metadata back with only the webhook's labels and annotations kept. Which texts a problem is
// reported with follows the request, not the object count: a list (LIST, deletecollection) gets the
// list texts (`invalid converted object at index N`) even for one item, as Go picks them for an
// UnstructuredList; a single object (get, writes, watch events) gets the single-object texts.
import { isPlainObject, parseApiVersion, type KubeObject } from '../../apis/object.ts';
import { aggregateMessages, fieldErrorMessage } from '../../errors/field-error.ts';
import type { ConversionEnv } from '../../apis/storage-codec.ts';
import { validateAnnotations, validateLabels } from '../../validation/meta-fields.ts';
import { WebhookTransportError, type WebhookClientConfig } from '../../webhooks/types.ts';
import { goDynamicTypeName } from '../../patch/go-value.ts';
import { conversionReview, convertedObjectsFromReply, reviewVersionOf } from './conversion-review.ts';
import { ConversionError, gvkString } from './conversion-error.ts';

export interface WebhookConversion {
  clientConfig: WebhookClientConfig;
  conversionReviewVersions: string[];
}

/** Unstructured.UnmarshalJSON of one converted object; `Object 'Kind' is missing` and the like. */
function decodeConverted(raw: unknown): KubeObject {
  if (!isPlainObject(raw)) throw new ConversionError(`json: cannot unmarshal ${Array.isArray(raw) ? 'array' : raw === null ? 'null' : typeof raw} into Go value of type map[string]interface {}`);
  if (typeof raw.kind !== 'string' || raw.kind === '') throw new ConversionError(`Object 'Kind' is missing in '${JSON.stringify(raw)}'`);
  return raw as KubeObject;
}

/** validateConvertedObject: everything of ObjectMeta but labels and annotations is the server's. */
function identityError(original: KubeObject, converted: KubeObject): string | undefined {
  const pairs: Array<[string, unknown, unknown]> = [
    ['kind', original.kind, converted.kind],
    ['name', original.metadata?.name, (converted.metadata as Record<string, unknown> | undefined)?.name],
    ['namespace', original.metadata?.namespace, (converted.metadata as Record<string, unknown> | undefined)?.namespace],
    ['UID', original.metadata?.uid, (converted.metadata as Record<string, unknown> | undefined)?.uid],
  ];
  for (const [what, e, a] of pairs) {
    const expected = typeof e === 'string' ? e : '';
    const actual = typeof a === 'string' ? a : '';
    if (expected !== actual) return `must have the same ${what}: ${expected} != ${actual}`;
  }
  return undefined;
}

/** restoreObjectMeta: the original metadata, with the webhook's labels and annotations (validated when changed). */
function restoreObjectMeta(original: KubeObject, converted: KubeObject): string | undefined {
  if (!Object.hasOwn(converted, 'metadata')) return 'missing metadata in converted object';
  const response = (converted as Record<string, unknown>).metadata;
  if (!isPlainObject(response)) return `invalid metadata of type ${goDynamicTypeName(response)} in converted object`;
  const restored: Record<string, unknown> = structuredClone(original.metadata ?? {}) as Record<string, unknown>;
  for (const field of ['labels', 'annotations'] as const) {
    const value = response[field];
    if (value === undefined || value === null) {
      delete restored[field];
      continue;
    }
    if (!isPlainObject(value)) return `invalid metadata.${field} of type ${goDynamicTypeName(value)} in converted object`;
    const before = isPlainObject(restored[field]) ? (restored[field] as Record<string, unknown>) : {};
    let changed = Object.keys(before).length !== Object.keys(value).length;
    for (const [k, v] of Object.entries(value)) {
      if (typeof v !== 'string') return `metadata.${field}[${k}] must be a string, but is ${goDynamicTypeName(v)} in converted object`;
      if (before[k] !== v) changed = true;
    }
    if (changed) {
      const strings = value as Record<string, string>;
      const errs = field === 'labels' ? validateLabels(strings, 'metadata.labels') : validateAnnotations(strings, 'metadata.annotation');
      if (errs.length) return aggregateMessages(errs.map(fieldErrorMessage));
    }
    restored[field] = value;
  }
  (converted as Record<string, unknown>).metadata = restored;
  return undefined;
}

/**
 * Converts `objects` (none of them at `toApiVersion` yet) through the webhook; answers the
 * converted objects in the same order. `isList`: they are (part of) a list, so failures use the
 * list texts. Throws ConversionErrors with the apiserver's texts.
 */
export async function convertViaWebhook(objects: readonly KubeObject[], toApiVersion: string, webhook: WebhookConversion, env: ConversionEnv, isList: boolean): Promise<KubeObject[]> {
  const gvk = gvkString(objects[0]!);
  const single = !isList;
  const reviewVersion = (() => {
    try {
      return reviewVersionOf(webhook.conversionReviewVersions);
    } catch (err) {
      throw new ConversionError((err as Error).message);
    }
  })();
  const uid = env.random.uid();
  const review = conversionReview(reviewVersion, uid, toApiVersion, objects as unknown[]);
  let converted: unknown[];
  try {
    if (!env.webhooks) throw new WebhookTransportError('no webhook transport in this cluster');
    const reply = await env.webhooks.post(webhook.clientConfig, review);
    converted = convertedObjectsFromReply(reply, reviewVersion, uid);
  } catch (err) {
    throw new ConversionError(`conversion webhook for ${gvk} failed: ${(err as Error).message}`);
  }
  if (converted.length !== objects.length) throw new ConversionError(`conversion webhook for ${gvk} returned ${converted.length} objects, expected ${objects.length}`);
  const want = parseApiVersion(toApiVersion);
  return objects.map((original, i) => {
    const at = single ? 'invalid object at index 0' : `invalid converted object at index ${i}`;
    let obj: KubeObject;
    try {
      obj = decodeConverted(converted[i]);
    } catch (err) {
      throw new ConversionError(single ? (err as Error).message : `conversion webhook for ${gvk} returned ${at}: ${(err as Error).message}`);
    }
    const got = parseApiVersion(typeof obj.apiVersion === 'string' ? obj.apiVersion : '');
    if (got.group !== want.group || got.version !== want.version) {
      throw new ConversionError(`conversion webhook for ${gvk} returned ${at}: invalid groupVersion (expected ${toApiVersion}, received ${got.group ? `${got.group}/${got.version}` : got.version})`);
    }
    if (obj.kind !== original.kind) throw new ConversionError(`conversion webhook for ${gvk} returned ${at}: invalid kind (expected ${original.kind}, received ${obj.kind})`);
    const identity = identityError(original, obj);
    if (identity) throw new ConversionError(`conversion webhook for ${gvk} returned ${single ? 'invalid object' : at}: ${identity}`);
    const metaError = restoreObjectMeta(original, obj);
    if (metaError) throw new ConversionError(`conversion webhook for ${gvk} returned ${single ? 'invalid metadata' : `invalid metadata in object at index ${i}`}: ${metaError}`);
    return obj;
  });
}
