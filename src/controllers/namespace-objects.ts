// What the ServiceAccount controller and the root-CA publisher share: each keeps one object in
// every active namespace, reconciled per namespace; the namespaces that exist before it starts
// (the cluster's boot namespaces) are synced by syncExisting(), as an informer's initial list is.
import type { KubeObject, StoredObject } from '../apis/object.ts';
import type { ResourceType } from '../apis/resource-type.ts';
import { StatusError } from '../errors/status-error.ts';
import { NAMESPACES_BUCKET } from '../registry/namespace-admission.ts';
import type { StoreEvent } from '../storage/versioned-store.ts';
import { bootCreate } from './boot-templates.ts';
import type { ControllerContext } from './context.ts';
import { QueueController } from './queue-controller.ts';

/** The manager kube-controller-manager's writes are recorded under in managedFields. */
export const CONTROLLER_MANAGER = 'kube-controller-manager';

export abstract class NamespaceObjectController extends QueueController {
  /** Prompt: a namespace's ServiceAccount and ConfigMap exist by the time a client acts on the namespace it created. */
  constructor(ctx: ControllerContext, onError: (err: unknown, key: string) => void) {
    super(ctx, onError, { prompt: true });
  }

  /**
   * Syncs every namespace stored now, one after another, without going through the queue: the
   * cluster awaits this at boot, so its first answer comes without waiting for a queue's turn.
   */
  async syncExisting(): Promise<void> {
    this.booting = true;
    try {
      for (const { key } of this.ctx.store.list(NAMESPACES_BUCKET, '')) await this.sync(key);
    } finally {
      this.booting = false;
    }
  }

  /** While syncExisting runs: creates come from the process's boot templates (boot-templates.ts). */
  private booting = false;

  protected namespace(name: string): StoredObject | undefined {
    return this.ctx.store.get(NAMESPACES_BUCKET, name);
  }

  protected isActive(ns: StoredObject): boolean {
    return (ns as { status?: { phase?: string } }).status?.phase === 'Active' && !ns.metadata.deletionTimestamp;
  }

  /** The namespace of a namespace event, when it is one the controller reacts to (added, or updated while Active). */
  protected namespaceEvent(event: StoreEvent): string | undefined {
    if (event.bucket !== NAMESPACES_BUCKET) return undefined;
    if (event.type === 'ADDED') return event.key;
    if (event.type === 'MODIFIED' && this.isActive(event.object)) return event.key;
    return undefined;
  }

  /**
   * Creates `body` in `namespace` as kube-controller-manager; a namespace that is gone or
   * terminating, or an object that appeared meanwhile, is no error (both controllers skip them).
   */
  protected async createIn(type: ResourceType, namespace: string, body: KubeObject): Promise<void> {
    try {
      const object = this.booting
        ? await bootCreate(this.ctx, type, namespace, body, CONTROLLER_MANAGER)
        : (await this.ctx.registryFor(type).create(namespace, body, { fieldManager: CONTROLLER_MANAGER })).object;
      this.ctx.recordClusterWrite?.(type, object);
    } catch (err) {
      if (err instanceof StatusError) {
        if (err.status.reason === 'AlreadyExists' || err.status.reason === 'NotFound') return;
        if (err.status.details?.causes?.some((c) => c.reason === 'NamespaceTerminating')) return;
      }
      throw err;
    }
  }
}
