// The CR converter of a CRD (apiextensions-apiserver conversion/converter.go crConverter): both
// versions must be versions of the CRD, then its strategy converts. `None` only rewrites
// apiVersion (nop_converter.go) and is synchronous; `Webhook` sends the objects not yet at the
// desired version to the webhook.
import { isPlainObject, type KubeObject } from '../../apis/object.ts';
import type { ConversionEnv } from '../../apis/storage-codec.ts';
import { ConversionError } from './conversion-error.ts';
import { convertViaWebhook, type WebhookConversion } from './webhook-converter.ts';

export interface CustomResourceConverter {
  /**
   * Converts every object to `toVersion` of the CRD's group, in order. The objects are the
   * caller's to change (None converts them in place). Synchronous unless a webhook is called.
   * `isList`: the objects are the items of a list (all of them, so indexes are list indexes) and
   * failures are reported with the list texts; otherwise `objs` holds the one object converted.
   */
  convert(objs: KubeObject[], toVersion: string, env: ConversionEnv, isList: boolean): KubeObject[] | Promise<KubeObject[]>;
}

interface CrdConversionSpec {
  group?: string;
  versions?: Array<{ name?: string }>;
  conversion?: { strategy?: string; webhook?: { clientConfig?: Record<string, unknown>; conversionReviewVersions?: string[] } };
}

function webhookConversionOf(spec: CrdConversionSpec): WebhookConversion {
  const webhook = spec.conversion?.webhook ?? {};
  const cc = isPlainObject(webhook.clientConfig) ? webhook.clientConfig : {};
  const service = isPlainObject(cc.service) ? (cc.service as NonNullable<WebhookConversion['clientConfig']['service']>) : undefined;
  const clientConfig: WebhookConversion['clientConfig'] = {};
  if (typeof cc.url === 'string') clientConfig.url = cc.url;
  if (service) clientConfig.service = { ...service, port: service.port ?? 443 };
  if (typeof cc.caBundle === 'string') clientConfig.caBundle = cc.caBundle;
  return { clientConfig, conversionReviewVersions: webhook.conversionReviewVersions ?? [] };
}

export function customResourceConverter(crdSpec: unknown): CustomResourceConverter {
  const spec = (isPlainObject(crdSpec) ? crdSpec : {}) as CrdConversionSpec;
  const group = spec.group ?? '';
  const valid = new Set((spec.versions ?? []).map((v) => `${group}/${v.name ?? ''}`));
  const webhook = spec.conversion?.strategy === 'Webhook' ? webhookConversionOf(spec) : undefined;
  return {
    convert(objs, toVersion, env, isList) {
      const desired = `${group}/${toVersion}`;
      if (!valid.has(desired)) throw new ConversionError(`request to convert CR to an invalid group/version: ${desired}`);
      objs.forEach((obj, i) => {
        const from = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
        if (valid.has(from)) return;
        throw new ConversionError(!isList ? `request to convert CR from an invalid group/version: ${from}` : `request to convert CR list failed, list index ${i} has invalid group/version: ${from}`);
      });
      const pending = objs.filter((o) => o.apiVersion !== desired);
      if (pending.length === 0) return objs;
      if (!webhook) {
        for (const obj of pending) obj.apiVersion = desired;
        return objs;
      }
      return convertViaWebhook(pending, desired, webhook, env, isList).then((converted) => {
        let next = 0;
        return objs.map((o) => (o.apiVersion === desired ? o : converted[next++]!));
      });
    },
  };
}
