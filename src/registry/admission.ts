// The admission seam of the registry pipeline (apiserver/pkg/admission): what the registry hands
// to admission at each write, and the two phases it calls. The registry knows only this
// interface; the plugins (built-in admission plugins, webhooks, admission policies) live in
// src/admission and are assembled by the cluster, as kube-apiserver's admission chain is.
//
// Where the phases run follows the real handlers (endpoints/handlers/create.go, update.go,
// patch.go, delete.go and registry/generic/registry/store.go):
// - create: field manager → mutating admission (a generateName create has no name yet, and is
//   asked with name '') → the store's Create: the name generated unless a plugin set one,
//   BeforeCreate (system fields, PrepareForCreate, validation) → validating admission, asked by
//   the generated name → storage; a generated name that is taken is drawn again and this part
//   re-run, 8 attempts in all (RetryGenerateName). kubefake sets the system fields and runs
//   PrepareForCreate before mutating admission (webhooks are sent the object without them);
// - update and patch: the patched object, field manager → mutating admission → BeforeUpdate
//   (PrepareForUpdate, ValidateUpdate) → validating admission → storage (inside GuaranteedUpdate,
//   so a conflict re-runs both phases on the new state);
// - delete: validating admission with the old object (delete.go's admission runs before the
//   store's Delete; mutating plugins see it too but cannot change anything).
// Nothing here runs after the commit: a plugin that fails, fails the write.
import type { KubeObject } from '../apis/object.ts';
import type { ResourceType } from '../apis/resource-type.ts';
import type { DeleteOptions, UserInfo, WriteOptions } from '../apis/options.ts';

export type { UserInfo };

/** The resource and kind a plugin is asked about, its own version of them (schema.GroupVersionResource, GroupVersionKind). */
export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** admission.Attributes.GetKind: the body's kind (a create-only subresource's own), else the type's. */
export const admissionKindOf = (a: AdmissionAttributes): GroupVersionKind => a.kind ?? { group: a.type.group, version: a.type.version, kind: a.type.kind };

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/** admission.Attributes: one request as the plugins see it. */
export interface AdmissionAttributes {
  operation: AdmissionOperation;
  /** The resource type written (for a subresource write, the derived type; see `subresource`). */
  type: ResourceType;
  /** '' for the resource itself, else the subresource (`status`, `scale`, `eviction`, `binding`…). */
  subresource: string;
  /**
   * The kind of a subresource's body where its group or version is not the resource's
   * (RegisterKindFor: pods/eviction is policy/v1 Eviction, serviceaccounts/token
   * authentication.k8s.io/v1 TokenRequest); otherwise the type's own.
   */
  kind?: GroupVersionKind;
  namespace: string | undefined;
  /** The object's name ('' for a create with generateName before a name is generated). */
  name: string;
  /**
   * The new object (create, update) or the subresource's body (eviction, binding…). Mutating
   * plugins change it in place; validating plugins must not.
   */
  object: KubeObject | undefined;
  /** The stored object (update, delete). */
  oldObject: KubeObject | undefined;
  /** CreateOptions, UpdateOptions, PatchOptions or DeleteOptions as sent. */
  options: WriteOptions | DeleteOptions;
  dryRun: boolean;
  userInfo: UserInfo | undefined;
  /** Warnings a plugin answers (`Warning: 299` headers), in order. */
  warnings: string[];
  /** Audit annotations a plugin adds (kept for the request log). */
  auditAnnotations: Record<string, string>;
  /** admission.ReinvocationContext: made by the chain for its mutating phase. */
  reinvocation?: ReinvocationContext;
}

/**
 * admission.ReinvocationContext (apiserver/pkg/admission/reinvocation.go): a reinvocable plugin
 * (the mutating webhooks, the mutating admission policies) that changed the object asks for a
 * second run of the whole mutating phase; in it, each such plugin calls again only what its own
 * state (kept in `values`, by plugin name) says must be.
 */
export interface ReinvocationContext {
  /** True during the second run. */
  isReinvoke: boolean;
  /** Set by a plugin that changed the object: the mutating phase runs once more. */
  shouldReinvoke: boolean;
  values: Map<string, unknown>;
}

/**
 * The admission chain: every mutating plugin's `admit` in order, then every validating plugin's
 * `validate` in order. Either throws a StatusError to refuse the request.
 */
export interface AdmissionChain {
  admit(attributes: AdmissionAttributes): void | Promise<void>;
  validate(attributes: AdmissionAttributes): void | Promise<void>;
}

/** One admission plugin (admission.Interface with MutationInterface and/or ValidationInterface). */
export interface AdmissionPlugin {
  readonly name: string;
  /** admission.Interface.Handles; every operation when absent. */
  handles?(operation: AdmissionOperation): boolean;
  admit?(attributes: AdmissionAttributes): void | Promise<void>;
  validate?(attributes: AdmissionAttributes): void | Promise<void>;
}

/** admission.NewChainHandler: plugins in the order given, each phase in turn. */
export function admissionChain(plugins: readonly AdmissionPlugin[]): AdmissionChain {
  const mutating = plugins.filter((p) => p.admit);
  const validating = plugins.filter((p) => p.validate);
  return {
    // admission.reinvoker: the mutating phase, then the whole phase once more when a reinvocable
    // plugin changed the object (in-tree plugins run again too; they are idempotent).
    admit: (attributes) => {
      const reinvocation = (attributes.reinvocation ??= { isReinvoke: false, shouldReinvoke: false, values: new Map() });
      const again = (): void | Promise<void> => {
        if (!reinvocation.shouldReinvoke || reinvocation.isReinvoke) return;
        reinvocation.isReinvoke = true;
        return phase(mutating, 'admit', attributes);
      };
      const first = phase(mutating, 'admit', attributes);
      return first instanceof Promise ? first.then(again) : again();
    },
    validate: (attributes) => phase(validating, 'validate', attributes),
  };
}

/** A phase: synchronous while no plugin needs to wait; a refusal is always a rejected promise. */
function phase(plugins: readonly AdmissionPlugin[], which: 'admit' | 'validate', attributes: AdmissionAttributes): void | Promise<void> {
  try {
    return runPhase(plugins, which, attributes, 0);
  } catch (err) {
    return Promise.reject(err);
  }
}

/**
 * The plugins of one phase from `from` on. A plugin with nothing to do answers synchronously, and
 * the phase stays synchronous until one answers a promise: a write no plugin acts on takes no
 * extra turns of the event loop (which would let concurrent writers interleave differently).
 */
function runPhase(plugins: readonly AdmissionPlugin[], phase: 'admit' | 'validate', attributes: AdmissionAttributes, from: number): void | Promise<void> {
  for (let i = from; i < plugins.length; i++) {
    const plugin = plugins[i]!;
    if (plugin.handles && !plugin.handles(attributes.operation)) continue;
    const out = plugin[phase]!(attributes);
    if (out instanceof Promise) return out.then(() => runPhase(plugins, phase, attributes, i + 1));
  }
}
