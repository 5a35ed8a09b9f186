// Identities and RBAC (issue 23): createFakeCluster({ auth: true }) authenticates every request,
// authorizes it with the stored Roles and bindings (the bootstrap roles installed) and answers the
// real 401/403 texts; cluster.permissions records what each identity used.
import * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { kubectlAvailable, kubectlRunner } from './support/kubectl.ts';

const rbac = (cluster: FakeCluster) => cluster.kubeConfig.makeApiClient(k8s.RbacAuthorizationV1Api);

async function bind(cluster: FakeCluster, namespace: string, name: string, rules: k8s.V1PolicyRule[], subject: k8s.RbacV1Subject) {
  await rbac(cluster).createNamespacedRole({ namespace, body: { metadata: { name }, rules } });
  await rbac(cluster).createNamespacedRoleBinding({ namespace, body: { metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name }, subjects: [subject] } });
}

const failure = async (p: Promise<unknown>) => {
  const err = (await p.then(() => undefined, (e: unknown) => e)) as k8s.ApiException<string> | undefined;
  if (!err) throw new Error('expected the request to fail');
  // A path nothing serves answers go-restful's plain-text 404.
  const status = err.body.startsWith('{') ? (JSON.parse(err.body) as { message: string; reason: string; details?: unknown }) : { message: err.body, reason: '' };
  return { code: err.code, status };
};

describe('auth: true', () => {
  it('answers 401 for a token nobody issued, and serves cluster.kubeConfig as an administrator', async () => {
    await using cluster = await createFakeCluster({ auth: true });
    const stranger = new k8s.KubeConfig();
    stranger.loadFromOptions({ ...JSON.parse(cluster.kubeConfig.exportConfig()), users: [{ name: 'kubefake', token: 'who-knows' }] });
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    expect((await core.listNamespace()).items.length).toBeGreaterThan(0);
    const err = (await cluster.handle(new Request(`${cluster.url}/api/v1/namespaces`, { headers: { authorization: 'Bearer who-knows' } }))).status;
    expect(err).toBe(401);
    const body = await (await cluster.handle(new Request(`${cluster.url}/api/v1/namespaces`, { headers: { authorization: 'Bearer who-knows' } }))).json();
    expect(body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
  });

  it('forbids what no binding allows, with the real texts for namespaced, named, subresource and cluster-scoped requests', async () => {
    await using cluster = await createFakeCluster({ auth: true });
    const jane = cluster.kubeConfigFor({ user: 'jane' });
    const core = jane.makeApiClient(k8s.CoreV1Api);
    expect(await failure(core.listNamespacedPod({ namespace: 'default' }))).toEqual({
      code: 403,
      status: expect.objectContaining({ message: 'pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"', reason: 'Forbidden', details: { kind: 'pods' } }),
    });
    expect((await failure(core.readNamespacedConfigMap({ name: 'b', namespace: 'default' }))).status.message).toBe(
      'configmaps "b" is forbidden: User "jane" cannot get resource "configmaps" in API group "" in the namespace "default"',
    );
    expect((await failure(jane.makeApiClient(k8s.AppsV1Api).readNamespacedDeploymentScale({ name: 'web', namespace: 'default' }))).status.message).toBe(
      'deployments.apps "web" is forbidden: User "jane" cannot get resource "deployments/scale" in API group "apps" in the namespace "default"',
    );
    expect((await failure(core.listNamespace())).status.message).toBe('namespaces is forbidden: User "jane" cannot list resource "namespaces" in API group "" at the cluster scope');
  });

  it('a denial names the bound roles that do not exist, as RBAC resolution errors (rbac.go)', async () => {
    await using cluster = await createFakeCluster({ auth: true });
    const jane = { kind: 'User', name: 'jane', apiGroup: 'rbac.authorization.k8s.io' };
    await rbac(cluster).createClusterRoleBinding({ body: { metadata: { name: 'ghost' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'ghost' }, subjects: [jane] } });
    const core = cluster.kubeConfigFor({ user: 'jane' }).makeApiClient(k8s.CoreV1Api);
    expect((await failure(core.listNamespace())).status.message).toBe(
      'namespaces is forbidden: User "jane" cannot list resource "namespaces" in API group "" at the cluster scope: RBAC: clusterrole.rbac.authorization.k8s.io "ghost" not found',
    );
    // In a namespace the role bindings there count too: several errors print as a bracketed list.
    await rbac(cluster).createNamespacedRoleBinding({ namespace: 'default', body: { metadata: { name: 'phantom' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'phantom' }, subjects: [jane] } });
    expect((await failure(core.listNamespacedPod({ namespace: 'default' }))).status.message).toBe(
      'pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default": RBAC: [clusterrole.rbac.authorization.k8s.io "ghost" not found, role.rbac.authorization.k8s.io "phantom" not found]',
    );
  });

  it('allows what a Role bound to the user allows: verbs, resource names, subresources', async () => {
    await using cluster = await createFakeCluster({ auth: true });
    await cluster.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default' } });
    await bind(cluster, 'default', 'reader', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'], resourceNames: ['a'] }, { apiGroups: ['apps'], resources: ['deployments/scale'], verbs: ['get'] }], { kind: 'User', name: 'jane', apiGroup: 'rbac.authorization.k8s.io' });
    const core = cluster.kubeConfigFor({ user: 'jane' }).makeApiClient(k8s.CoreV1Api);
    expect((await core.readNamespacedConfigMap({ name: 'a', namespace: 'default' })).metadata?.name).toBe('a');
    expect((await failure(core.readNamespacedConfigMap({ name: 'b', namespace: 'default' }))).code).toBe(403);
    expect((await failure(core.listNamespacedConfigMap({ namespace: 'default' }))).code).toBe(403);
    // The scale subresource is allowed; the deployment is not there: 404, not 403.
    expect((await failure(cluster.kubeConfigFor({ user: 'jane' }).makeApiClient(k8s.AppsV1Api).readNamespacedDeploymentScale({ name: 'web', namespace: 'default' }))).code).toBe(404);
    // In another namespace the Role does not apply.
    expect((await failure(core.readNamespacedConfigMap({ name: 'a', namespace: 'kube-system' }))).code).toBe(403);
  });

  it('a list or watch whose fieldSelector pins metadata.name is a request for that name: resourceNames can allow it', async () => {
    await using cluster = await createFakeCluster({ auth: true });
    await cluster.apply([
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b', namespace: 'default' } },
    ]);
    await bind(cluster, 'default', 'just-a', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['list', 'watch'], resourceNames: ['a'] }], { kind: 'User', name: 'jane', apiGroup: 'rbac.authorization.k8s.io' });
    const core = cluster.kubeConfigFor({ user: 'jane' }).makeApiClient(k8s.CoreV1Api);
    expect((await core.listNamespacedConfigMap({ namespace: 'default', fieldSelector: 'metadata.name=a' })).items.map((c) => c.metadata?.name)).toEqual(['a']);
    expect((await failure(core.listNamespacedConfigMap({ namespace: 'default', fieldSelector: 'metadata.name=b' }))).status.message).toBe(
      'configmaps "b" is forbidden: User "jane" cannot list resource "configmaps" in API group "" in the namespace "default"',
    );
    expect((await failure(core.listNamespacedConfigMap({ namespace: 'default' }))).code).toBe(403);
    // The name is recorded as the request's, as the audit log's objectRef has it.
    expect(cluster.requests.all({ resource: 'configmaps', verb: 'list' }).map((r) => r.name)).toEqual(['a', 'b', undefined]);
  });

  it('binds groups and service accounts, and aggregates ClusterRoles into view', async () => {
    await using cluster = await createFakeCluster({ auth: true });
    await rbac(cluster).createNamespacedRoleBinding({
      namespace: 'default',
      body: { metadata: { name: 'viewers' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'Group', name: 'auditors', apiGroup: 'rbac.authorization.k8s.io' }, { kind: 'ServiceAccount', name: 'ctrl' }] },
    });
    for (const kc of [cluster.kubeConfigFor({ user: 'amy', groups: ['auditors'] }), cluster.kubeConfigFor({ serviceAccount: 'default/ctrl' })]) {
      expect((await kc.makeApiClient(k8s.CoreV1Api).listNamespacedPod({ namespace: 'default' })).items).toEqual([]);
    }
    const ctrl = cluster.kubeConfigFor({ serviceAccount: 'default/ctrl' }).makeApiClient(k8s.CoreV1Api);
    expect((await failure(ctrl.listNamespacedSecret({ namespace: 'default' }))).status.message).toBe(
      'secrets is forbidden: User "system:serviceaccount:default:ctrl" cannot list resource "secrets" in API group "" in the namespace "default"',
    );
    // A ClusterRole labelled aggregate-to-view adds its rules to view at once.
    expect((await failure(cluster.kubeConfigFor({ serviceAccount: 'default/ctrl' }).makeApiClient(k8s.CustomObjectsApi).listNamespacedCustomObject({ group: 'stable.example.com', version: 'v1', namespace: 'default', plural: 'crontabs' }))).code).toBe(403);
    await rbac(cluster).createClusterRole({ body: { metadata: { name: 'crontab-viewer', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } }, rules: [{ apiGroups: ['stable.example.com'], resources: ['crontabs'], verbs: ['list'] }] } });
    const after = await failure(cluster.kubeConfigFor({ serviceAccount: 'default/ctrl' }).makeApiClient(k8s.CustomObjectsApi).listNamespacedCustomObject({ group: 'stable.example.com', version: 'v1', namespace: 'default', plural: 'crontabs' }));
    expect(after.code).toBe(404); // allowed now; no such resource is served
    // The clusterrole-aggregation controller writes the union into view (and edit, admin, which aggregate view).
    await cluster.settle();
    for (const name of ['view', 'edit', 'admin']) {
      const role = await rbac(cluster).readClusterRole({ name });
      expect(role.rules, name).toContainEqual({ apiGroups: ['stable.example.com'], resources: ['crontabs'], verbs: ['list'] });
    }
  });

  it('starts with the bootstrap roles, admin/edit/view already aggregated, and leaves them out of snapshots', async () => {
    await using cluster = await createFakeCluster({ auth: true });
    const view = await rbac(cluster).readClusterRole({ name: 'view' });
    expect(view.rules?.[0]).toEqual({
      apiGroups: [''],
      resources: ['configmaps', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status'],
      verbs: ['get', 'list', 'watch'],
    });
    const admin = await rbac(cluster).readClusterRole({ name: 'admin' });
    expect(admin.rules).toContainEqual({ apiGroups: ['rbac.authorization.k8s.io'], resources: ['rolebindings', 'roles'], verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] });
    expect((await rbac(cluster).listClusterRoleBinding()).items.map((b) => b.metadata?.name)).toContain('system:discovery');
    expect(cluster.snapshot()).toEqual([]);
  });

  it('authenticates service account tokens from TokenRequest', async () => {
    await using cluster = await createFakeCluster({ auth: true });
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    await core.createNamespacedServiceAccount({ namespace: 'default', body: { metadata: { name: 'bot' } } });
    const { status } = await core.createNamespacedServiceAccountToken({ name: 'bot', namespace: 'default', body: { spec: { audiences: [] } } });
    const reply = await cluster.handle(new Request(`${cluster.url}/apis/authentication.k8s.io/v1/selfsubjectreviews`, { method: 'POST', headers: { authorization: `Bearer ${status!.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }) }));
    expect(reply.status).toBe(201);
    expect(((await reply.json()) as { status: { userInfo: unknown } }).status.userInfo).toEqual({
      username: 'system:serviceaccount:default:bot',
      uid: expect.any(String),
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
      // The token's jti as its credential id (ServiceAccountInfo.UserInfo, CredentialIDForJTI).
      extra: { 'authentication.kubernetes.io/credential-id': [`JTI=${JSON.parse(Buffer.from(status!.token!.split('.')[1]!, 'base64url').toString()).jti}`] },
    });
    // Once the service account is gone, its tokens are not accepted.
    await core.deleteNamespacedServiceAccount({ name: 'bot', namespace: 'default' });
    const after = await cluster.handle(new Request(`${cluster.url}/api/v1/namespaces/default/pods`, { headers: { authorization: `Bearer ${status!.token}` } }));
    expect(after.status).toBe(401);
  });

  it('accepts a service account token for a minute past its expiry (jwt.DefaultLeeway), not after', async () => {
    await using cluster = await createFakeCluster({ auth: true, clock: new Date('2026-01-01T00:00:00Z') });
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    await core.createNamespacedServiceAccount({ namespace: 'default', body: { metadata: { name: 'bot' } } });
    const { status } = await core.createNamespacedServiceAccountToken({ name: 'bot', namespace: 'default', body: { spec: { audiences: [], expirationSeconds: 600 } } });
    const listPods = async () => (await cluster.handle(new Request(`${cluster.url}/api/v1/namespaces/default/pods`, { headers: { authorization: `Bearer ${status!.token}` } }))).status;
    cluster.clock.advance(600_000 + 60_000);
    expect(await listPods()).not.toBe(401);
    cluster.clock.advance(1_000);
    expect(await listPods()).toBe(401);
  });

  it('lets discovery and /version through for every user, and forbids other paths with the path text', async () => {
    await using cluster = await createFakeCluster({ auth: true });
    const jane = cluster.kubeConfigFor({ user: 'jane' });
    expect((await jane.makeApiClient(k8s.VersionApi).getCode()).major).toBe('1');
    expect((await jane.makeApiClient(k8s.CoreV1Api).getAPIResources()).resources.length).toBeGreaterThan(0);
    const anonymous = await cluster.handle(new Request(`${cluster.url}/api`));
    expect(anonymous.status).toBe(403);
    expect(((await anonymous.json()) as { message: string }).message).toBe('forbidden: User "system:anonymous" cannot get path "/api"');
    const version = await cluster.handle(new Request(`${cluster.url}/version`));
    expect(version.status).toBe(200);
  });

  it('checks impersonation with the impersonate verb, and serves the request as the impersonated user', async () => {
    await using cluster = await createFakeCluster({ auth: true });
    const janeToken = (cluster.kubeConfigFor({ user: 'jane' }).getCurrentUser() as { token: string }).token;
    const asBob = { authorization: `Bearer ${janeToken}`, 'impersonate-user': 'bob' };
    const refused = await cluster.handle(new Request(`${cluster.url}/api/v1/namespaces/default/pods`, { headers: asBob }));
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toBe('users "bob" is forbidden: User "jane" cannot impersonate resource "users" in API group "" at the cluster scope');
    // A uid and extra values are checked too, each with its own resource of authentication.k8s.io.
    await rbac(cluster).createClusterRole({ body: { metadata: { name: 'impersonate-bob' }, rules: [{ apiGroups: [''], resources: ['users'], resourceNames: ['bob'], verbs: ['impersonate'] }] } });
    await rbac(cluster).createClusterRoleBinding({ body: { metadata: { name: 'impersonate-bob' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'impersonate-bob' }, subjects: [{ kind: 'User', name: 'jane', apiGroup: 'rbac.authorization.k8s.io' }] } });
    const review = (headers: Record<string, string>) =>
      cluster.handle(new Request(`${cluster.url}/apis/authentication.k8s.io/v1/selfsubjectreviews`, { method: 'POST', headers: { authorization: `Bearer ${janeToken}`, 'content-type': 'application/json', ...headers }, body: '{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}' }));
    const asBobByJane = await review({ 'impersonate-user': 'bob' });
    expect(((await asBobByJane.json()) as { status: { userInfo: unknown } }).status.userInfo).toEqual({ username: 'bob', groups: ['system:authenticated'] });
    const withUid = await review({ 'impersonate-user': 'bob', 'impersonate-uid': 'u-1' });
    expect(((await withUid.json()) as { message: string }).message).toBe('uids.authentication.k8s.io "u-1" is forbidden: User "jane" cannot impersonate resource "uids" in API group "authentication.k8s.io" at the cluster scope');
    const withExtra = await review({ 'impersonate-user': 'bob', 'impersonate-extra-team': 'blue' });
    expect(((await withExtra.json()) as { message: string }).message).toBe('userextras.authentication.k8s.io "blue" is forbidden: User "jane" cannot impersonate resource "userextras/team" in API group "authentication.k8s.io" at the cluster scope');
    // Both refused: the extra is checked before the uid, as buildImpersonationRequests orders them.
    const withBoth = await review({ 'impersonate-user': 'bob', 'impersonate-uid': 'u-1', 'impersonate-extra-team': 'blue' });
    expect(((await withBoth.json()) as { message: string }).message).toBe('userextras.authentication.k8s.io "blue" is forbidden: User "jane" cannot impersonate resource "userextras/team" in API group "authentication.k8s.io" at the cluster scope');
    // A malformed escape in an extra key is kept as sent (unescapeExtraKey), not a failure.
    const badEscape = await review({ 'impersonate-user': 'bob', 'impersonate-extra-a%zz': 'blue' });
    expect(((await badEscape.json()) as { message: string }).message).toBe('userextras.authentication.k8s.io "blue" is forbidden: User "jane" cannot impersonate resource "userextras/a%zz" in API group "authentication.k8s.io" at the cluster scope');
    // A service account user name of more than two parts is no service account (SplitUsername): a User.
    const oddName = await review({ 'impersonate-user': 'system:serviceaccount:a:b:c' });
    expect(((await oddName.json()) as { message: string }).message).toBe('users "system:serviceaccount:a:b:c" is forbidden: User "jane" cannot impersonate resource "users" in API group "" at the cluster scope');
    // The administrator may impersonate anyone; the request is then bob's, and bob may not list pods.
    const asBobByAdmin = await cluster.handle(new Request(`${cluster.url}/api/v1/namespaces/default/pods`, { headers: { authorization: 'Bearer kubefake', 'impersonate-user': 'bob', 'impersonate-group': 'devs' } }));
    expect(asBobByAdmin.status).toBe(403);
    expect(((await asBobByAdmin.json()) as { message: string }).message).toBe('pods is forbidden: User "bob" cannot list resource "pods" in API group "" in the namespace "default"');
  });

  it('answers 400 for impersonated groups without a user, and completes the impersonated groups as impersonation.go does', async () => {
    await using cluster = await createFakeCluster({ auth: true });
    const review = (headers: Record<string, string>) =>
      cluster.handle(new Request(`${cluster.url}/apis/authentication.k8s.io/v1/selfsubjectreviews`, { method: 'POST', headers: { authorization: 'Bearer kubefake', 'content-type': 'application/json', ...headers }, body: '{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}' }));
    const groupOnly = await review({ 'impersonate-group': 'devs', 'impersonate-uid': 'u-1' });
    expect(groupOnly.status).toBe(400);
    expect(await groupOnly.json()).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400, message: 'requested [{Group  devs    } {UID  u-1  authentication.k8s.io/v1  }] without impersonating a user' });
    const groupsOf = async (headers: Record<string, string>) => ((await (await review(headers)).json()) as { status: { userInfo: { groups: string[] } } }).status.userInfo.groups;
    // Unauthenticated users may not review themselves by default (system:basic-user binds system:authenticated).
    await rbac(cluster).createClusterRole({ body: { metadata: { name: 'self-review' }, rules: [{ apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'], verbs: ['create'] }] } });
    await rbac(cluster).createClusterRoleBinding({ body: { metadata: { name: 'self-review' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'self-review' }, subjects: [{ kind: 'Group', name: 'system:unauthenticated', apiGroup: 'rbac.authorization.k8s.io' }] } });
    // Groups given are the authority; system:authenticated is added unless they hold it or system:unauthenticated.
    expect(await groupsOf({ 'impersonate-user': 'bob', 'impersonate-group': 'devs' })).toEqual(['devs', 'system:authenticated']);
    expect(await groupsOf({ 'impersonate-user': 'bob', 'impersonate-group': 'system:unauthenticated' })).toEqual(['system:unauthenticated']);
    // A service account without groups gets its own; the anonymous user gets system:unauthenticated.
    expect(await groupsOf({ 'impersonate-user': 'system:serviceaccount:apps:builder' })).toEqual(['system:serviceaccounts', 'system:serviceaccounts:apps', 'system:authenticated']);
    expect(await groupsOf({ 'impersonate-user': 'system:anonymous' })).toEqual(['system:unauthenticated']);
    // Go reads each header line as one value: two Impersonate-Group lines are two groups (kubectl's
    // --as-group twice), one line `a,b` is the single group "a,b".
    const twoLines = new Headers({ authorization: 'Bearer kubefake', 'content-type': 'application/json', 'impersonate-user': 'bob' });
    twoLines.append('impersonate-group', 'devs');
    twoLines.append('impersonate-group', 'ops');
    const reviewed = await cluster.handle(new Request(`${cluster.url}/apis/authentication.k8s.io/v1/selfsubjectreviews`, { method: 'POST', headers: twoLines, body: '{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}' }));
    expect(((await reviewed.json()) as { status: { userInfo: { groups: string[] } } }).status.userInfo.groups).toEqual(['devs', 'ops', 'system:authenticated']);
    expect(await groupsOf({ 'impersonate-user': 'bob', 'impersonate-group': 'devs,ops' })).toEqual(['devs,ops', 'system:authenticated']);
  });

  it('answers the access reviews from RBAC', async () => {
    await using cluster = await createFakeCluster({ auth: true });
    await bind(cluster, 'default', 'pod-reader', [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }], { kind: 'User', name: 'jane', apiGroup: 'rbac.authorization.k8s.io' });
    const authz = cluster.kubeConfig.makeApiClient(k8s.AuthorizationV1Api);
    const sar = (verb: string, namespace: string) => authz.createSubjectAccessReview({ body: { spec: { user: 'jane', resourceAttributes: { verb, resource: 'pods', namespace } } } });
    expect((await sar('list', 'default')).status).toEqual({ allowed: true, reason: 'RBAC: allowed by RoleBinding "pod-reader/default" of Role "pod-reader" to User "jane"' });
    expect((await sar('delete', 'default')).status).toEqual({ allowed: false });
    expect((await sar('list', 'kube-system')).status).toEqual({ allowed: false });
    const local = await authz.createNamespacedLocalSubjectAccessReview({
      namespace: 'default',
      body: { metadata: { namespace: 'default' }, spec: { user: 'jane', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'default' } } },
    });
    expect(local.status).toEqual({ allowed: true, reason: 'RBAC: allowed by RoleBinding "pod-reader/default" of Role "pod-reader" to User "jane"' });
    const self = cluster.kubeConfigFor({ user: 'jane' }).makeApiClient(k8s.AuthorizationV1Api);
    expect((await self.createSelfSubjectAccessReview({ body: { spec: { resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'default' } } } })).status?.allowed).toBe(true);
    const rules = await self.createSelfSubjectRulesReview({ body: { spec: { namespace: 'default' } } });
    expect(rules.status?.resourceRules).toContainEqual({ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] });
    expect(rules.status?.nonResourceRules).toContainEqual(expect.objectContaining({ nonResourceURLs: expect.arrayContaining(['/api', '/apis/*']) }));
  });

  it('records the permissions an identity used and renders the least Role that allows them', async () => {
    await using cluster = await createFakeCluster({ auth: true });
    const bot = { serviceAccount: 'default/bot' };
    await bind(cluster, 'default', 'bot', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }], { kind: 'ServiceAccount', name: 'bot', namespace: 'default' });
    const core = cluster.kubeConfigFor(bot).makeApiClient(k8s.CoreV1Api);
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'state' } } });
    await core.readNamespacedConfigMap({ name: 'state', namespace: 'default' });
    await core.listNamespacedConfigMap({ namespace: 'default' });
    await cluster.kubeConfigFor(bot).makeApiClient(k8s.AppsV1Api).listNamespacedDeployment({ namespace: 'default' });
    expect(cluster.permissions.used(bot)).toEqual([
      { verb: 'create', group: '', resource: 'configmaps', subresource: '', namespace: 'default', name: '' },
      { verb: 'get', group: '', resource: 'configmaps', subresource: '', namespace: 'default', name: 'state' },
      { verb: 'list', group: '', resource: 'configmaps', subresource: '', namespace: 'default', name: '' },
      { verb: 'list', group: 'apps', resource: 'deployments', subresource: '', namespace: 'default', name: '' },
    ]);
    expect(cluster.permissions.minimalRole(bot)).toBe(
      [
        'apiVersion: rbac.authorization.k8s.io/v1',
        'kind: Role',
        'metadata:',
        '  name: bot',
        '  namespace: default',
        'rules:',
        '  - apiGroups:',
        "      - ''",
        '    resources:',
        '      - configmaps',
        '    verbs:',
        '      - create',
        '      - list',
        '  - apiGroups:',
        "      - ''",
        '    resources:',
        '      - configmaps',
        '    resourceNames:',
        '      - state',
        '    verbs:',
        '      - get',
        '  - apiGroups:',
        '      - apps',
        '    resources:',
        '      - deployments',
        '    verbs:',
        '      - list',
        '',
      ].join('\n'),
    );
    // The rendered role suffices; one without deployments does not.
    expect(await cluster.permissions.notAllowedBy(bot, cluster.permissions.minimalRole(bot))).toEqual([]);
    const narrow = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'bot', namespace: 'default' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['*'] }] };
    expect(await cluster.permissions.notAllowedBy(bot, narrow)).toEqual([{ verb: 'list', group: 'apps', resource: 'deployments', subresource: '', namespace: 'default', name: '' }]);
  });

  it('refuses roles and bindings that grant what the writer does not hold, unless it may escalate or bind', async () => {
    await using cluster = await createFakeCluster({ auth: true });
    const jane = { kind: 'User', name: 'jane', apiGroup: 'rbac.authorization.k8s.io' };
    await bind(cluster, 'default', 'rbac-writer', [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles', 'rolebindings'], verbs: ['create', 'update'] }, { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }], jane);
    const asJane = rbac({ kubeConfig: cluster.kubeConfigFor({ user: 'jane' }) } as FakeCluster);
    // What jane holds she may grant.
    await asJane.createNamespacedRole({ namespace: 'default', body: { metadata: { name: 'reader' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] } });
    const escalation = await failure(asJane.createNamespacedRole({ namespace: 'default', body: { metadata: { name: 'deleter' }, rules: [{ apiGroups: [''], resources: ['pods', 'secrets'], verbs: ['get', 'delete'] }] } }));
    expect(escalation.code).toBe(403);
    expect(escalation.status.message).toBe(
      [
        'roles.rbac.authorization.k8s.io "deleter" is forbidden: user "jane" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:',
        '{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}',
        '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "delete"]}',
      ].join('\n'),
    );
    // Binding a role she does not hold, and a role that is not there.
    await rbac(cluster).createNamespacedRole({ namespace: 'default', body: { metadata: { name: 'deleter' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['delete'] }] } });
    const binding = (name: string, role: string) => ({ metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: role }, subjects: [{ kind: 'User', name: 'bob', apiGroup: 'rbac.authorization.k8s.io' }] });
    expect((await failure(asJane.createNamespacedRoleBinding({ namespace: 'default', body: binding('b', 'deleter') }))).status.message).toBe(
      'rolebindings.rbac.authorization.k8s.io "b" is forbidden: user "jane" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}',
    );
    expect((await failure(asJane.createNamespacedRoleBinding({ namespace: 'default', body: binding('c', 'nope') }))).status.message).toBe(
      'rolebindings.rbac.authorization.k8s.io "c" is forbidden: roles.rbac.authorization.k8s.io "nope" not found',
    );
    // A role bound to jane that is not there is a resolution error, named after what she lacks.
    await rbac(cluster).createNamespacedRoleBinding({ namespace: 'default', body: { metadata: { name: 'ghost' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'ghost' }, subjects: [jane] } });
    expect((await failure(asJane.createNamespacedRoleBinding({ namespace: 'default', body: binding('d', 'deleter') }))).status.message).toBe(
      'rolebindings.rbac.authorization.k8s.io "d" is forbidden: user "jane" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}; resolution errors: [roles.rbac.authorization.k8s.io "ghost" not found]',
    );
    // With escalate and bind she may.
    await bind(cluster, 'default', 'escalator', [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['escalate', 'bind'] }], jane);
    await asJane.createNamespacedRole({ namespace: 'default', body: { metadata: { name: 'deleter2' }, rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['delete'] }] } });
    await asJane.createNamespacedRoleBinding({ namespace: 'default', body: binding('b', 'deleter') });
  });

  it('serves kubectl over HTTPS only, where it sends its token', async () => {
    await using cluster = await createFakeCluster({ auth: true });
    await expect(cluster.listen()).rejects.toThrow('kubefake: an auth: true cluster serves kubectl over HTTPS only (kubectl sends no credentials over plain http): listen({ tls: true })');
  });

  it.runIf(kubectlAvailable)('kubectl: a forbidden get, and auth can-i, for an identity over the listener', async () => {
    await using cluster = await createFakeCluster({ auth: true });
    await bind(cluster, 'default', 'pod-reader', [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }], { kind: 'User', name: 'jane', apiGroup: 'rbac.authorization.k8s.io' });
    const listener = await cluster.listen({ tls: true });
    const jane = kubectlRunner(listener.kubeconfigFor({ user: 'jane' }));
    const denied = await jane(['get', 'configmaps']);
    expect(denied.stderr).toContain('Error from server (Forbidden): configmaps is forbidden: User "jane" cannot list resource "configmaps" in API group "" in the namespace "default"');
    expect((await jane(['get', 'pods'])).stderr).toContain('No resources found in default namespace.');
    expect((await jane(['auth', 'can-i', 'list', 'pods'])).stdout.trim()).toBe('yes');
    expect((await jane(['auth', 'can-i', 'delete', 'pods'])).stdout.trim()).toBe('no');
    expect((await kubectlRunner(listener.kubeconfig)(['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}'])).stdout).toBe('kubefake-admin');
    // kubectl --as: the administrator may impersonate; jane may not.
    const admin = kubectlRunner(listener.kubeconfig);
    expect((await admin(['get', 'configmaps', '--as=jane'])).stderr).toContain('Error from server (Forbidden): configmaps is forbidden: User "jane" cannot list resource "configmaps" in API group "" in the namespace "default"');
    expect((await jane(['get', 'pods', '--as=bob'])).stderr).toContain('Error from server (Forbidden): users "bob" is forbidden: User "jane" cannot impersonate resource "users" in API group "" at the cluster scope');
    // A client certificate the listener's CA signed: the common name is the user, each organization a group.
    const byCertificate = kubectlRunner(await listener.certificateKubeconfigFor({ user: 'jane', groups: ['devs', 'ops'] }));
    expect(JSON.parse((await byCertificate(['auth', 'whoami', '-o', 'json'])).stdout).status.userInfo).toEqual({ username: 'jane', groups: ['devs', 'ops', 'system:authenticated'] });
    expect((await byCertificate(['auth', 'can-i', 'list', 'pods'])).stdout.trim()).toBe('yes');
  });
});
