// The disruption controller (pkg/controller/disruption/disruption.go), reduced: for each
// PodDisruptionBudget, the pods its selector matches, how many are expected (the pods themselves
// for an integer minAvailable; else the scale of their controllers), how many are healthy (ready,
// not being deleted, not just evicted), how many must be, and so how many disruptions are allowed,
// with the DisruptionAllowed condition. Evicted pods leave disruptedPods once deleted or after two
// minutes on the clock.
import type { KubeObject, StoredObject } from '../../apis/object.ts';
import type { ResourceType } from '../../apis/resource-type.ts';
import { formatTimestamp } from '../../go/time.ts';
import type { StoreEvent } from '../../storage/versioned-store.ts';
import type { ControllerContext } from '../context.ts';
import { controllerRecorder, type EventRecorder } from '../events/event-broadcaster.ts';
import { QueueController } from '../queue-controller.ts';
import { updateStatus, KeyWakeups } from './controller-support.ts';
import { controllerRefOf, isPodReady, labelsOf, numberOr, scaledIntOrPercent, selectorOf, specOf, statusOf, type Json } from './objects.ts';
import type { ClockTimers } from './timers.ts';

const PDBS = 'policy/poddisruptionbudgets';
const PODS = '/pods';
/** DeletionTimeout: how long an evicted pod may take to get its deletionTimestamp. */
const DELETION_TIMEOUT_MS = 2 * 60_000;

/** Buckets of the controllers whose scale counts as expected pods, by kind. */
const SCALED: Record<string, string> = { ReplicaSet: 'apps/replicasets', ReplicationController: '/replicationcontrollers', StatefulSet: 'apps/statefulsets', Deployment: 'apps/deployments' };

const isPercent = (v: unknown): v is string => typeof v === 'string' && v.endsWith('%');

export class DisruptionController extends QueueController {
  readonly name = 'disruption';
  private readonly wakeups: KeyWakeups;
  /** The disruption controller's recorder reports as `controllermanager` (disruption.go). */
  private readonly events: EventRecorder;

  constructor(ctx: ControllerContext, onError: (err: unknown, key: string) => void, timers: ClockTimers) {
    super(ctx, onError);
    this.wakeups = new KeyWakeups(timers, this.queue);
    this.events = controllerRecorder(ctx, 'controllermanager');
  }

  private type(): ResourceType {
    return this.ctx.catalog.find('policy', 'v1', 'poddisruptionbudgets')!;
  }

  protected observe(event: StoreEvent): void {
    if (event.bucket === PDBS) this.queue.add(event.key);
    else if (event.bucket === PODS) {
      const namespace = event.object.metadata.namespace!;
      const labels = [labelsOf(event.object), event.previous ? labelsOf(event.previous) : undefined];
      for (const { key, object } of this.ctx.store.list(PDBS, `${namespace}/`)) {
        const selector = selectorOf(specOf(object).selector);
        if (selector && labels.some((l) => l && selector.matches(l))) this.queue.add(key);
      }
    }
  }

  protected async sync(key: string): Promise<void> {
    const pdb = this.ctx.store.get(PDBS, key);
    if (!pdb || pdb.metadata.deletionTimestamp) return;
    const spec = specOf(pdb);
    const namespace = pdb.metadata.namespace!;
    const selector = selectorOf(spec.selector);
    const pods = selector ? this.ctx.store.list(PODS, `${namespace}/`).map((e) => e.object).filter((p) => selector.matches(labelsOf(p))) : [];
    const now = this.ctx.clock.now().getTime();
    // trySync: every sync of a budget that selects nothing says so (the correlator counts the repeats).
    if (pods.length === 0) this.events.event(pdb, 'Normal', 'NoPods', 'No matching pods found');

    // buildDisruptedPodMap: evictions not yet followed by a deletion, for at most two minutes.
    const disrupted: Record<string, string> = {};
    for (const [name, at] of Object.entries((statusOf(pdb).disruptedPods as Record<string, string> | undefined) ?? {})) {
      const pod = pods.find((p) => p.metadata.name === name);
      const expires = Date.parse(at) + DELETION_TIMEOUT_MS;
      if (!pod || pod.metadata.deletionTimestamp || expires <= now) continue;
      disrupted[name] = at;
      this.wakeups.at(key, expires);
    }
    const healthy = pods.filter((p) => !p.metadata.deletionTimestamp && isPodReady(p) && !(p.metadata.name! in disrupted)).length;
    const { expected, desired } = this.expectations(spec, pods);
    const allowed = Math.max(0, healthy - desired);
    const generation = pdb.metadata.generation ?? 0;
    await updateStatus(this.ctx, this.type(), namespace, pdb.metadata.name!, pdb.metadata.uid!, (obj) => {
      const old = (obj.status ?? {}) as Json;
      const previous = ((old.conditions as Json[] | undefined) ?? []).find((c) => c.type === 'DisruptionAllowed');
      const status = allowed > 0 ? 'True' : 'False';
      const condition = {
        type: 'DisruptionAllowed',
        status,
        observedGeneration: generation,
        lastTransitionTime: previous?.status === status ? previous.lastTransitionTime : formatTimestamp(new Date(now)),
        reason: allowed > 0 ? 'SufficientPods' : 'InsufficientPods',
        message: '',
      };
      obj.status = {
        observedGeneration: generation,
        ...(Object.keys(disrupted).length ? { disruptedPods: disrupted } : {}),
        disruptionsAllowed: allowed,
        currentHealthy: healthy,
        desiredHealthy: desired,
        expectedPods: expected,
        conditions: [...((old.conditions as Json[] | undefined) ?? []).filter((c) => c.type !== 'DisruptionAllowed'), condition],
      };
    });
  }

  /** getExpectedPodCount and the desired healthy count. */
  private expectations(spec: Json, pods: StoredObject[]): { expected: number; desired: number } {
    const { minAvailable, maxUnavailable } = spec;
    if (maxUnavailable === undefined && typeof minAvailable === 'number') return { expected: pods.length, desired: minAvailable };
    const expected = this.controllersScale(pods);
    if (maxUnavailable !== undefined) {
      const unavailable = scaledIntOrPercent(maxUnavailable, expected, true);
      return { expected, desired: Math.max(0, expected - unavailable) };
    }
    return { expected, desired: isPercent(minAvailable) ? scaledIntOrPercent(minAvailable, expected, true) : 0 };
  }

  /** The summed scale of the pods' controllers (a ReplicaSet of a Deployment counts as the Deployment). */
  private controllersScale(pods: KubeObject[]): number {
    const seen = new Map<string, number>();
    for (const pod of pods) {
      let ref = controllerRefOf(pod);
      let owner: KubeObject | undefined;
      if (ref && SCALED[ref.kind]) owner = this.ctx.store.get(SCALED[ref.kind]!, `${pod.metadata!.namespace}/${ref.name}`);
      const parent = owner && controllerRefOf(owner);
      if (owner && parent?.kind === 'Deployment') {
        ref = parent;
        owner = this.ctx.store.get(SCALED.Deployment!, `${pod.metadata!.namespace}/${parent.name}`);
      }
      if (!ref || !owner || seen.has(ref.uid)) continue;
      seen.set(ref.uid, numberOr(specOf(owner).replicas, 1));
    }
    return [...seen.values()].reduce((a, b) => a + b, 0);
  }

}
