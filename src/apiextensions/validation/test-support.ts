// Shared by the tests: a valid v1 CRD to vary, defaulted the way the registry defaults it, and
// rendered messages to compare with the real server's texts.
import { defaultCustomResourceDefinition } from '../../apis/builtin/apiextensions-v1.ts';
import type { KubeObject } from '../../apis/object.ts';
import { fieldErrorMessage, type FieldError } from '../../errors/field-error.ts';

export type Json = Record<string, unknown>;

/** A valid single-version CRD (crontabs.stable.example.com) with `schema` as its openAPIV3Schema. */
export function crontab(schema: Json = { type: 'object' }, edit?: (spec: Json, crd: KubeObject) => void): KubeObject {
  const crd: KubeObject = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'crontabs.stable.example.com' },
    spec: {
      group: 'stable.example.com',
      scope: 'Namespaced',
      names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', shortNames: ['ct'] },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }],
    },
  };
  edit?.(crd.spec as Json, crd);
  return defaulted(crd);
}

/** Registry defaulting plus the stored version the create strategy records. */
export function defaulted(crd: KubeObject): KubeObject {
  const out = structuredClone(crd);
  if (out.status === undefined) out.status = {};
  defaultCustomResourceDefinition(out);
  return out;
}

export const messages = (errs: FieldError[]): string[] => errs.map(fieldErrorMessage);
