// metav1.LabelSelector as validation sees it: unversionedvalidation.ValidateLabelSelector (strict
// label values) and the encoding/json text a field error prints the selector as. Shared by every
// kind with a selector (workloads, PDBs, PVCs, network policies, webhooks, pod affinity).
import { fieldError, type FieldError } from '../../errors/field-error.ts';
import { validateLabelName, validateLabels } from '../../validation/meta-fields.ts';
import { isValidLabelValue } from '../../validation/names.ts';
import { asObject } from './shared.ts';

/** A metav1.LabelSelector as encoding/json writes the struct (field order, omitempty). */
export function labelSelectorJson(selector: unknown): string {
  const s = asObject(selector);
  if (!s) return 'null';
  const parts: string[] = [];
  const labels = asObject(s.matchLabels);
  if (labels && Object.keys(labels).length) parts.push(`"matchLabels":${JSON.stringify(Object.fromEntries(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : 1))))}`);
  const exprs = Array.isArray(s.matchExpressions) ? s.matchExpressions : [];
  if (exprs.length) {
    const items = exprs.map((e) => {
      const r = asObject(e) ?? {};
      const values = Array.isArray(r.values) && r.values.length ? `,"values":${JSON.stringify(r.values)}` : '';
      return `{"key":${JSON.stringify(r.key ?? '')},"operator":${JSON.stringify(r.operator ?? '')}${values}}`;
    });
    parts.push(`"matchExpressions":[${items.join(',')}]`);
  }
  return `{${parts.join(',')}}`;
}

/** unversionedvalidation.ValidateLabelSelector (label values must be valid). */
export function validateLabelSelector(selector: unknown, path: string): FieldError[] {
  const s = asObject(selector);
  if (!s) return [];
  const errs: FieldError[] = [];
  const labels = asObject(s.matchLabels);
  if (labels) errs.push(...validateLabels(labels as Record<string, string>, `${path}.matchLabels`));
  const exprs = Array.isArray(s.matchExpressions) ? s.matchExpressions : [];
  exprs.forEach((e, i) => {
    const r = asObject(e) ?? {};
    const idx = `${path}.matchExpressions[${i}]`;
    const values = Array.isArray(r.values) ? (r.values as unknown[]).map(String) : [];
    switch (r.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) errs.push(fieldError.required(`${idx}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) errs.push(fieldError.forbidden(`${idx}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        break;
      default:
        errs.push(fieldError.invalid(`${idx}.operator`, r.operator ?? '', 'not a valid selector operator'));
    }
    errs.push(...validateLabelName(typeof r.key === 'string' ? r.key : '', `${idx}.key`));
    values.forEach((v, j) => errs.push(...isValidLabelValue(v).map((msg) => fieldError.invalid(`${idx}.values[${j}]`, v, msg))));
  });
  return errs;
}

