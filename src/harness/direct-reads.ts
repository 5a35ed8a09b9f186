// cluster.get() and cluster.list(): synchronous reads of what is stored, for assertions, with no
// HTTP in between. Answers are copies the caller may change.
import type { KubeObject } from '../apis/object.ts';
import { compileFieldSelector } from '../registry/field-selection.ts';
import { compileListLabelSelector } from '../registry/list.ts';
import type { HarnessContext } from './context.ts';
import { presentCopy, resolveKind, resolveRef, type KindSpec, type ObjectTarget } from './object-ref.ts';

/** Options of `cluster.list()`. */
export interface DirectListOptions {
  /** Only objects in this namespace (namespaced kinds); all namespaces when omitted. */
  namespace?: string;
  /** A label selector, as text (`app=web,tier!=db`) or as a map of required labels. */
  labelSelector?: string | Record<string, string>;
  /** A field selector with the kind's supported fields (`metadata.name=web`, `status.phase=Running`). */
  fieldSelector?: string;
}

export function getObject(ctx: HarnessContext, target: ObjectTarget): KubeObject | undefined {
  const ref = resolveRef(ctx.catalog, target);
  const stored = ctx.registryFor(ref.type).peek(ref.namespace, ref.name);
  return stored && presentCopy(ref.type, stored);
}

export function listObjects(ctx: HarnessContext, kind: KindSpec, options: DirectListOptions = {}): KubeObject[] {
  const type = resolveKind(ctx.catalog, kind);
  const registry = ctx.registryFor(type);
  const { predicate: byLabel, narrowing } = compileListLabelSelector(labelSelectorText(options.labelSelector));
  const byField = compileFieldSelector(type, options.fieldSelector);
  const prefix = type.namespaced && options.namespace !== undefined ? `${options.namespace}/` : '';
  // Read-time defaults as get() shows them (peek() applies the same decoding).
  const decode = registry.type.fromStorage?.bind(registry.type);
  const out: KubeObject[] = [];
  ctx.store.range(registry.bucket, prefix, { narrowing }).forEach((_key, stored) => {
    const object = decode ? decode(stored) : stored;
    if ((!byLabel || byLabel(object)) && (!byField || byField(object))) out.push(presentCopy(type, object));
  });
  return out;
}

/** `{ app: 'web' }` → `app=web`; text passes through. */
export function labelSelectorText(selector: string | Record<string, string> | undefined): string | undefined {
  if (selector === undefined || typeof selector === 'string') return selector;
  return Object.entries(selector)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}
