// The opt-in simulated control plane (`createFakeCluster({ workloads: true })`): registered Ready
// nodes, a scheduler, a kubelet stand-in per node and the workload controllers of
// kube-controller-manager, all on the cluster clock. Assembled here so that a cluster without
// workloads builds none of it.
import { KUBERNETES_VERSION } from '../apis/version.ts';
import type { ControllerContext } from '../controllers/context.ts';
import type { ControllerManager } from '../controllers/controller-manager.ts';
import { EventBroadcaster } from '../controllers/events/event-broadcaster.ts';
import { DisruptionController } from '../controllers/workloads/disruption.ts';
import { EndpointsController } from '../controllers/workloads/endpoints.ts';
import { CronJobController } from '../controllers/workloads/cronjob.ts';
import { JobController } from '../controllers/workloads/job.ts';
import { DaemonSetController } from '../controllers/workloads/daemon-set.ts';
import { DeploymentController } from '../controllers/workloads/deployment.ts';
import { Kubelet, type KubeletNode } from '../controllers/workloads/kubelet.ts';
import type { PodBehavior, PodMatch } from '../controllers/workloads/kubelet-behavior.ts';
import { nodeAddressOf, nodeName, registerNodes } from '../controllers/workloads/nodes.ts';
import { REPLICA_SET, REPLICATION_CONTROLLER, ReplicaSetController } from '../controllers/workloads/replica-set.ts';
import { EphemeralVolumeController } from '../controllers/workloads/ephemeral-volume.ts';
import { PersistentVolumeController, registerStandardStorageClass } from '../controllers/workloads/persistent-volume.ts';
import { StatefulSetController } from '../controllers/workloads/stateful-set.ts';
import { Scheduler } from '../controllers/workloads/scheduler.ts';
import { ClockTimers } from '../controllers/workloads/timers.ts';
import { onClockMove, type ClusterClock } from '../harness/clock.ts';

export type { PodBehavior, PodMatch } from '../controllers/workloads/kubelet-behavior.ts';
export type { LogsBehavior, ProgrammedLogs, TimedLogLine } from '../controllers/workloads/container-logs.ts';

/** `cluster.kubelet`: programs what the kubelet stand-in does with the pods it runs. */
export interface KubeletControl {
  /**
   * Applies `behavior` to the pods `match` selects that the kubelet accepts from now on (the rules
   * are read when a pod is bound; `logs` and `exec` when asked for, so they apply to running pods
   * too). Later rules override earlier ones field by field. Answers a function that removes the rule.
   */
  on(match: PodMatch, behavior: PodBehavior): () => void;
  /**
   * Appends `text` (lines) to the logs of the running containers of the pods `match` selects, or of
   * the container named `options.container` only, at the cluster clock's time: `pods/log` shows it
   * and `follow` readers get it at once. Throws when no running container matches.
   */
  log(match: PodMatch, text: string, options?: { container?: string }): void;
}

export interface WorkloadsOptions {
  nodes: number;
}

export class Workloads {
  readonly kubelet: Kubelet;
  private readonly ctx: ControllerContext;
  private readonly timers: ClockTimers;
  private readonly nodeCount: number;
  private readonly events: EventBroadcaster;

  constructor(clusterCtx: ControllerContext, clock: ClusterClock, options: WorkloadsOptions, reportError: (err: unknown, key: string) => void) {
    if (!Number.isInteger(options.nodes) || options.nodes < 0) throw new TypeError(`kubefake: nodes must be a whole number of nodes, got ${String(options.nodes)}`);
    this.nodeCount = options.nodes;
    this.timers = new ClockTimers(clock, clock.frozen);
    onClockMove(clock, () => this.timers.poll());
    // The simulated components record Events; the rest of the cluster's controllers do not.
    this.events = new EventBroadcaster(clusterCtx, { at: (when, fire) => this.timers.at(when, fire) });
    const ctx: ControllerContext = { ...clusterCtx, events: this.events };
    this.ctx = ctx;
    const nodes = new Map<string, KubeletNode>();
    for (let i = 1; i <= options.nodes; i++) nodes.set(nodeName(i), { hostIP: nodeAddressOf(i), podNet: `10.244.${i - 1}` });
    this.kubelet = new Kubelet(ctx, reportError, nodes, this.timers);
  }

  /** Registers the nodes and kind's default StorageClass, and starts the controllers. */
  async start(controllers: ControllerManager, reportError: (err: unknown, key: string) => void): Promise<void> {
    await registerNodes(this.ctx, this.nodeCount, KUBERNETES_VERSION.gitVersion);
    await registerStandardStorageClass(this.ctx);
    controllers.add(this.events);
    controllers.add(new Scheduler(this.ctx, reportError));
    controllers.add(this.kubelet);
    controllers.add(new ReplicaSetController(this.ctx, reportError, REPLICA_SET, this.timers));
    controllers.add(new ReplicaSetController(this.ctx, reportError, REPLICATION_CONTROLLER, this.timers));
    controllers.add(new DeploymentController(this.ctx, reportError, this.timers));
    controllers.add(new JobController(this.ctx, reportError, this.timers));
    controllers.add(new CronJobController(this.ctx, reportError, this.timers));
    controllers.add(new StatefulSetController(this.ctx, reportError));
    controllers.add(new PersistentVolumeController(this.ctx, reportError));
    controllers.add(new EphemeralVolumeController(this.ctx, reportError));
    controllers.add(new DaemonSetController(this.ctx, reportError));
    controllers.add(new EndpointsController(this.ctx, reportError));
    controllers.add(new DisruptionController(this.ctx, reportError, this.timers));
  }

  readonly control: KubeletControl = {
    on: (match, behavior) => this.kubelet.rules.add(match, behavior),
    log: (match, text, options) => {
      if (this.kubelet.appendLog(match, text, options?.container) === 0) {
        throw new TypeError(`kubefake: cluster.kubelet.log(): no running container matches ${JSON.stringify({ ...match, ...options })}`);
      }
    },
  };

  stop(): void {
    this.timers.stop();
    // Logs being followed end as when their containers stop, so no reader waits on a closed cluster.
    this.kubelet.endFollowers();
  }
}
