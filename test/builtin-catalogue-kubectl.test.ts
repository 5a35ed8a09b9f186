// kubectl against the full built-in catalogue: api-resources lists what a default v1.36 server
// lists, and `apply --prune` resolves kubectl's default prune allowlist
// (staging/src/k8s.io/kubectl/pkg/util/prune/prune.go: ConfigMap, Endpoints, Namespace,
// PersistentVolumeClaim, PersistentVolume, Pod, ReplicationController, Secret, Service, Job,
// CronJob, Ingress, DaemonSet, Deployment, ReplicaSet, StatefulSet).
import { describe, expect, it } from 'vitest';
import { BUILTIN_RESOURCES } from '../src/generated/builtin-catalogue.ts';
import { kubectlAvailable, useKubectlCluster } from './support/kubectl.ts';

/** Rows of kubectl's column output, split at the header's column starts. */
function table(stdout: string): Record<string, string>[] {
  const [header, ...lines] = stdout.trimEnd().split('\n');
  const starts = [...header!.matchAll(/\S+/g)].map((m) => [m[0], m.index!] as const);
  return lines.map((line) => Object.fromEntries(starts.map(([name, start], i) => [name, line.slice(start, starts[i + 1]?.[1]).trim()])));
}

describe.skipIf(!kubectlAvailable)('kubectl and the built-in catalogue', () => {
  const k = useKubectlCluster();

  it('api-resources lists every resource at its group’s preferred version', async () => {
    const r = await k.kubectl(['api-resources']);
    expect(r.code, r.stderr).toBe(0);
    const rows = table(r.stdout);
    // Lines as a real v1.36 server prints them.
    expect(rows).toContainEqual({ NAME: 'deployments', SHORTNAMES: 'deploy', APIVERSION: 'apps/v1', NAMESPACED: 'true', KIND: 'Deployment' });
    expect(rows).toContainEqual({ NAME: 'replicationcontrollers', SHORTNAMES: 'rc', APIVERSION: 'v1', NAMESPACED: 'true', KIND: 'ReplicationController' });
    expect(rows).toContainEqual({ NAME: 'horizontalpodautoscalers', SHORTNAMES: 'hpa', APIVERSION: 'autoscaling/v2', NAMESPACED: 'true', KIND: 'HorizontalPodAutoscaler' });
    expect(rows).toContainEqual({ NAME: 'customresourcedefinitions', SHORTNAMES: 'crd,crds', APIVERSION: 'apiextensions.k8s.io/v1', NAMESPACED: 'false', KIND: 'CustomResourceDefinition' });
    expect(rows).toContainEqual({ NAME: 'tokenreviews', SHORTNAMES: '', APIVERSION: 'authentication.k8s.io/v1', NAMESPACED: 'false', KIND: 'TokenReview' });
    // And exactly one row per resource of the catalogue at the preferred (first-listed) version.
    const preferred = BUILTIN_RESOURCES.filter((f) => f.version === BUILTIN_RESOURCES.find((x) => x.group === f.group)!.version);
    const expected = preferred.map((f) => ({ NAME: f.resource, SHORTNAMES: f.shortNames.join(','), APIVERSION: f.group ? `${f.group}/${f.version}` : f.version, NAMESPACED: String(f.namespaced), KIND: f.kind }));
    const key = (row: Record<string, string>) => `${row.APIVERSION} ${row.NAME}`;
    expect([...rows].sort((a, b) => key(a).localeCompare(key(b)))).toEqual([...expected].sort((a, b) => key(a).localeCompare(key(b))));
  });

  it('api-resources filters by verb and category', async () => {
    const r = await k.kubectl(['api-resources', '--verbs=create', '--categories=all', '-o', 'name']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n').sort()).toEqual(
      ['cronjobs.batch', 'daemonsets.apps', 'deployments.apps', 'horizontalpodautoscalers.autoscaling', 'jobs.batch', 'pods', 'replicasets.apps', 'replicationcontrollers', 'services', 'statefulsets.apps'].sort(),
    );
  });

  it('apply --prune with the default allowlist prunes what left the manifest', async () => {
    const ns = 'prune-default';
    expect((await k.kubectl(['create', 'namespace', ns])).code).toBe(0);
    const cm = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: keep\n  namespace: ${ns}\n  labels: {app: prune}\ndata: {k: v}\n`;
    const deploy = `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: ${ns}\n  labels: {app: prune}\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: c, image: nginx}]}\n`;
    const rc = `apiVersion: v1\nkind: ReplicationController\nmetadata:\n  name: old\n  namespace: ${ns}\n  labels: {app: prune}\nspec:\n  replicas: 0\n  selector: {app: old}\n  template:\n    metadata: {labels: {app: old}}\n    spec: {containers: [{name: c, image: nginx}]}\n`;
    const first = await k.kubectl(['apply', '-f', '-'], [cm, deploy, rc].join('---\n'));
    expect(first.code, first.stderr).toBe(0);
    const second = await k.kubectl(['apply', '--prune', '-l', 'app=prune', '-n', ns, '-f', '-'], cm);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout.trim().split('\n').sort()).toEqual(['configmap/keep unchanged', 'deployment.apps/web pruned', 'replicationcontroller/old pruned']);
    const left = await k.kubectl(['get', 'configmaps,deployments,replicationcontrollers', '-n', ns, '-l', 'app=prune', '-o', 'name']);
    expect(left.stdout.trim().split('\n')).toEqual(['configmap/keep']);
  });

  it('creates and reads a new built-in kind through its short name', async () => {
    const pdb = 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: web\n  namespace: default\nspec:\n  minAvailable: 1\n  selector: {matchLabels: {app: web}}\n';
    const created = await k.kubectl(['apply', '-f', '-'], pdb);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout.trim()).toBe('poddisruptionbudget.policy/web created');
    const got = await k.kubectl(['get', 'pdb', 'web', '-o', 'jsonpath={.spec.minAvailable} {.metadata.generation}']);
    expect(got.stdout).toBe('1 1');
  });

  it('kubectl auth can-i answers from a SelfSubjectAccessReview', async () => {
    const r = await k.kubectl(['auth', 'can-i', 'delete', 'nodes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('yes');
  });

  it('kubectl auth can-i --list and auth whoami answer from the rules and self reviews', async () => {
    const list = await k.kubectl(['auth', 'can-i', '--list', '-n', 'default']);
    expect(list.code, list.stderr).toBe(0);
    // AlwaysAllow's rules: every verb on every resource, and on every non-resource URL.
    expect(list.stdout).toMatch(/^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs\n\*\.\*\s+\[\]\s+\[\]\s+\[\*\]\n\s+\[\*\]\s+\[\]\s+\[\*\]\n$/);
    const whoami = await k.kubectl(['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username} {.status.userInfo.groups}']);
    expect(whoami.code, whoami.stderr).toBe(0);
    expect(whoami.stdout).toBe('system:admin ["system:masters","system:authenticated"]');
  });
});
