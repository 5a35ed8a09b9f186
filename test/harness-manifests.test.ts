// Manifests from disk: apply() and options.manifests take file and directory paths (and file:
// URLs): multi-document YAML, JSON, List kinds, kubebuilder's config/crd layout.
import * as k8s from '@kubernetes/client-node';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createFakeCluster } from '../src/index.ts';
import { isPath } from '../src/cluster/manifests.ts';

const CRONTAB_CRD = new URL('../examples/crontab/crontab-crd.yaml', import.meta.url);

/** A kubebuilder-style project: config/crd/bases with the CRD, kustomization files, samples in JSON and a List. */
function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'kubefake-manifests-'));
  mkdirSync(join(root, 'config/crd/bases'), { recursive: true });
  mkdirSync(join(root, 'config/samples'), { recursive: true });
  writeFileSync(join(root, 'config/crd/bases/stable.example.com_crontabs.yaml'), readFileSync(CRONTAB_CRD, 'utf8'));
  writeFileSync(join(root, 'config/crd/kustomization.yaml'), 'resources:\n- bases/stable.example.com_crontabs.yaml\n');
  writeFileSync(join(root, 'config/crd/.hidden.yaml'), 'not: [valid\n');
  writeFileSync(join(root, 'config/samples/README.md'), '# samples\n');
  writeFileSync(
    join(root, 'config/samples/a-namespaces.yaml'),
    '---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: team\n---\n# an empty document\n---\napiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: one, namespace: team}\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: two, namespace: team}\n',
  );
  writeFileSync(join(root, 'config/samples/b-crontab.json'), JSON.stringify({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'nightly', namespace: 'team' }, spec: { image: 'x' } }));
  return root;
}

describe('manifests from disk', () => {
  it('applies a directory tree in name order, skipping kustomization, hidden and non-manifest files', async () => {
    const root = project();
    await using cluster = await createFakeCluster();
    const applied = await cluster.apply(join(root, 'config/crd'));
    expect(applied.map((o) => `${o.kind} ${o.metadata!.name}`)).toEqual(['CustomResourceDefinition crontabs.stable.example.com']);
    const samples = await cluster.apply(join(root, 'config/samples'));
    expect(samples.map((o) => `${o.kind} ${o.metadata!.name}`)).toEqual(['Namespace team', 'ConfigMap one', 'ConfigMap two', 'CronTab nightly']);
    const crons = await cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi).listNamespacedCustomObject({ group: 'stable.example.com', version: 'v1', namespace: 'team', plural: 'crontabs' });
    expect((crons as { items: unknown[] }).items).toHaveLength(1);
  });

  it('takes paths and file: URLs in options.manifests, mixed with text and objects', async () => {
    const root = project();
    await using cluster = await createFakeCluster({
      manifests: [
        pathToFileURL(join(root, 'config/crd/bases/stable.example.com_crontabs.yaml')),
        join(root, 'config/samples/a-namespaces.yaml'),
        'apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  namespace: team\n',
        { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot', namespace: 'team' } },
        join(root, 'config/samples/b-crontab.json'),
      ],
    });
    // Beside the namespace's own kube-root-ca.crt, which the root-CA publisher made as it appeared.
    expect(cluster.list('ConfigMap', { namespace: 'team' }).map((o) => o.metadata!.name)).toEqual(['kube-root-ca.crt', 'one', 'two']);
    expect(cluster.get({ kind: 'Secret', name: 's', namespace: 'team' })).toBeDefined();
    expect(cluster.get({ kind: 'ServiceAccount', name: 'robot', namespace: 'team' })).toBeDefined();
    expect(cluster.get({ kind: 'CronTab', name: 'nightly', namespace: 'team' })).toBeDefined();
  });

  it('says which path is missing or which file does not parse', async () => {
    const root = project();
    await using cluster = await createFakeCluster();
    await expect(cluster.apply(join(root, 'nope'))).rejects.toThrow(`kubefake: cannot read manifests from ${join(root, 'nope')}: no such file or directory`);
    const bad = join(root, 'bad.yaml');
    writeFileSync(bad, '- just\n- a list\n');
    await expect(cluster.apply(bad)).rejects.toThrow(`kubefake: ${bad}: a manifest must be an object, got ["just","a list"]`);
    await expect(createFakeCluster({ manifests: join(root, 'nope') })).rejects.toThrow('no such file or directory');
  });

  it('tells paths from text: one line that is not a mapping is a path', () => {
    expect(isPath('config/crd/bases')).toBe(true);
    expect(isPath('./crd.yaml')).toBe(true);
    expect(isPath('C:\\work\\crd.yaml')).toBe(true);
    expect(isPath('apiVersion: v1')).toBe(false);
    expect(isPath('{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"x"}}')).toBe(false);
    expect(isPath('kind: Namespace\nmetadata: {name: x}')).toBe(false);
    expect(isPath('')).toBe(false);
  });
});
