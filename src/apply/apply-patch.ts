// The body of an `application/apply-patch+yaml` PATCH (YAML or JSON), decoded as patch.go's
// applyPatcher does: sigs.k8s.io/yaml into a map (duplicate keys: the last one wins), and with
// fieldValidation Strict or Warn a second, strict decode whose duplicate-key error is the 400
// `error strict decoding YAML: ...` (Strict) or a warning (Warn).
import { load, YAML11_SCHEMA, type YAMLException } from 'js-yaml';
import { badRequest } from '../errors/status-error.ts';
import type { FieldValidation } from '../apis/options.ts';
import { isMap } from './value.ts';

export const APPLY_PATCH_CONTENT_TYPE = 'application/apply-patch+yaml';

/** A server-side apply request, as the registry's patch takes it. */
export interface ApplyPatch {
  kind: 'apply';
  /** The applied configuration. */
  config: Record<string, unknown>;
  force: boolean;
  /** The strict decoder's finding (duplicate keys), reported after the apply itself succeeded. */
  strictError?: string;
  fieldValidation: FieldValidation;
}

export const isApplyPatch = (p: unknown): p is ApplyPatch => isMap(p) && p.kind === 'apply' && isMap(p.config);

/** applyPatcher under fieldValidation=Warn: the strict decoder's finding on the body is a warning. */
export function applyStrictWarnings(patch: ApplyPatch): string[] {
  return patch.strictError !== undefined && patch.fieldValidation === 'Warn' ? [patch.strictError] : [];
}

const yamlReason = (err: unknown) => (err as YAMLException).reason ?? (err as Error).message;

export function decodeApplyPatch(body: Uint8Array, options: { force?: boolean; fieldValidation: FieldValidation }): ApplyPatch {
  const text = Buffer.from(body).toString('utf8');
  let value: unknown;
  try {
    value = load(text, { schema: YAML11_SCHEMA, json: true });
  } catch (err) {
    throw badRequest(`error decoding YAML: error converting YAML to JSON: yaml: ${yamlReason(err)}`);
  }
  if (value === undefined || value === null) value = {};
  if (!isMap(value)) {
    const kind = Array.isArray(value) ? 'array' : typeof value === 'boolean' ? 'bool' : typeof value;
    throw badRequest(`error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`);
  }
  const patch: ApplyPatch = { kind: 'apply', config: value, force: options.force ?? false, fieldValidation: options.fieldValidation };
  if (options.fieldValidation !== 'Ignore') {
    try {
      load(text, { schema: YAML11_SCHEMA });
    } catch (err) {
      const e = err as YAMLException;
      const line = (e.mark?.line ?? 0) + 1;
      const key = /duplicated mapping key/.test(e.reason ?? '') ? duplicateKeyAt(text, e.mark?.position) : undefined;
      patch.strictError = `error converting YAML to JSON: yaml: unmarshal errors:\n  line ${line}: key ${JSON.stringify(key ?? '')} already set in map`;
    }
  }
  return patch;
}

/** The key js-yaml stopped at (its error names no key). */
function duplicateKeyAt(text: string, position: number | undefined): string | undefined {
  if (position === undefined) return undefined;
  const m = /^\s*["']?([^"':\n]+)["']?\s*:/.exec(text.slice(text.lastIndexOf('\n', position - 1) + 1));
  return m?.[1]?.trim();
}
