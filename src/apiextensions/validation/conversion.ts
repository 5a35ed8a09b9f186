// validateCustomResourceConversion and validateConversionReviewVersions (validation.go).
import { fieldError, fieldPath, type FieldError } from '../../errors/field-error.ts';
import { isDNS1035Label } from '../../validation/names.ts';
import { validateEnumStrings } from './enum-strings.ts';
import type { Conversion } from './internal-types.ts';
import { validateCABundle, validateWebhookService, validateWebhookURL } from '../../validation/webhook-client-config.ts';

/** ConversionReview versions the previous server release understands (sorted, as sets.List gives them). */
const ACCEPTED_REVIEW_VERSIONS = ['v1', 'v1beta1'];

/** hasValidConversionReviewVersionOrEmpty: the update ratchet for requireRecognizedConversionReviewVersion. */
export function hasValidConversionReviewVersionOrEmpty(versions: string[] | undefined): boolean {
  if (versions === undefined || versions.length < 1) return true;
  return versions.some((v) => ACCEPTED_REVIEW_VERSIONS.includes(v));
}

function validateConversionReviewVersions(versions: string[] | undefined, requireRecognized: boolean, path: string): FieldError[] {
  if (versions === undefined || versions.length < 1) return [fieldError.required(path, '')];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let hasAccepted = false;
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(fieldError.invalid(fieldPath.index(path, i), v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const e of isDNS1035Label(v)) errs.push(fieldError.invalid(fieldPath.index(path, i), v, e));
    if (ACCEPTED_REVIEW_VERSIONS.includes(v)) hasAccepted = true;
  });
  if (requireRecognized && !hasAccepted) {
    errs.push(fieldError.invalid(path, versions, `must include at least one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`));
  }
  return errs;
}

/**
 * Paths are the internal ones: `spec.conversion.webhookClientConfig` and
 * `spec.conversion.conversionReviewVersions`, which is what the real server reports for v1 too.
 */
export function validateConversion(conversion: Conversion | undefined, requireRecognized: boolean, allowInvalidCABundle: boolean, path: string): FieldError[] {
  if (conversion === undefined) return [];
  const errs = validateEnumStrings(fieldPath.child(path, 'strategy'), conversion.strategy, ['None', 'Webhook'], true);
  const ccPath = fieldPath.child(path, 'webhookClientConfig');
  if (conversion.strategy === 'Webhook') {
    const cc = conversion.webhookClientConfig;
    if (cc === undefined) errs.push(fieldError.required(ccPath, 'required when strategy is set to Webhook'));
    else {
      if ((cc.url === undefined) === (cc.service === undefined)) errs.push(fieldError.required(ccPath, 'exactly one of url or service is required'));
      else if (cc.url !== undefined) errs.push(...validateWebhookURL(fieldPath.child(ccPath, 'url'), cc.url, true));
      else if (cc.service !== undefined) {
        const s = cc.service;
        errs.push(...validateWebhookService(fieldPath.child(ccPath, 'service'), s.namespace, s.name, s.path, s.port));
      }
      if (cc.caBundle.length > 0 && !allowInvalidCABundle) errs.push(...validateCABundle(fieldPath.child(ccPath, 'caBundle'), cc.caBundle));
    }
    errs.push(...validateConversionReviewVersions(conversion.conversionReviewVersions, requireRecognized, fieldPath.child(path, 'conversionReviewVersions')));
  } else {
    if (conversion.webhookClientConfig !== undefined) errs.push(fieldError.forbidden(ccPath, 'should not be set when strategy is not set to Webhook'));
    if ((conversion.conversionReviewVersions?.length ?? 0) > 0) {
      errs.push(fieldError.forbidden(fieldPath.child(path, 'conversionReviewVersions'), 'should not be set when strategy is not set to Webhook'));
    }
  }
  return errs;
}
