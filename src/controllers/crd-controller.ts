// The CustomResourceDefinition controllers of apiextensions-apiserver, folded into one loop:
// naming (acceptedNames, NamesAccepted), establishing (Established), serving (the CRD's versions
// enter the catalog once Established) and finalizing (a deleted CRD's objects are deleted, then
// its cleanup finalizer goes and the endpoints with it).
import type { KubeObject, StoredObject } from '../apis/object.ts';
import { storageKeyOf, type ResourceType } from '../apis/resource-type.ts';
import { acceptedNames, calculateNamesAndConditions } from '../apiextensions/crd-names.ts';
import { isCrdConditionTrue, setCrdCondition } from '../apiextensions/crd-conditions.ts';
import type { customResourceTypes as CustomResourceTypes } from '../apiextensions/custom-resource-type.ts';
import { CRD_CLEANUP_FINALIZER } from '../apis/builtin/apiextensions-v1.ts';
import { StatusError } from '../errors/status-error.ts';
import { formatTimestamp } from '../go/time.ts';
import type { StoreEvent } from '../storage/versioned-store.ts';
import { splitKey } from './context.ts';
import { QueueController } from './queue-controller.ts';

export const CRD_BUCKET = 'apiextensions.k8s.io/customresourcedefinitions';

interface Served {
  resourceVersion: string;
  types: ResourceType[];
  bucket: string;
}

// The custom resource machinery (types, storage codec, conversion: ~7 modules) loads with the first
// CRD to sync, not with kubefake. One import shared by concurrent first syncs (concurrent import()s
// break Jest's ESM runtime, jestjs/jest#11434).
let customResourceTypes: typeof CustomResourceTypes | undefined;
let loadingCustomResourceTypes: Promise<unknown> | undefined;

async function loadCustomResourceTypes(): Promise<void> {
  if (customResourceTypes) return;
  customResourceTypes = (await (loadingCustomResourceTypes ??= import('../apiextensions/custom-resource-type.ts')) as typeof import('../apiextensions/custom-resource-type.ts')).customResourceTypes;
}

export class CrdController extends QueueController {
  readonly name = 'crd-controller';
  private readonly served = new Map<string, Served>();

  /** Whether the CRD's versions are being served now. */
  isServing(name: string): boolean {
    return this.served.has(name);
  }

  protected observe(event: StoreEvent): void {
    if (event.bucket === CRD_BUCKET) {
      // Names one CRD gives up or takes can change what its group siblings are allowed.
      const group = (event.object.spec as { group?: string } | undefined)?.group;
      this.queue.add(event.key);
      for (const { key, object } of this.ctx.store.list(CRD_BUCKET, '')) {
        if (key !== event.key && (object.spec as { group?: string } | undefined)?.group === group) this.queue.add(key);
      }
      return;
    }
    if (event.type !== 'DELETED') return;
    // An object of a terminating CRD is gone: the CRD may now finish.
    for (const [name, served] of this.served) if (served.bucket === event.bucket) this.queue.add(name);
  }

  private crdType(): ResourceType {
    return this.ctx.catalog.find('apiextensions.k8s.io', 'v1', 'customresourcedefinitions')!;
  }

  private updateCrd(name: string, uid: string | undefined, mutate: (o: KubeObject) => boolean): StoredObject | undefined {
    return this.ctx.registryFor(this.crdType()).systemUpdate(undefined, name, mutate, uid);
  }

  protected async sync(name: string): Promise<void> {
    await loadCustomResourceTypes();
    let crd = this.ctx.store.get(CRD_BUCKET, name);
    if (!crd) return this.unserve(name);
    const uid = crd.metadata.uid;
    const now = () => formatTimestamp(this.ctx.clock.now());
    if (crd.metadata.deletionTimestamp) return this.finalize(crd);

    const all = this.ctx.store.list(CRD_BUCKET, '').map((e) => e.object);
    const { names, namesAccepted, established } = calculateNamesAndConditions(crd, all);
    crd =
      this.updateCrd(name, uid, (o) => {
        const status = (o.status ??= {}) as Record<string, unknown>;
        let changed = JSON.stringify(status.acceptedNames) !== JSON.stringify(names);
        status.acceptedNames = names;
        changed = setCrdCondition(o, namesAccepted, now()) || changed;
        changed = setCrdCondition(o, established, now()) || changed;
        // The establishing controller: accepted names make the CRD Established.
        if (namesAccepted.status === 'True') {
          changed = setCrdCondition(o, { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' }, now()) || changed;
        }
        return changed;
      }) ?? crd;
    if (isCrdConditionTrue(crd, 'Established')) this.serve(crd, false);
    else this.unserve(name);
  }

  /** The finalizer controller: delete every object, then release the CRD. */
  private async finalize(crd: StoredObject): Promise<void> {
    const name = crd.metadata.name;
    const uid = crd.metadata.uid;
    const now = formatTimestamp(this.ctx.clock.now());
    if (isCrdConditionTrue(crd, 'Established')) this.serve(crd, true);
    if (!(crd.metadata.finalizers ?? []).includes(CRD_CLEANUP_FINALIZER)) return;
    const served = this.served.get(name);
    let remaining = 0;
    if (served) {
      const type = served.types[0]!;
      const registry = this.ctx.registryFor(type);
      for (const { key } of this.ctx.store.list(served.bucket, '')) {
        const { namespace, name: objName } = splitKey(type, key);
        try {
          await registry.delete(namespace, objName, {});
        } catch (err) {
          if (!(err instanceof StatusError && err.code === 404)) throw err;
        }
      }
      remaining = this.ctx.store.list(served.bucket, '').length;
    }
    if (remaining > 0) {
      this.updateCrd(name, uid, (o) => setCrdCondition(o, { type: 'Terminating', status: 'True', reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' }, now));
      return;
    }
    const wasEstablished = isCrdConditionTrue(crd, 'Established');
    this.updateCrd(name, uid, (o) => {
      setCrdCondition(
        o,
        wasEstablished
          ? { type: 'Terminating', status: 'False', reason: 'InstanceDeletionCompleted', message: 'removed all instances' }
          : { type: 'Terminating', status: 'False', reason: 'NeverEstablished', message: 'resource was never established' },
        now,
      );
      o.metadata!.finalizers = (o.metadata!.finalizers ?? []).filter((f) => f !== CRD_CLEANUP_FINALIZER);
      if (o.metadata!.finalizers.length === 0) delete o.metadata!.finalizers;
      return true;
    });
    if (!this.ctx.store.get(CRD_BUCKET, name)) this.unserve(name);
  }

  private serve(crd: StoredObject, terminating: boolean): void {
    const name = crd.metadata.name;
    const current = this.served.get(name);
    const version = `${crd.metadata.resourceVersion}/${terminating}`;
    if (current?.resourceVersion === version) return;
    this.unserve(name);
    const types = customResourceTypes!(crd, { terminating }).filter((t) => {
      // A built-in (or another CRD) already serving this path wins, as the real handler chain does.
      if (this.ctx.catalog.find(t.group, t.version, t.plural)) return false;
      this.ctx.catalog.add(t);
      return true;
    });
    const group = (crd.spec as { group?: string } | undefined)?.group ?? '';
    this.served.set(name, { resourceVersion: version, types, bucket: storageKeyOf({ group, plural: acceptedNames(crd).plural }) });
  }

  private unserve(name: string): void {
    const current = this.served.get(name);
    if (!current) return;
    for (const t of current.types) this.ctx.catalog.remove(t.group, t.version, t.plural);
    this.served.delete(name);
  }
}
