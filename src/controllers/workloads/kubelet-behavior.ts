// What a test programs the stand-in kubelet to do with the pods it runs
// (`cluster.kubelet.on(match, behavior)`), and how rules combine: every rule matching a pod
// applies, later rules overriding earlier ones field by field.
import type { KubeObject } from '../../apis/object.ts';
import { labelSelectorAsSelector } from '../../selectors/label-selector-as-selector.ts';
import { parseLabelSelector, type LabelSelector } from '../../selectors/label-selector.ts';
import type { LogsBehavior } from './container-logs.ts';

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
  /**
   * What each run of a container prints, read by `pods/log` (and `pods/attach`): text (lines written when it starts),
   * lines over time (`[{ after: ms into the run, text }]`, streamed to `follow` readers as the
   * clock reaches them), or a function of the container name and pod answering either.
   */
  logs?: LogsBehavior;
  /** How long a container takes to stop once its pod is deleted gracefully. Default: the whole grace period. */
  stopAfter?: number;
  /**
   * What `pods/exec` (over a WebSocket: client-node's Exec on `cluster.kubeConfig`, kubectl on
   * `cluster.listen()`) answers for a command: its output and exit code. Default: no output, exit code 0.
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

interface PodMatcher {
  namespace?: string;
  name?: string;
  selector?: LabelSelector;
}

interface Rule extends PodMatcher {
  behavior: PodBehavior;
}

/** The match compiled; a selector that does not parse throws its parser's error. */
export function podMatcher(match: PodMatch): (pod: KubeObject) => boolean {
  const matcher = compile(match);
  return (pod) => matches(matcher, pod);
}

function compile(match: PodMatch): PodMatcher {
  const selector =
    match.selector === undefined
      ? undefined
      : typeof match.selector === 'string'
        ? parseLabelSelector(match.selector)
        : labelSelectorAsSelector({ matchLabels: match.selector });
  return { namespace: match.namespace, name: match.name, selector };
}

function matches(rule: PodMatcher, pod: KubeObject): boolean {
  if (rule.namespace !== undefined && rule.namespace !== pod.metadata?.namespace) return false;
  if (rule.name !== undefined && rule.name !== pod.metadata?.name) return false;
  return !rule.selector || rule.selector.matches(pod.metadata?.labels);
}

export class KubeletRules {
  private rules: Rule[] = [];

  /** Adds a rule; answers a function that removes it. A selector that does not parse throws its parser's error. */
  add(match: PodMatch, behavior: PodBehavior): () => void {
    const rule: Rule = { ...compile(match), behavior: { ...behavior } };
    this.rules.push(rule);
    return () => {
      this.rules = this.rules.filter((r) => r !== rule);
    };
  }

  /** The merged behavior of every rule matching the pod. */
  behaviorOf(pod: KubeObject): PodBehavior {
    let merged: PodBehavior = {};
    for (const rule of this.rules) if (matches(rule, pod)) merged = { ...merged, ...rule.behavior };
    return merged;
  }

  clear(): void {
    this.rules = [];
  }
}
