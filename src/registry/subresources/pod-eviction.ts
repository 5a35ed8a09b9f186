// pods/eviction (pkg/registry/core/pod/storage/eviction.go EvictionREST.Create, v1.36): a pod
// that is Pending, Succeeded, Failed or already deleting is deleted at once; otherwise the one
// PodDisruptionBudget selecting it must allow a disruption, which the eviction then spends
// (disruptionsAllowed - 1, the pod in disruptedPods) before the pod gets its DisruptionTarget
// condition and is deleted. kubefake runs no disruption controller, so a PDB's status is what the
// test writes to it: a budget whose observedGeneration lags its generation is "still being processed".
import type { DeleteOptions, WriteOptions } from '../../apis/options.ts';
import type { KubeObject } from '../../apis/object.ts';
import { badRequest, conflict, forbidden, StatusError } from '../../errors/status-error.ts';
import { formatTimestamp } from '../../go/time.ts';
import { tryLabelSelectorAsSelector } from '../../selectors/label-selector-as-selector.ts';
import type { GenericRegistry } from '../generic-registry.ts';
import { createSubresourceTypeOf } from './create-subresource-type.ts';

const MAX_DISRUPTED_POD_SIZE = 2000;
const CANNOT_EVICT = "Cannot evict pod as it would violate the pod's disruption budget.";

/** The kind pods/eviction is registered with (its body), in another group than the pods it evicts. */
const EVICTION_KIND = { group: 'policy', version: 'v1', kind: 'Eviction' };

interface Eviction {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string };
  deleteOptions?: Record<string, unknown> | null;
}

export interface EvictionContext {
  pods: GenericRegistry;
  /** The registry of a served resource (policy/v1 poddisruptionbudgets), undefined when not served. */
  registryOf(group: string, version: string, resource: string): GenericRegistry | undefined;
  namespace: string;
  name: string;
  now: Date;
  /** The Eviction's deleteOptions as DeleteOptions (read after mutating admission, which may change them). */
  deleteOptionsOf(eviction: Eviction): DeleteOptions;
  /** The request's CreateOptions: its dryRun overrides the one inside the Eviction's deleteOptions (propagateDryRun). */
  options: WriteOptions;
}

type Json = Record<string, unknown>;
const status = (o: KubeObject): Json => (o.status ?? {}) as Json;

/** canIgnorePDB: a pod that is not running (or is going anyway) disrupts nothing. */
function canIgnoreBudget(pod: KubeObject): boolean {
  const phase = status(pod).phase;
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || pod.metadata?.deletionTimestamp !== undefined;
}

/** podutil.IsPodReady */
const isReady = (pod: KubeObject): boolean =>
  ((status(pod).conditions as Json[] | undefined) ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

function disruptionBudgetError(message: string, retryAfterSeconds: number): StatusError {
  return new StatusError({
    message: CANNOT_EVICT,
    reason: 'TooManyRequests',
    details: { ...(retryAfterSeconds ? { retryAfterSeconds } : {}), causes: [{ reason: 'DisruptionBudget', message }] },
    code: 429,
  });
}

/** The PDBs of the namespace whose selector selects the pod (an empty or invalid selector selects nothing). */
async function budgetsFor(budgets: GenericRegistry, pod: KubeObject, namespace: string): Promise<KubeObject[]> {
  const out: KubeObject[] = [];
  for (const pdb of (await budgets.list(namespace, {})).items) {
    // GetPodPodDisruptionBudgets: a selector that cannot be built, an empty one (Everything) and a
    // nil one (Nothing) select no pod.
    const selector = tryLabelSelectorAsSelector((pdb.spec as Json | undefined)?.selector);
    if (!selector || selector.empty) continue;
    if (selector.matches(pod.metadata?.labels)) out.push(pdb);
  }
  return out;
}

/** EvictionREST.Create: the Status it answers (201), or a StatusError. */
export async function evictPod(eviction: Eviction, r: EvictionContext): Promise<Record<string, unknown>> {
  // Admission sees the Eviction as decoded (create.go runs the mutating phase before
  // EvictionREST.Create, which calls the validating phase after its name check), as
  // CREATE of pods/eviction with kind policy/v1 Eviction.
  eviction.apiVersion = 'policy/v1';
  eviction.kind = 'Eviction';
  const type = createSubresourceTypeOf(r.pods.type, 'eviction', EVICTION_KIND);
  await r.pods.admitSubresourceCreate(type, EVICTION_KIND, r.namespace, r.name, eviction as KubeObject, r.options, () => {
    if (eviction.metadata?.name !== r.name) throw badRequest('name in URL does not match name in Eviction object');
  });
  const requestDryRun = r.options.dryRun ?? [];
  const embedded = r.deleteOptionsOf(eviction);
  const deleteOptions: DeleteOptions = requestDryRun.length ? { ...embedded, dryRun: [...requestDryRun] } : embedded;
  const dryRun = (deleteOptions.dryRun ?? []).length > 0;
  const pod = await r.pods.get(r.namespace, r.name);
  const budgetRegistry = r.registryOf('policy', 'v1', 'poddisruptionbudgets');
  if (!canIgnoreBudget(pod) && budgetRegistry) {
    const budgets = await budgetsFor(budgetRegistry, pod, r.namespace);
    if (budgets.length > 1) return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.', code: 500 };
    const pdb = budgets[0];
    if (pdb && !unhealthyPodMayGo(pod, pdb)) spendDisruption(budgetRegistry, pdb, r.name, r.now, dryRun);
  }
  let options = deleteOptions;
  if (!dryRun) {
    // addConditionAndDeletePod: the DisruptionTarget condition on the latest pod, its
    // preconditions checked first (nothing is written when they fail), then the delete.
    const updated = r.pods.systemUpdate(r.namespace, r.name, (p) => {
      checkEvictionPreconditions(p, deleteOptions);
      const s = (p.status ??= {}) as { conditions?: Json[] };
      const conditions = (s.conditions ??= []);
      const condition = { type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime: formatTimestamp(r.now), reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' };
      const at = conditions.findIndex((c) => c.type === 'DisruptionTarget');
      if (at >= 0) {
        if (conditions[at]!.status === 'True') return false;
        conditions[at] = condition;
      } else conditions.push(condition);
      return true;
    });
    // The update moved the pod's resourceVersion: a resourceVersion precondition follows it.
    const rv = updated?.metadata.resourceVersion;
    if (options.preconditions?.resourceVersion !== undefined && rv !== undefined) options = { ...options, preconditions: { ...options.preconditions, resourceVersion: rv } };
  }
  await r.pods.delete(r.namespace, r.name, options);
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' };
}

const num = (v: unknown) => (typeof v === 'number' ? v : 0);

/**
 * An unready pod the budget does not protect: AlwaysAllow, or (IfHealthyBudget, the default) the
 * application is healthy as it is (currentHealthy >= desiredHealthy > 0). Such a pod is deleted
 * without spending a disruption.
 */
function unhealthyPodMayGo(pod: KubeObject, pdb: KubeObject): boolean {
  if (isReady(pod)) return false;
  if ((pdb.spec as Json | undefined)?.unhealthyPodEvictionPolicy === 'AlwaysAllow') return true;
  const s = status(pdb);
  return num(s.currentHealthy) >= num(s.desiredHealthy) && num(s.desiredHealthy) > 0;
}

/** addConditionAndDeletePod's getLatestPod: the delete's preconditions against the latest pod, with its texts. */
function checkEvictionPreconditions(pod: KubeObject, options: DeleteOptions): void {
  const gr = { group: '', resource: 'Pod' };
  const name = pod.metadata?.name ?? '';
  const { uid, resourceVersion } = options.preconditions ?? {};
  if (uid && uid !== pod.metadata?.uid) {
    throw conflict(gr, name, `the UID in the precondition (${uid}) does not match the UID in record (${pod.metadata?.uid ?? ''}). The object might have been deleted and then recreated`);
  }
  if (resourceVersion && resourceVersion !== pod.metadata?.resourceVersion) {
    throw conflict(gr, name, `the ResourceVersion in the precondition (${resourceVersion}) does not match the ResourceVersion in record (${pod.metadata?.resourceVersion ?? ''}). The object might have been modified`);
  }
}

/**
 * checkAndDecrement with its retry on conflict: the budget is checked again on the stored object
 * inside the (synchronous) update, so two evictions cannot both spend the last disruption.
 */
function spendDisruption(budgets: GenericRegistry, pdb: KubeObject, podName: string, now: Date, dryRun: boolean): void {
  checkBudget(pdb);
  if (dryRun) return;
  budgets.systemUpdate(pdb.metadata?.namespace, pdb.metadata?.name ?? '', (b) => {
    checkBudget(b);
    const st = (b.status ??= {}) as Json;
    st.disruptionsAllowed = num(st.disruptionsAllowed) - 1;
    if (st.disruptionsAllowed === 0) {
      // pdbhelper.UpdateDisruptionAllowedCondition with apimeta.SetStatusCondition: the transition
      // time moves only when the status does.
      const conditions = (st.conditions as Json[] | undefined) ?? [];
      const fields = { type: 'DisruptionAllowed', status: 'False', observedGeneration: num(st.observedGeneration), reason: 'InsufficientPods', message: '' };
      const at = conditions.findIndex((c) => c.type === 'DisruptionAllowed');
      if (at < 0) conditions.push({ ...fields, lastTransitionTime: formatTimestamp(now) });
      else conditions[at] = { ...fields, lastTransitionTime: conditions[at]!.status === 'False' ? conditions[at]!.lastTransitionTime : formatTimestamp(now) };
      st.conditions = conditions;
    }
    st.disruptedPods = { ...((st.disruptedPods as Json | undefined) ?? {}), [podName]: formatTimestamp(now) };
    return true;
  });
}

/** checkAndDecrement's checks: whether the budget allows one more disruption. */
function checkBudget(pdb: KubeObject): void {
  const name = pdb.metadata?.name ?? '';
  const s = status(pdb);
  if (num(s.observedGeneration) < num(pdb.metadata?.generation)) throw disruptionBudgetError(`The disruption budget ${name} is still being processed by the server.`, 10);
  if (num(s.disruptionsAllowed) < 0) throw forbidden({ group: 'policy', resource: 'poddisruptionbudget' }, name, 'pdb disruptions allowed is negative');
  if (Object.keys((s.disruptedPods as Json | undefined) ?? {}).length > MAX_DISRUPTED_POD_SIZE) {
    throw forbidden({ group: 'policy', resource: 'poddisruptionbudget' }, name, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
  }
  if (num(s.disruptionsAllowed) === 0) {
    throw disruptionBudgetError(`The disruption budget ${name} needs ${num(s.desiredHealthy)} healthy pods and has ${num(s.currentHealthy)} currently`, 0);
  }
}

