// The bootstrap RBAC policy every cluster starts with, whatever its authorization mode, as
// kube-apiserver's rbac/bootstrap-roles PostStartHook installs it (pkg/registry/rbac/rest/storage_rbac.go).
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { kubectlAvailable, kubectlRunner, type Kubectl } from './support/kubectl.ts';

const CLUSTER_ROLE = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole' } as const;

/** The rules of every ClusterRole carrying `label`, each once, in name order (what aggregation collects). */
function rulesLabelled(roles: k8s.V1ClusterRole[], label: string): k8s.V1PolicyRule[] {
  const out: k8s.V1PolicyRule[] = [];
  for (const role of [...roles].sort((a, b) => (a.metadata!.name! < b.metadata!.name! ? -1 : 1))) {
    if (role.metadata?.labels?.[label] !== 'true') continue;
    for (const rule of role.rules ?? []) if (!out.some((r) => JSON.stringify(r) === JSON.stringify(rule))) out.push(rule);
  }
  return out;
}

describe('bootstrap RBAC on a default cluster (no auth)', () => {
  let cluster: FakeCluster;
  let rbac: k8s.RbacAuthorizationV1Api;
  beforeAll(async () => {
    cluster = await createFakeCluster();
    rbac = cluster.kubeConfig.makeApiClient(k8s.RbacAuthorizationV1Api);
  });
  afterAll(() => cluster.close());

  it('lists the user-facing and system ClusterRoles, labelled and annotated as the bootstrap policy', async () => {
    const roles = (await rbac.listClusterRole()).items;
    const names = roles.map((r) => r.metadata!.name);
    for (const name of ['cluster-admin', 'admin', 'edit', 'view', 'system:aggregate-to-admin', 'system:aggregate-to-edit', 'system:aggregate-to-view', 'system:basic-user', 'system:discovery', 'system:public-info-viewer', 'system:auth-delegator', 'system:monitoring', 'system:service-account-issuer-discovery']) {
      expect(names).toContain(name);
    }
    for (const role of roles) {
      expect(role.metadata?.labels?.['kubernetes.io/bootstrapping']).toBe('rbac-defaults');
      expect(role.metadata?.annotations?.['rbac.authorization.kubernetes.io/autoupdate']).toBe('true');
      expect(role.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
      expect(role.metadata?.creationTimestamp).toBeInstanceOf(Date);
    }
    expect((await rbac.readClusterRole({ name: 'cluster-admin' })).rules).toEqual([
      { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
      { nonResourceURLs: ['*'], verbs: ['*'] },
    ]);
  });

  it('binds cluster-admin to system:masters and the discovery roles to every authenticated user', async () => {
    const bindings = (await rbac.listClusterRoleBinding()).items;
    const admin = bindings.find((b) => b.metadata?.name === 'cluster-admin');
    expect(admin?.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' });
    expect(admin?.subjects).toEqual([{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:masters' }]);
    const discovery = bindings.find((b) => b.metadata?.name === 'system:discovery');
    expect(discovery?.subjects).toEqual([{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:authenticated' }]);
  });

  it('holds the bootstrap Roles and RoleBindings of kube-system and kube-public, managed as any client creating them would be', async () => {
    const system = (await rbac.listNamespacedRole({ namespace: 'kube-system' })).items.map((r) => r.metadata!.name);
    expect(system).toEqual(expect.arrayContaining(['extension-apiserver-authentication-reader', 'system::leader-locking-kube-controller-manager', 'system::leader-locking-kube-scheduler', 'system:controller:bootstrap-signer', 'system:controller:token-cleaner']));
    expect((await rbac.listNamespacedRole({ namespace: 'kube-public' })).items.map((r) => r.metadata!.name)).toEqual(['system:controller:bootstrap-signer']);
    expect((await rbac.listNamespacedRole({ namespace: 'default' })).items).toEqual([]);
    const binding = await rbac.readNamespacedRoleBinding({ namespace: 'kube-system', name: 'system::leader-locking-kube-scheduler' });
    expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'system::leader-locking-kube-scheduler' });
    expect(binding.subjects).toEqual([
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'system:kube-scheduler' },
      { kind: 'ServiceAccount', name: 'kube-scheduler', namespace: 'kube-system' },
    ]);
    const copy = await rbac.createNamespacedRoleBinding({
      namespace: 'kube-system',
      body: { metadata: { name: 'copy', labels: binding.metadata!.labels, annotations: binding.metadata!.annotations }, roleRef: binding.roleRef, subjects: binding.subjects },
      fieldManager: 'test',
    });
    expect(binding.metadata?.managedFields).toHaveLength(1);
    expect(binding.metadata?.managedFields?.[0]).toMatchObject({ manager: 'kube-apiserver', operation: 'Update', fieldsV1: copy.metadata?.managedFields?.[0]?.fieldsV1 });
    await rbac.deleteNamespacedRoleBinding({ namespace: 'kube-system', name: 'copy' });
  });

  it('serves view, edit and admin already aggregated: view from aggregate-to-view, edit and admin on top of the roles they select', async () => {
    const roles = (await rbac.listClusterRole()).items;
    const rulesOf = (name: string) => roles.find((r) => r.metadata?.name === name)!.rules;
    expect(rulesOf('view')).toEqual(rulesLabelled(roles, 'rbac.authorization.k8s.io/aggregate-to-view'));
    expect(rulesOf('edit')).toEqual(rulesLabelled(roles, 'rbac.authorization.k8s.io/aggregate-to-edit'));
    expect(rulesOf('admin')).toEqual(rulesLabelled(roles, 'rbac.authorization.k8s.io/aggregate-to-admin'));
    // edit is labelled aggregate-to-admin and view aggregate-to-edit: their aggregated rules flow on.
    expect(rulesOf('admin')).toEqual(expect.arrayContaining(rulesOf('edit')!));
    expect(rulesOf('edit')).toEqual(expect.arrayContaining(rulesOf('view')!));
    expect(rulesOf('view')!.length).toBeGreaterThan(0);
  });

  it('leaves the aggregation controller nothing to write after start', async () => {
    await using fresh = await createFakeCluster();
    const before = (await fresh.kubeConfig.makeApiClient(k8s.RbacAuthorizationV1Api).listClusterRole()).metadata?.resourceVersion;
    await fresh.settle();
    expect(fresh.history.all({ kind: 'ClusterRole' })).toEqual([]);
    expect((await fresh.kubeConfig.makeApiClient(k8s.RbacAuthorizationV1Api).listClusterRole()).metadata?.resourceVersion).toBe(before);
  });

  it('records managedFields as kube-apiserver creating them and the aggregation controller applying the rules', async () => {
    const view = await rbac.readClusterRole({ name: 'view' });
    expect(view.metadata?.managedFields?.map((m) => [m.manager, m.operation])).toEqual([
      ['clusterrole-aggregation-controller', 'Apply'],
      ['kube-apiserver', 'Update'],
    ]);
    expect(view.metadata?.managedFields?.[0]?.fieldsV1).toEqual({ 'f:rules': {} });
    // The apiserver's entry is what the field manager records for any client creating the same role.
    const copy = await rbac.createClusterRole({
      body: { metadata: { name: 'copy-of-edit-inputs', labels: view.metadata!.labels, annotations: view.metadata!.annotations }, aggregationRule: view.aggregationRule },
      fieldManager: 'test',
    });
    const created = copy.metadata?.managedFields?.find((m) => m.manager === 'test');
    expect(view.metadata?.managedFields?.[1]?.fieldsV1).toEqual(created?.fieldsV1);
    const admin = await rbac.readClusterRole({ name: 'cluster-admin' });
    const plain = await rbac.createClusterRole({ body: { metadata: { name: 'copy-of-cluster-admin', labels: admin.metadata!.labels, annotations: admin.metadata!.annotations }, rules: admin.rules }, fieldManager: 'test' });
    expect(admin.metadata?.managedFields).toHaveLength(1);
    expect(admin.metadata?.managedFields?.[0]).toMatchObject({ manager: 'kube-apiserver', operation: 'Update', fieldsV1: plain.metadata?.managedFields?.[0]?.fieldsV1 });
  });

  it('are the cluster’s own objects: left out of snapshot() and diff() until changed, shown with includeBootstrap', async () => {
    await using fresh = await createFakeCluster();
    expect(fresh.snapshot().filter((o) => o.apiVersion === 'rbac.authorization.k8s.io/v1')).toEqual([]);
    expect(fresh.snapshot({ includeBootstrap: true }).filter((o) => o.kind === 'RoleBinding').map((o) => o.metadata?.namespace)).toContain('kube-public');
    const all = fresh.snapshot({ includeBootstrap: true }).filter((o) => o.kind === 'ClusterRole').map((o) => o.metadata?.name);
    expect(all).toContain('cluster-admin');
    const before = fresh.snapshot();
    const client = fresh.kubeConfig.makeApiClient(k8s.RbacAuthorizationV1Api);
    await client.patchClusterRole({ name: 'system:basic-user', body: { metadata: { labels: { team: 'a' } } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    const diff = fresh.diff(before);
    expect(diff.created.map((o) => `${o.kind} ${o.name}`)).toEqual(['ClusterRole system:basic-user']);
  });

  it('gives each cluster its own objects: a change in one leaves the next cluster’s untouched', async () => {
    await using first = await createFakeCluster();
    const client = first.kubeConfig.makeApiClient(k8s.RbacAuthorizationV1Api);
    await client.replaceClusterRole({ name: 'view', body: { ...(await client.readClusterRole({ name: 'view' })), aggregationRule: undefined, rules: [] } });
    await client.deleteClusterRole({ name: 'cluster-admin' });
    await using second = await createFakeCluster();
    expect(second.get({ ...CLUSTER_ROLE, name: 'cluster-admin' })).toBeDefined();
    expect((second.get({ ...CLUSTER_ROLE, name: 'view' }) as { rules?: unknown[] }).rules?.length).toBeGreaterThan(0);
    expect(second.get({ ...CLUSTER_ROLE, name: 'view' })?.metadata?.uid).not.toBe(first.get({ ...CLUSTER_ROLE, name: 'view' })?.metadata?.uid);
  });

  it('stay deterministic: two deterministic clusters hold byte-identical bootstrap objects', async () => {
    await using a = await createFakeCluster({ deterministic: true, seed: 7 });
    await using b = await createFakeCluster({ deterministic: true, seed: 7 });
    const rbacOf = (c: FakeCluster) => c.snapshot({ includeBootstrap: true, format: 'yaml' }).split('\n---\n').filter((doc) => doc.includes('kind: ClusterRole')).join('\n---\n');
    expect(rbacOf(a)).not.toBe('');
    expect(rbacOf(a)).toBe(rbacOf(b));
  });
});

describe('bootstrap RBAC on an auth: true cluster', () => {
  it('lets an authenticated user run self-reviews and discovery through the bootstrap bindings, and nothing else', async () => {
    await using cluster = await createFakeCluster({ auth: true });
    const user = cluster.kubeConfigFor({ user: 'jane' });
    const review = await user.makeApiClient(k8s.AuthorizationV1Api).createSelfSubjectAccessReview({ body: { spec: { resourceAttributes: { verb: 'list', resource: 'pods', namespace: 'default' } } } });
    expect(review.status?.allowed).toBe(false);
    expect((await user.makeApiClient(k8s.CoreApi).getAPIVersions()).versions).toEqual(['v1']);
    await expect(user.makeApiClient(k8s.CoreV1Api).listNamespacedPod({ namespace: 'default' })).rejects.toMatchObject({ code: 403 });
    expect((await cluster.kubeConfig.makeApiClient(k8s.RbacAuthorizationV1Api).readClusterRole({ name: 'view' })).rules?.length).toBeGreaterThan(0);
  });
});

describe.skipIf(!kubectlAvailable)('kubectl get clusterroles on a default cluster', () => {
  let cluster: FakeCluster;
  let kubectl: Kubectl;
  beforeAll(async () => {
    cluster = await createFakeCluster();
    kubectl = kubectlRunner((await cluster.listen()).kubeconfig);
  });
  afterAll(() => cluster.close());

  it('lists cluster-admin, admin, edit, view and the system roles', async () => {
    const { code, stdout, stderr } = await kubectl(['get', 'clusterroles', '-o', 'name']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const names = stdout.trim().split('\n');
    for (const name of ['cluster-admin', 'admin', 'edit', 'view', 'system:discovery', 'system:basic-user']) expect(names).toContain(`clusterrole.rbac.authorization.k8s.io/${name}`);
  });

  it('pages through them with --chunk-size=10, listing the same as one request', async () => {
    const whole = await kubectl(['get', 'clusterroles', '--chunk-size=0']);
    cluster.requests.clear();
    const paged = await kubectl(['get', 'clusterroles', '--chunk-size=10']);
    expect(paged.code).toBe(0);
    expect(paged.stdout).toBe(whole.stdout);
    const lists = cluster.requests.all({ verb: 'list', resource: 'clusterroles' });
    const count = cluster.list({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole' }).length;
    expect(count).toBeGreaterThan(10);
    expect(lists).toHaveLength(Math.ceil(count / 10));
    const pages = (await Promise.all(lists.map((r) => r.responseBody()))) as { metadata: { continue?: string }; rows?: unknown[]; items?: unknown[] }[];
    expect(pages.map((p) => (p.rows ?? p.items)!.length)).toEqual(pages.map((_, i) => Math.min(10, count - 10 * i)));
    expect(pages.map((p) => !!p.metadata.continue)).toEqual(pages.map((_, i) => i < pages.length - 1));
  });

  it('lists the bootstrap Roles of kube-system', async () => {
    const { code, stdout } = await kubectl(['get', 'roles', '-n', 'kube-system', '-o', 'name']);
    expect(code).toBe(0);
    expect(stdout).toContain('role.rbac.authorization.k8s.io/extension-apiserver-authentication-reader\n');
  });

  it('shows view’s aggregated rules in describe', async () => {
    const { code, stdout } = await kubectl(['describe', 'clusterrole', 'view']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^\s+pods\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
  });
});

describe('the generated bootstrap objects', () => {
  it('are what bootstrap-rbac-templates.ts derives from the upstream policy files (rerun scripts/gen-bootstrap-rbac.mjs when they change)', async () => {
    const { readFileSync } = await import('node:fs');
    const { load } = await import('js-yaml');
    const { bootstrapTemplates } = await import('../src/cluster/bootstrap-rbac-templates.ts');
    const { BOOTSTRAP_RBAC } = await import('../src/generated/bootstrap-rbac.ts');
    const items = (file: string) =>
      (load(readFileSync(new URL(`../scripts/upstream/v1.36/rbac/${file}`, import.meta.url), 'utf8')) as { items: { metadata: Record<string, unknown> }[] }).items.map((item) => {
        const { creationTimestamp: _c, ...metadata } = item.metadata;
        return { ...item, metadata };
      });
    const derived = bootstrapTemplates({ clusterRoles: items('cluster-roles.yaml'), clusterRoleBindings: items('cluster-role-bindings.yaml'), roles: items('namespace-roles.yaml'), roleBindings: items('namespace-role-bindings.yaml') });
    expect(JSON.parse(JSON.stringify(derived))).toEqual(JSON.parse(JSON.stringify(BOOTSTRAP_RBAC)));
    expect(derived.map((t) => t.bucket.split('/')[1])).toEqual([...Array(13).fill('clusterroles'), ...Array(6).fill('clusterrolebindings'), ...Array(7).fill('roles'), ...Array(7).fill('rolebindings')]);
  });
});
