// The namespace controller (pkg/controller/namespace/deletion): empties a terminating namespace —
// every namespaced resource, custom resources included, deleted in the background — records its
// progress in the status conditions, and removes the `kubernetes` finalizer once nothing is
// left, which lets the namespace go.
import { storageKeyOf, type ResourceType } from '../apis/resource-type.ts';
import type { KubeObject, StoredObject } from '../apis/object.ts';
import { StatusError } from '../errors/status-error.ts';
import { formatTimestamp } from '../go/time.ts';
import { NAMESPACES_BUCKET } from '../registry/namespace-admission.ts';
import type { StoreEvent } from '../storage/versioned-store.ts';
import { storedResources } from './context.ts';
import { QueueController } from './queue-controller.ts';

export const NAMESPACE_FINALIZER = 'kubernetes';

interface NamespaceCondition {
  type: string;
  status: 'True' | 'False';
  lastTransitionTime: string;
  reason: string;
  message: string;
}

/** The condition types the deleter maintains, in the order it first writes them, with their OK state. */
const CONDITION_TYPES: Array<[type: string, reason: string, message: string]> = [
  ['NamespaceDeletionDiscoveryFailure', 'ResourcesDiscovered', 'All resources successfully discovered'],
  ['NamespaceDeletionGroupVersionParsingFailure', 'ParsedGroupVersions', 'All legacy kube types successfully parsed'],
  ['NamespaceDeletionContentFailure', 'ContentDeleted', 'All content successfully deleted, may be waiting on finalization'],
  ['NamespaceContentRemaining', 'ContentRemoved', 'All content successfully removed'],
  ['NamespaceFinalizersRemaining', 'ContentRemoved', 'All content successfully removed'],
];

export class NamespaceController extends QueueController {
  readonly name = 'namespace-controller';

  protected observe(event: StoreEvent): void {
    if (event.bucket === NAMESPACES_BUCKET) {
      if (event.type !== 'DELETED' && event.object.metadata.deletionTimestamp) this.queue.add(event.key);
      return;
    }
    // Content leaving a terminating namespace may let it finish (the real controller polls instead).
    const namespace = event.object.metadata.namespace;
    if (!namespace) return;
    const ns = this.ctx.store.get(NAMESPACES_BUCKET, namespace);
    if (ns?.metadata.deletionTimestamp && (event.type === 'DELETED' || event.object.metadata.deletionTimestamp)) this.queue.add(namespace);
  }

  /** namespacedResourcesDeleter.Delete. */
  protected async sync(name: string): Promise<void> {
    const ns = this.ctx.store.get(NAMESPACES_BUCKET, name);
    if (!ns || !ns.metadata.deletionTimestamp) return;
    const uid = ns.metadata.uid;
    this.updateNamespace(name, uid, (o) => {
      const status = (o.status ??= {}) as Record<string, unknown>;
      if (status.phase === 'Terminating') return false;
      status.phase = 'Terminating';
      return true;
    });
    if (specFinalizers(ns).length === 0) return;
    const remaining = await this.deleteAllContent(name);
    this.updateNamespace(name, uid, (o) => updateConditions(o, remaining, formatTimestamp(this.ctx.clock.now())));
    if (remaining.total > 0) return;
    // finalizeNamespace: drop our token; the update deletes the namespace once nothing else holds it.
    this.updateNamespace(name, uid, (o) => {
      const current = specFinalizers(o);
      if (!current.includes(NAMESPACE_FINALIZER)) return false;
      ((o.spec ??= {}) as Record<string, unknown>).finalizers = [...new Set(current.filter((f) => f !== NAMESPACE_FINALIZER))].sort();
      return true;
    });
  }

  private namespaceType(): ResourceType {
    return this.ctx.catalog.find('', 'v1', 'namespaces')!;
  }

  private updateNamespace(name: string, uid: string | undefined, mutate: (o: KubeObject) => boolean): void {
    this.ctx.registryFor(this.namespaceType()).systemUpdate(undefined, name, mutate, uid);
  }

  /** deleteAllContent: background-deletes everything, then counts what is left and why. */
  private async deleteAllContent(namespace: string): Promise<RemainingContent> {
    const remaining: RemainingContent = { total: 0, byResource: new Map(), byFinalizer: new Map() };
    for (const type of storedResources(this.ctx.catalog)) {
      if (!type.namespaced || !type.verbs.includes('delete')) continue;
      const registry = this.ctx.registryFor(type);
      const bucket = storageKeyOf(type);
      for (const { object } of this.ctx.store.list(bucket, `${namespace}/`)) {
        try {
          await registry.delete(namespace, object.metadata.name, { propagationPolicy: 'Background' });
        } catch (err) {
          if (!(err instanceof StatusError && (err.code === 404 || err.code === 405))) throw err;
        }
      }
      const left = this.ctx.store.list(bucket, `${namespace}/`).map((e) => e.object);
      if (!left.length) continue;
      remaining.total += left.length;
      remaining.byResource.set(`${type.plural}.${type.group}`, left.length);
      for (const obj of left) for (const f of obj.metadata.finalizers ?? []) remaining.byFinalizer.set(f, (remaining.byFinalizer.get(f) ?? 0) + 1);
    }
    return remaining;
  }
}

interface RemainingContent {
  total: number;
  /** `<resource>.<group>` → instances left. */
  byResource: Map<string, number>;
  /** finalizer → instances it holds. */
  byFinalizer: Map<string, number>;
}

function specFinalizers(obj: KubeObject | StoredObject): string[] {
  const finalizers = (obj.spec as { finalizers?: unknown } | undefined)?.finalizers;
  return Array.isArray(finalizers) ? (finalizers as string[]) : [];
}

/** namespaceConditionUpdater.ProcessContentTotals + updateConditions. */
function updateConditions(obj: KubeObject, remaining: RemainingContent, now: string): boolean {
  const wanted = new Map<string, Omit<NamespaceCondition, 'lastTransitionTime' | 'type'>>();
  if (remaining.byResource.size) {
    const parts = [...remaining.byResource].map(([r, n]) => `${r} has ${n} resource instances`).sort();
    wanted.set('NamespaceContentRemaining', { status: 'True', reason: 'SomeResourcesRemain', message: `Some resources are remaining: ${parts.join(', ')}` });
  }
  if (remaining.byFinalizer.size) {
    const parts = [...remaining.byFinalizer].map(([f, n]) => `${f} in ${n} resource instances`).sort();
    wanted.set('NamespaceFinalizersRemaining', { status: 'True', reason: 'SomeFinalizerRemain', message: `Some finalizers are remaining: ${parts.join(', ')}` });
  }
  const status = (obj.status ??= {}) as { conditions?: NamespaceCondition[] };
  const conditions = (status.conditions ??= []);
  let changed = false;
  for (const [type, okReason, okMessage] of CONDITION_TYPES) {
    const next = wanted.get(type) ?? { status: 'False' as const, reason: okReason, message: okMessage };
    const old = conditions.find((c) => c.type === type);
    if (!old) {
      conditions.push({ type, status: next.status, lastTransitionTime: now, reason: next.reason, message: next.message });
      changed = true;
    } else if (old.status !== next.status || old.reason !== next.reason || old.message !== next.message) {
      if (old.status !== next.status) old.lastTransitionTime = now;
      Object.assign(old, { status: next.status, reason: next.reason, message: next.message });
      changed = true;
    }
  }
  return changed;
}
