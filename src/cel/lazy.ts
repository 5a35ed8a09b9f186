// CEL on first use. The engine and kubefake's CEL library are ~50 modules, a large share of what
// importing kubefake cost; they are needed only once a CRD carries x-kubernetes-validations. The
// CRD validator and the custom resource strategy call into CEL synchronously, so the registry
// awaits loadCelFor() before validating a write (the one asynchronous point before them); a
// custom resource type with rules is built only from a CRD that was validated (and so loaded CEL)
// in this process. This module imports nothing of CEL itself.
import type { CelCompiler, CelSchemaSession } from '../apiextensions/validation/cel-hook.ts';
import type { KubeObject } from '../apis/object.ts';
import type { ResourceType } from '../apis/resource-type.ts';
import type { CompiledSchema } from '../schema/schema-node.ts';
import type { CustomResourceCel } from './custom-resource.ts';

interface CelModules {
  customResourceCel: (compiled: CompiledSchema) => CustomResourceCel | undefined;
  crdCelCompiler: CelCompiler;
}

let modules: CelModules | undefined;
let loading: Promise<CelModules> | undefined;

/** Whether a value (a CRD spec, a schema) holds CEL rules anywhere. */
function mentionsCelRules(value: unknown): boolean {
  return JSON.stringify(value ?? null).includes('"x-kubernetes-validations"');
}

function loadCel(): Promise<CelModules> {
  // One import after the other: two concurrent import()s sharing modules break Jest's ESM runtime
  // ("request for … is from a module not been linked", jestjs/jest#11434).
  return (loading ??= (async () => {
    const { customResourceCel } = await import('./custom-resource.ts');
    const { crdCelCompiler } = await import('./crd-compiler.ts');
    return (modules = { customResourceCel, crdCelCompiler });
  })());
}

type AdmissionPolicyCel = typeof import('./admission-policy/compiler.ts');
let admissionPolicyCel: AdmissionPolicyCel | undefined;
const ADMISSION_POLICY_KINDS = new Set(['ValidatingAdmissionPolicy', 'MutatingAdmissionPolicy']);

/** The admission-policy compiler, once loadCelFor() loaded it for a policy write. */
export function loadedAdmissionPolicyCel(): AdmissionPolicyCel {
  if (!admissionPolicyCel) throw new Error('kubefake internal error: an admission policy reached validation before the CEL engine was loaded');
  return admissionPolicyCel;
}

/** Loads CEL before a write of `obj` is validated, when the write is a CRD carrying rules or an admission policy. */
export async function loadCelFor(type: ResourceType, obj: KubeObject): Promise<void> {
  if (!admissionPolicyCel && type.group === 'admissionregistration.k8s.io' && ADMISSION_POLICY_KINDS.has(type.kind)) {
    admissionPolicyCel = await import('./admission-policy/compiler.ts');
    return;
  }
  if (modules || type.group !== 'apiextensions.k8s.io' || type.kind !== 'CustomResourceDefinition') return;
  if (mentionsCelRules(obj.spec)) await loadCel();
}

function loaded(): CelModules {
  if (!modules) throw new Error('kubefake internal error: CEL rules reached before the CEL engine was loaded');
  return modules;
}

/** What the CEL compiler answers for a schema without rules: nothing to compile, no cost. */
const NO_RULES: CelSchemaSession = { compileNode: () => [], finish: () => [] };

/** The CRD validator's CEL compiler, loaded on first use. */
export const lazyCrdCelCompiler: CelCompiler = {
  forSchema: (schemaPath, root) => (modules || mentionsCelRules(root) ? loaded().crdCelCompiler.forSchema(schemaPath, root) : NO_RULES),
};

/** The CEL step of a custom resource strategy; undefined (no CEL loaded) for a schema without rules. */
export function lazyCustomResourceCel(compiled: CompiledSchema): CustomResourceCel | undefined {
  return modules || mentionsCelRules(compiled.root.raw) ? loaded().customResourceCel(compiled) : undefined;
}
