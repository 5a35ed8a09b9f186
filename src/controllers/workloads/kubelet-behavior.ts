// What a test programs the stand-in kubelet to do with the pods it runs
// (`cluster.kubelet.on(match, behavior)`), and how rules combine: every rule matching a pod
// applies, later rules overriding earlier ones field by field.
import type { KubeObject } from '../../apis/object.ts';
import { parseLabelSelector, type LabelSelector } from '../../selectors/label-selector.ts';

/** What the kubelet's stand-in makes of a pod; every time is in milliseconds of the cluster clock. */
export interface PodBehavior {
  /** How long after the pod is bound its containers start (ContainerCreating until then). Default 0. */
  startAfter?: number;
  /** false: the containers never become ready (the pod stays Running and not Ready). Default true. */
  ready?: boolean;
  /** How long after starting the containers become ready. Default: the readiness probe's initialDelaySeconds, else 0. */
  readyAfter?: number;
  /**
   * How long the containers run before exiting. Default: for ever for restartPolicy Always (unless
   * crashLoop), at once (0) for Never and OnFailure (run to completion).
   */
  runFor?: number;
  /** The containers' exit code when they exit. Default 0, or 1 with crashLoop. */
  exitCode?: number;
  /** The containers exit (after runFor, default 0) and the kubelet restarts them with its back-off, for ever. */
  crashLoop?: boolean;
  /** What `pods/log` answers for a container: text (lines) or a function of the container name. */
  logs?: string | ((container: string, pod: KubeObject) => string);
  /** How long a container takes to stop once its pod is deleted gracefully. Default: the whole grace period. */
  stopAfter?: number;
  /**
   * What `pods/exec` (over a WebSocket, through `cluster.listen()`) answers for a command: its
   * output and exit code. Default: no output, exit code 0.
   */
  exec?: (command: string[], container: string, pod: KubeObject) => { stdout?: string; stderr?: string; exitCode?: number };
}

/** Which pods a rule applies to: all that match every field given. */
export interface PodMatch {
  /** A label selector: selector text (`app=web,tier!=db`) or labels that must all be present. */
  selector?: string | Record<string, string>;
  namespace?: string;
  name?: string;
}

interface Rule {
  namespace?: string;
  name?: string;
  selector?: LabelSelector;
  behavior: PodBehavior;
}

export class KubeletRules {
  private rules: Rule[] = [];

  /** Adds a rule; answers a function that removes it. A selector that does not parse throws its parser's error. */
  add(match: PodMatch, behavior: PodBehavior): () => void {
    const selector =
      match.selector === undefined
        ? undefined
        : parseLabelSelector(
            typeof match.selector === 'string'
              ? match.selector
              : Object.entries(match.selector)
                  .map(([k, v]) => `${k}=${v}`)
                  .join(','),
          );
    const rule: Rule = { namespace: match.namespace, name: match.name, selector, behavior: { ...behavior } };
    this.rules.push(rule);
    return () => {
      this.rules = this.rules.filter((r) => r !== rule);
    };
  }

  /** The merged behavior of every rule matching the pod. */
  behaviorOf(pod: KubeObject): PodBehavior {
    let merged: PodBehavior = {};
    for (const rule of this.rules) {
      if (rule.namespace !== undefined && rule.namespace !== pod.metadata?.namespace) continue;
      if (rule.name !== undefined && rule.name !== pod.metadata?.name) continue;
      if (rule.selector && !rule.selector.matches(pod.metadata?.labels)) continue;
      merged = { ...merged, ...rule.behavior };
    }
    return merged;
  }

  clear(): void {
    this.rules = [];
  }
}
