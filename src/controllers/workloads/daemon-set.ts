// The DaemonSet controller (pkg/controller/daemon), reduced: one pod per node the template may run
// on (nodeSelector, required affinity and taints, with the tolerations every daemon pod gets),
// pinned to its node by required node affinity on metadata.name and left to the scheduler; pods on
// nodes they should not run on are deleted; a RollingUpdate replaces pods of an old template at most
// maxUnavailable at a time (OnDelete waits for the user). ControllerRevisions name the templates.
// Status: desired, current, misscheduled, ready, updated, available and unavailable counts.
import type { KubeObject, StoredObject } from '../../apis/object.ts';
import type { StoreEvent } from '../../storage/versioned-store.ts';
import { StatusError } from '../../errors/status-error.ts';
import { CONTROLLER_MANAGER, ensureControllerRevision, PodSetController, REVISION_LABEL, updateStatus } from './controller-support.ts';
import { isPodAvailable, isPodReady, isTerminal, newControllerRef, numberOr, scaledIntOrPercent, specOf, type Json } from './objects.ts';
import { placementFailure } from './scheduler.ts';

const SETS = 'apps/daemonsets';
const NODES = '/nodes';
const GENERATION_LABEL = 'pod-template-generation';

/** util.AddOrUpdateDaemonPodTolerations: what every daemon pod tolerates. */
function daemonTolerations(podSpec: Json): Json[] {
  const added: Json[] = [
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
    ...(podSpec.hostNetwork === true ? [{ key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', effect: 'NoSchedule' }] : []),
  ];
  return added.reduce(addOrUpdateToleration, (podSpec.tolerations as Json[] | undefined) ?? []);
}

/**
 * v1helper.AddOrUpdateTolerationInPodSpec: a toleration equal in key, operator, value and effect
 * (MatchToleration) is replaced where it stands (its tolerationSeconds dropped), else `t` is appended.
 */
function addOrUpdateToleration(tolerations: Json[], t: Json): Json[] {
  const matches = (e: Json) => ['key', 'operator', 'value', 'effect'].every((f) => (e[f] ?? '') === (t[f] ?? ''));
  return tolerations.some(matches) ? tolerations.map((e) => (matches(e) ? t : e)) : [...tolerations, t];
}

/** The node a daemon pod is pinned to (its required matchFields metadata.name term). */
function pinnedNode(pod: KubeObject): string | undefined {
  if (specOf(pod).nodeName) return specOf(pod).nodeName as string;
  const terms = ((((specOf(pod).affinity as Json | undefined)?.nodeAffinity as Json | undefined)?.requiredDuringSchedulingIgnoredDuringExecution as Json | undefined)?.nodeSelectorTerms ?? []) as Json[];
  for (const term of terms) for (const f of (term.matchFields as Json[] | undefined) ?? []) if (f.key === 'metadata.name' && f.operator === 'In') return (f.values as string[])[0];
  return undefined;
}

export class DaemonSetController extends PodSetController {
  readonly name = 'daemonset';
  protected readonly setBucket = SETS;
  protected readonly setKind = 'DaemonSet';
  protected readonly eventComponent = 'daemonset-controller';
  protected deletedPodMessage(_set: StoredObject, pod: StoredObject): string {
    return `Deleted pod: ${pod.metadata.name}`;
  }
  protected failedDeletePodMessage(_set: StoredObject, _pod: StoredObject, err: StatusError): string {
    return `Error deleting: ${err.message}`;
  }

  /** Every set is looked at again when nodes come, go or change. */
  protected override observeMore(event: StoreEvent): void {
    if (event.bucket === NODES) for (const { key } of this.ctx.store.list(SETS, '')) this.queue.add(key);
  }

  protected async sync(key: string): Promise<void> {
    const ds = this.ctx.store.get(SETS, key);
    if (!ds || ds.metadata.deletionTimestamp) return;
    const spec = specOf(ds);
    const namespace = ds.metadata.namespace!;
    const template = (spec.template ?? {}) as Json;
    const templateSpec = (template.spec ?? {}) as Json;
    const { hash } = await ensureControllerRevision(this.ctx, ds, 'DaemonSet', this.revisions);
    const nodes = this.ctx.store.list(NODES, '').map((e) => e.object);
    const wants = (node: KubeObject) => placementFailure({ ...templateSpec, tolerations: daemonTolerations(templateSpec) }, node) === undefined;
    const pods = this.ownedPods(ds);
    const byNode = new Map<string, StoredObject[]>();
    for (const pod of pods) {
      const node = pinnedNode(pod);
      if (!node) continue;
      byNode.set(node, [...(byNode.get(node) ?? []), pod]);
    }
    const deletePod = (pod: StoredObject) => this.deletePod(ds, pod);
    const now = this.ctx.clock.now();
    const minReadySeconds = numberOr(spec.minReadySeconds, 0);
    const isUpdated = (p: KubeObject) => p.metadata?.labels?.[REVISION_LABEL] === hash;
    const desiredNodes = nodes.filter(wants);
    for (const node of nodes) {
      const name = node.metadata.name!;
      const live = (byNode.get(name) ?? []).filter((p) => !p.metadata.deletionTimestamp);
      if (!wants(node)) {
        for (const pod of live) await deletePod(pod);
        continue;
      }
      // Failed daemon pods are replaced; extra pods on a node are deleted, keeping the oldest.
      for (const pod of live.filter(isTerminal)) await deletePod(pod);
      const running = live.filter((p) => !isTerminal(p));
      for (const extra of running.slice(1)) await deletePod(extra);
      if (running.length === 0 && (byNode.get(name) ?? []).every((p) => !p.metadata.deletionTimestamp || isTerminal(p))) await this.createPod(ds, name, hash);
    }
    // RollingUpdate: old pods go while fewer than maxUnavailable daemon pods are unavailable.
    const strategy = (spec.updateStrategy ?? {}) as Json;
    if ((strategy.type ?? 'RollingUpdate') === 'RollingUpdate') {
      // daemon/util.UnavailableCount rounds a percent up; with no surge, 0 means 1 (updatedDesiredNodeCounts).
      const maxUnavailable = scaledIntOrPercent((strategy.rollingUpdate as Json | undefined)?.maxUnavailable ?? 1, desiredNodes.length, true) || 1;
      const current = desiredNodes.map((n) => (byNode.get(n.metadata.name!) ?? []).find((p) => !p.metadata.deletionTimestamp && !isTerminal(p)));
      let unavailable = current.filter((p) => !p || !isPodAvailable(p, minReadySeconds, now)).length;
      for (const pod of current) {
        if (!pod || isUpdated(pod)) continue;
        const available = isPodAvailable(pod, minReadySeconds, now);
        if (!available) {
          await deletePod(pod);
          continue;
        }
        if (unavailable >= maxUnavailable) break;
        await deletePod(pod);
        unavailable++;
      }
    }

    const fresh = this.ownedPods(ds).filter((p) => !p.metadata.deletionTimestamp && !isTerminal(p));
    const desiredNames = new Set(desiredNodes.map((n) => n.metadata.name!));
    const scheduled = fresh.filter((p) => desiredNames.has(pinnedNode(p) ?? ''));
    const misscheduled = fresh.filter((p) => !desiredNames.has(pinnedNode(p) ?? ''));
    const available = scheduled.filter((p) => isPodAvailable(p, minReadySeconds, now)).length;
    await updateStatus(this.ctx, this.resourceType('apps', 'daemonsets'), namespace, ds.metadata.name!, ds.metadata.uid!, (obj) => {
      const omitZero = (field: string, n: number) => (n ? { [field]: n } : {});
      obj.status = {
        currentNumberScheduled: new Set(scheduled.map(pinnedNode)).size,
        numberMisscheduled: misscheduled.length,
        desiredNumberScheduled: desiredNodes.length,
        numberReady: scheduled.filter(isPodReady).length,
        observedGeneration: obj.metadata?.generation,
        ...omitZero('updatedNumberScheduled', scheduled.filter(isUpdated).length),
        ...omitZero('numberAvailable', available),
        ...omitZero('numberUnavailable', desiredNodes.length - available),
      };
    });
  }

  /** A daemon pod for one node: the template with the daemon tolerations and affinity pinning it there. */
  private async createPod(ds: StoredObject, node: string, hash: string): Promise<void> {
    const template = (specOf(ds).template ?? {}) as Json;
    const meta = (template.metadata ?? {}) as Json;
    const podSpec = structuredClone((template.spec ?? {}) as Json);
    podSpec.tolerations = daemonTolerations(podSpec);
    const affinity = (podSpec.affinity ??= {}) as Json;
    const nodeAffinity = (affinity.nodeAffinity ??= {}) as Json;
    nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution = { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }] };
    const pod: KubeObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        generateName: `${ds.metadata.name}-`,
        namespace: ds.metadata.namespace,
        labels: { ...((meta.labels as Record<string, string> | undefined) ?? {}), [REVISION_LABEL]: hash, [GENERATION_LABEL]: String(ds.metadata.generation ?? 1) },
        ...(meta.annotations ? { annotations: structuredClone(meta.annotations) as Record<string, string> } : {}),
        ownerReferences: [newControllerRef(ds, 'apps/v1', 'DaemonSet')],
      },
      spec: podSpec,
    };
    try {
      const created = await this.ctx.registryFor(this.resourceType('', 'pods')).create(ds.metadata.namespace, pod, { fieldManager: CONTROLLER_MANAGER });
      this.recorder.event(ds, 'Normal', 'SuccessfulCreate', `Created pod: ${created.object.metadata!.name}`);
    } catch (err) {
      if (err instanceof StatusError) this.recorder.event(ds, 'Warning', 'FailedCreate', `Error creating: ${err.message}`);
      throw err;
    }
  }
}
