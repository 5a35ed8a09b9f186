// Assertions for kubefake tests, independent of the test framework: each returns
// `{ pass, message }` as both Vitest's and Jest's expect.extend() want.
import type { KubeObject } from '../apis/object.ts';
import type { FakeCluster } from '../cluster/fake-cluster.ts';
import { toRef, type ObjectTarget } from './object-ref.ts';
import { loadManifests, type Manifests } from '../cluster/manifests.ts';
import type { UsedPermission } from '../auth/permissions.ts';

/** What a matcher answers, in the shape Vitest's and Jest's expect.extend() take. */
export interface MatcherResult {
  /** Whether the assertion holds (before `.not`). */
  pass: boolean;
  /** The failure message. */
  message: () => string;
}

/** What `toHaveCondition` compares: a status, or any of status, reason and message. */
export type ExpectedCondition = 'True' | 'False' | 'Unknown' | { status?: string; reason?: string; message?: string };

interface Condition {
  type?: unknown;
  status?: unknown;
  reason?: unknown;
  message?: unknown;
}

/**
 * `expect(obj).toHaveCondition('Established')`: the object has a `status.conditions` entry of
 * that type whose status is `True` (or what `expected` names: a status, or status/reason/message).
 */
export function toHaveCondition(this: { isNot?: boolean } | void, received: unknown, type: string, expected: ExpectedCondition = 'True'): MatcherResult {
  const want = typeof expected === 'string' ? { status: expected } : expected;
  const conditions = conditionsOf(received);
  const found = conditions.find((c) => c.type === type);
  const pass = !!found && (Object.keys(want) as Array<keyof typeof want>).every((k) => want[k] === undefined || found[k] === want[k]);
  const wanted = Object.entries(want)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k} ${JSON.stringify(v)}`)
    .join(', ');
  const has = conditions.length ? conditions.map(describeCondition).join('; ') : 'none';
  const not = this && this.isNot ? 'not ' : '';
  return { pass, message: () => `expected ${describeObject(received)} ${not}to have condition ${type} with ${wanted}; its conditions: ${has}` };
}

/** `expect(ref).toExistInCluster(cluster)`: the object (or `{ kind, name, namespace? }`) is stored in the cluster now. */
export function toExistInCluster(this: { isNot?: boolean } | void, received: unknown, cluster: FakeCluster): MatcherResult {
  const ref = toRef(received as ObjectTarget);
  const found = cluster.get(ref);
  const where = ref.namespace ? `${ref.namespace}/${ref.name}` : ref.name;
  return {
    pass: found !== undefined,
    message: () => (found ? `expected ${ref.kind} ${where} not to exist in the cluster, but it does (resourceVersion ${found.metadata?.resourceVersion})` : `expected ${ref.kind} ${where} to exist in the cluster, but it does not`),
  };
}

/**
 * `await expect(cluster.permissions.used(identity)).toBeAllowedBy('config/rbac/role.yaml')`: the
 * Roles and ClusterRoles in `manifests` (YAML text, paths, objects) allow every permission used,
 * as if bound to the identity (an `auth: true` cluster's permission log; docs/auth.md).
 */
export async function toBeAllowedBy(this: { isNot?: boolean } | void, received: unknown, manifests: Manifests): Promise<MatcherResult> {
  const roles = (await loadManifests(manifests)) as Record<string, unknown>[];
  // The RBAC rule evaluation loads with the first use, as the rest of auth does.
  const { notAllowedBy } = await import('../auth/permissions.ts');
  const missing = notAllowedBy(received as UsedPermission[], roles);
  const show = (p: UsedPermission) => (p.path !== undefined ? `${p.verb} ${p.path}` : `${p.verb} ${p.group ? `${p.group}/` : ''}${p.resource}${p.subresource ? `/${p.subresource}` : ''}${p.name ? ` ${JSON.stringify(p.name)}` : ''}${p.namespace ? ` in ${p.namespace}` : ''}`);
  return {
    pass: missing.length === 0,
    message: () => (missing.length ? `expected the roles to allow every permission used; they do not allow:\n  ${missing.map(show).join('\n  ')}` : 'expected the roles not to allow every permission used, but they do'),
  };
}

/** Every matcher, for `expect.extend(kubefakeMatchers)` in Jest or Vitest. */
export const kubefakeMatchers = { toHaveCondition, toExistInCluster, toBeAllowedBy };

function conditionsOf(received: unknown): Condition[] {
  const conditions = (received as { status?: { conditions?: unknown } } | undefined)?.status?.conditions;
  return Array.isArray(conditions) ? (conditions as Condition[]) : [];
}

function describeCondition(c: Condition): string {
  const extra = [c.reason, c.message].filter((v) => v !== undefined && v !== '').join(': ');
  return `${String(c.type)}=${String(c.status)}${extra ? ` (${extra})` : ''}`;
}

function describeObject(received: unknown): string {
  const obj = received as KubeObject | undefined;
  if (!obj || typeof obj !== 'object') return String(received);
  return `${obj.kind ?? 'object'} ${obj.metadata?.namespace ? `${obj.metadata.namespace}/` : ''}${obj.metadata?.name ?? ''}`.trim();
}
