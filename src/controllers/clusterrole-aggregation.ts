// The clusterrole-aggregation controller (pkg/controller/clusterroleaggregation): a ClusterRole
// with an aggregationRule gets, as its rules, the rules of every other ClusterRole its selectors
// pick, selector by selector, roles in name order, each rule once. It writes them as upstream's
// applyClusterRoles does: a server-side apply of only `rules`, field manager
// `clusterrole-aggregation-controller`, forced, so the role's managedFields name the controller.
import type { StoreEvent } from '../storage/versioned-store.ts';
import type { ApplyPatch } from '../apply/apply-patch.ts';
import { deepEqual } from '../util/deep-equal.ts';
import { labelSelectorAsSelector } from '../selectors/label-selector-as-selector.ts';
import { QueueController } from './queue-controller.ts';
import { compareGoStrings } from '../selectors/go-strings.ts';

const BUCKET = 'rbac.authorization.k8s.io/clusterroles';

interface AggregationRule {
  clusterRoleSelectors?: unknown[];
}

/** The controller's name, and the field manager of its apply of an aggregated role's rules. */
export const AGGREGATION_CONTROLLER = 'clusterrole-aggregation-controller';

export class ClusterRoleAggregationController extends QueueController {
  readonly name = AGGREGATION_CONTROLLER;

  override start(): void {
    super.start();
    // Roles stored before the controller started (the bootstrap's) are aggregated too.
    this.enqueueAggregated();
  }

  protected observe(event: StoreEvent): void {
    // Any ClusterRole may feed any aggregated one: every aggregated role is looked at again.
    if (event.bucket === BUCKET) this.enqueueAggregated();
  }

  private enqueueAggregated(): void {
    for (const { key, object } of this.ctx.store.list(BUCKET, '')) if ((object as { aggregationRule?: unknown }).aggregationRule) this.queue.add(key);
  }

  protected async sync(name: string): Promise<void> {
    const role = this.ctx.store.get(BUCKET, name) as ({ aggregationRule?: AggregationRule; rules?: unknown[] | null } & object) | undefined;
    const selectors = role?.aggregationRule?.clusterRoleSelectors;
    if (!role || !selectors) return;
    const rules = aggregatedRules(
      selectors,
      this.ctx.store.list(BUCKET, '').filter(({ key }) => key !== name).map(({ object }) => object),
    );
    if (deepEqual(role.rules ?? [], rules)) return;
    const type = this.ctx.catalog.find('rbac.authorization.k8s.io', 'v1', 'clusterroles')!;
    // rbacv1ac.ClusterRole(name).WithRules(...): no rules at all leaves `rules` out (omitempty),
    // which takes the controller's rules away.
    const config: Record<string, unknown> = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name } };
    if (rules.length > 0) config.rules = structuredClone(rules);
    const apply: ApplyPatch = { kind: 'apply', config, force: true, fieldValidation: 'Strict' };
    await this.ctx.registryFor(type).patch(undefined, name, apply, { fieldManager: this.name });
  }
}

/**
 * The rules an aggregated ClusterRole gets from `others` (every other ClusterRole): selector by
 * selector, roles in name order, each rule once. Also what the bootstrap's admin/edit/view hold
 * when a cluster starts (src/cluster/bootstrap-rbac.ts), so the controller finds nothing to do.
 */
export function aggregatedRules(selectors: readonly unknown[], others: readonly { metadata: { name?: string; labels?: Record<string, string> } }[]): unknown[] {
  const sorted = [...others].sort((a, b) => compareGoStrings(a.metadata.name ?? '', b.metadata.name ?? ''));
  const rules: unknown[] = [];
  for (const selector of selectors) {
    const matcher = labelSelectorAsSelector(selector);
    for (const object of sorted) {
      if (!matcher.matches(object.metadata.labels)) continue;
      for (const rule of ((object as { rules?: unknown[] | null }).rules ?? [])) if (!rules.some((r) => deepEqual(r, rule))) rules.push(rule);
    }
  }
  return rules;
}
