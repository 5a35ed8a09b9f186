// The body of an `application/apply-patch+yaml` PATCH (YAML or JSON), decoded as patch.go's
// applyPatcher does: sigs.k8s.io/yaml into a map (duplicate keys: the last one wins), and with
// fieldValidation Strict or Warn a second, strict decode whose duplicate-key error is the 400
// `error strict decoding YAML: ...` (Strict) or a warning (Warn).
import { load, YAML11_SCHEMA, type YAMLException } from 'js-yaml';
import { badRequest, nestedTooDeep } from '../errors/status-error.ts';
import { goYamlToJson } from '../go/yaml.ts';
import { MAX_OBJECT_DEPTH } from '../util/nesting-depth.ts';
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

export function decodeApplyPatch(body: Uint8Array, options: { force?: boolean; fieldValidation: FieldValidation }): ApplyPatch {
  const text = Buffer.from(body).toString('utf8');
  // JSON is YAML too: both go through sigs.k8s.io/yaml's Unmarshal, alias limits included.
  const decoded = goYamlToJson(text);
  if (!decoded.ok) throw decoded.tooDeep ? nestedTooDeep(MAX_OBJECT_DEPTH) : badRequest(`error decoding YAML: error converting YAML to JSON: ${decoded.error}`);
  let value = decoded.value;
  if (value === undefined || value === null) value = {};
  if (!isMap(value)) {
    const kind = Array.isArray(value) ? 'array' : typeof value === 'boolean' ? 'bool' : typeof value;
    throw badRequest(`error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`);
  }
  const patch: ApplyPatch = { kind: 'apply', config: value, force: options.force ?? false, fieldValidation: options.fieldValidation };
  if (options.fieldValidation !== 'Ignore') {
    try {
      // Bounded like the decode above (it already passed the alias check); only duplicate keys matter here.
      load(text, { schema: YAML11_SCHEMA, maxDepth: MAX_OBJECT_DEPTH, maxTotalMergeKeys: -1 });
    } catch (err) {
      const e = err as YAMLException;
      if (!/duplicated mapping key/.test(e.reason ?? '')) return patch;
      const line = (e.mark?.line ?? 0) + 1;
      const key = duplicateKeyAt(text, e.mark?.position);
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
