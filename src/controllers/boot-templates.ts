// Start-up: what the always-on controllers write into a new cluster (the `kubernetes` Service and
// its endpoints, each boot namespace's `default` ServiceAccount and `kube-root-ca.crt`) is the same
// in every cluster of a process but for uids, times and resourceVersions. The first cluster writes
// it through the registry (decoding, defaulting, validation, managed fields); a later one stores a
// copy of what that stored, with its own uid and times, instead of running a pipeline that would
// compute the same objects again (issue 20's start-up budget). Only the boot sync uses this: the
// boot namespaces are active, and no admission plugin, webhook or policy can exist yet.
import type { KubeObject, StoredObject } from '../apis/object.ts';
import { storageKeyOf, type ResourceType } from '../apis/resource-type.ts';
import { formatTimestamp } from '../go/time.ts';
import type { ControllerContext } from './context.ts';

/** Per process: what the first cluster stored for each boot write (type, body and manager). */
const templates = new Map<string, StoredObject>();

/**
 * Creates `body` in `namespace` as `manager` at boot, from the process's template when there is
 * one; answers the stored object. `claim` takes what the registry's strategy would allocate
 * (a Service's ClusterIP) in this cluster when the template path skips that strategy.
 */
export async function bootCreate(
  ctx: ControllerContext,
  type: ResourceType,
  namespace: string,
  body: KubeObject,
  manager: string,
  claim?: (stored: KubeObject) => void,
): Promise<KubeObject> {
  const bucket = storageKeyOf(type);
  const key = `${namespace}/${body.metadata!.name}`;
  const id = `${bucket}\0${manager}\0${JSON.stringify(body)}`;
  const template = templates.get(id);
  if (!template) {
    const { object } = await ctx.registryFor(type).create(namespace, body, { fieldManager: manager });
    const stored = ctx.store.get(bucket, key);
    if (stored) templates.set(id, stored);
    return object;
  }
  const obj = structuredClone(template) as KubeObject;
  const meta = obj.metadata!;
  // rest.BeforeCreate's system fields and the field manager's time, as createOnce sets them.
  meta.uid = ctx.random.uid();
  const now = formatTimestamp(ctx.clock.now());
  meta.creationTimestamp = now;
  for (const entry of (meta.managedFields ?? []) as Array<{ time?: string }>) entry.time = now;
  delete meta.resourceVersion;
  claim?.(obj);
  return ctx.store.create(bucket, key, obj);
}
