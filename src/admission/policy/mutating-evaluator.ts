// A MutatingAdmissionPolicy compiled (mutating/compilation.go) and its mutations applied
// (mutating/patch/json_patch.go and smd.go) on the CEL engine. Loaded with CEL, on the first
// request a binding exists for.
import { isPlainObject, type KubeObject } from '../../apis/object.ts';
import type { ResourceType } from '../../apis/resource-type.ts';
import { builtinSchema } from '../../apply/builtin-schema.ts';
import { customResourceSchema } from '../../apply/crd-schema.ts';
import { DEDUCED, type Atom } from '../../apply/smd-schema.ts';
import { merge, validationErrorsText } from '../../apply/typed.ts';
import { CelJSONPatch, CelObjectValue, celToJson, checkTypeNames } from '../../cel/admission-policy/patch-types.ts';
import { PolicyCompiler, RUNTIME_CEL_COST_BUDGET, type AdmissionActivation, type Program } from '../../cel/admission-policy/compiler.ts';
import { applyOperations, nodeFromValue, toOperation } from '../../patch/json-patch.ts';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (isPlainObject(v) ? v : {});
const arr = (v: unknown): Json[] => (Array.isArray(v) ? v.map(obj) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** What a mutation did: the new object, or an error in the apiserver's words. */
type MutationOutcome = { object: KubeObject } | { error: string };

export interface CompiledMutatingPolicy {
  /** Match conditions: true (run), false (skip) or the error text. */
  matches(input: AdmissionActivation): boolean | { error: string };
  /** Applies every mutation in order to `input.object`; one that fails is skipped, its error kept (dispatcher.go continues). */
  mutate(input: AdmissionActivation, type: ResourceType): { object: KubeObject; errors: string[] };
}

type Kind = { group: string; version: string; kind: string };
const atoms = new WeakMap<ResourceType, Atom>();
/**
 * The schema of the object a policy mutates: a custom resource's own, else the built-in kind's
 * the request is admitted as (`kind`: a subresource's body, policy/v1 Eviction or autoscaling/v1
 * Scale, is not the resource's kind).
 */
function atomOf(type: ResourceType, kind: Kind): Atom {
  if (!type.unstructured) return builtinSchema(kind.group, kind.version, kind.kind) ?? DEDUCED;
  let atom = atoms.get(type);
  if (!atom) atoms.set(type, (atom = customResourceSchema(type.schema)));
  return atom;
}

/** smd.go findAtomics: the paths of atomic maps, structs and lists the patch sets. */
function findAtomics(path: string, atom: Atom | undefined, v: unknown): string[] {
  if (!atom) return [];
  const out: string[] = [];
  if (isPlainObject(v) && atom.map) {
    if (atom.map.relationship === 'atomic') out.push(path);
    for (const [k, x] of Object.entries(v)) {
      // Only struct fields are walked (schema.Map.FindField), not a map's elements.
      const field = atom.map.fields.get(k);
      if (field) out.push(...findAtomics(`${path}.${k}`, field.type, x));
    }
  }
  if (Array.isArray(v) && atom.list) {
    if (atom.list.relationship === 'atomic') out.push(path);
    v.forEach((x, i) => out.push(...findAtomics(`${path}[${i}]`, atom.list!.elementType, x)));
  }
  return out;
}

/** ApplyStructuredMergeDiff. */
function applyConfiguration(live: KubeObject, patch: Json, type: ResourceType, kind: Kind): MutationOutcome {
  const atom = atomOf(type, kind);
  const atomics = findAtomics('', atom, patch);
  if (atomics.length > 0) return { error: `error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: ${atomics.join(', ')}` };
  const merged = merge(atom, live, { ...patch, apiVersion: live.apiVersion, kind: live.kind });
  if (merged.errs.length > 0) return { error: `error applying patch: failed to merge patch: ${validationErrorsText(merged.errs)}` };
  return { object: merged.out as KubeObject };
}

/** jsonPatcher.Patch: a failed `test` leaves the object as it was. */
function applyJsonPatch(live: KubeObject, ops: unknown[]): MutationOutcome {
  const operations = ops.map((op) => toOperation(nodeFromValue(op)));
  const result = applyOperations(operations, live);
  if (result.ok) return { object: result.value as KubeObject };
  if ('error' in result) return result.error.endsWith('test failed') ? { object: live } : { error: `JSON Patch: ${result.error}` };
  return { error: `JSON Patch: ${result.panic.message}` };
}

export function compileMutatingPolicy(policy: KubeObject): CompiledMutatingPolicy {
  const spec = obj(policy.spec);
  const hasParams = isPlainObject(spec.paramKind);
  const failurePolicy = str(spec.failurePolicy) || 'Fail';
  const compiler = new PolicyCompiler({ hasParams, composition: true, patchTypes: true });
  for (const v of arr(spec.variables)) compiler.compileVariable(str(v.name), str(v.expression));
  const decls = { hasParams, hasAuthorizer: true };
  const matchConditions = arr(spec.matchConditions).map((m) => compiler.compile(str(m.expression), ['bool'], decls));
  const mutations: { patchType: string; program: Program }[] = arr(spec.mutations).map((m) => {
    const patchType = str(m.patchType);
    const expression = str(obj(patchType === 'JSONPatch' ? m.jsonPatch : m.applyConfiguration).expression).trim();
    return { patchType, program: compiler.compile(expression, [patchType === 'JSONPatch' ? 'list<JSONPatch>' : 'Object'], decls) };
  });
  return {
    matches(input) {
      if (matchConditions.length === 0) return true;
      const activation = compiler.activation(input);
      const errors: string[] = [];
      for (const m of matchConditions) {
        const r = m.evaluate(activation);
        if (r.error !== undefined) errors.push(r.error);
        else if (r.value === false) return false;
      }
      if (errors.length === 0) return true;
      return failurePolicy === 'Ignore' ? false : { error: errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]` };
    },
    mutate(input, type) {
      let object = input.object as KubeObject;
      const errors: string[] = [];
      for (const m of mutations) {
        const outcome = mutateOnce(m, object);
        if ('error' in outcome) errors.push(outcome.error);
        else object = outcome.object;
      }
      return { object, errors };

      function mutateOnce(m: { patchType: string; program: Program }, object: KubeObject): MutationOutcome {
        // Each mutation sees the object the one before it made, with a fresh budget (dispatchOne).
        const activation = compiler.activation({ ...input, object });
        activation.budget = RUNTIME_CEL_COST_BUDGET;
        if (m.program.error) return { error: m.program.error.detail };
        const r = m.program.evaluate(activation);
        if (r.error !== undefined) return { error: r.error };
        let outcome: MutationOutcome;
        if (m.patchType === 'JSONPatch') {
          const list = Array.isArray(r.value) ? r.value : [];
          if (!list.every((p) => p instanceof CelJSONPatch)) return { error: 'type mismatch: JSONPatchType.expression should evaluate to array of JSONPatch' };
          const ops: Json[] = [];
          for (const p of list as CelJSONPatch[]) {
            const value = p.fields.get('value');
            if (value instanceof CelObjectValue) {
              const err = checkTypeNames(value);
              if (err) return { error: `type mismatch: ${err}` };
            }
            const op: Json = { op: celToJson(p.fields.get('op') ?? ''), path: celToJson(p.fields.get('path') ?? '') };
            const from = p.fields.get('from');
            if (typeof from === 'string' && from.length > 0) op.from = from;
            if (p.fields.has('value') && value !== null) op.value = celToJson(value);
            ops.push(op);
          }
          outcome = applyJsonPatch(object, ops);
        } else {
          if (!(r.value instanceof CelObjectValue)) return { error: `unsupported return type from ApplyConfiguration expression: ${typeof r.value}` };
          const err = checkTypeNames(r.value);
          if (err) return { error: `type mismatch: ${err}` };
          outcome = applyConfiguration(object, celToJson(r.value) as Json, type, input.request.kind as Kind);
        }
        return outcome;
      }
    },
  };
}
