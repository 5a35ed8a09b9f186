// LIST through the real client: ordering, the global resourceVersion, selectors and pagination.
// On Secrets: every namespace holds no Secret of the cluster's own, while each holds a
// kube-root-ca.crt ConfigMap (the root-CA publisher's), which would sit in every page.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;

beforeEach(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  await core.createNamespace({ body: { metadata: { name: 'second' } } });
});
afterEach(() => cluster.close());

const names = (list: { items: Array<{ metadata?: { name?: string; namespace?: string } }> }) =>
  list.items.map((i) => (i.metadata?.namespace ? `${i.metadata.namespace}/${i.metadata.name}` : i.metadata?.name));

async function seed(namespace: string, specs: Array<[string, Record<string, string>?]>) {
  for (const [name, labels] of specs) await core.createNamespacedSecret({ namespace, body: { metadata: { name, labels } } });
}

describe('ordering and resourceVersion', () => {
  it('lists sorted by namespace then name, with the store revision as the list RV', async () => {
    await seed('second', [['b'], ['a']]);
    await seed('default', [['z'], ['c']]);
    const all = await core.listSecretForAllNamespaces();
    expect(names(all)).toEqual(['default/c', 'default/z', 'second/a', 'second/b']);
    const rvs = all.items.map((i) => Number(i.metadata?.resourceVersion));
    expect(Number(all.metadata?.resourceVersion)).toBe(Math.max(...rvs));
    expect(all.kind).toBe('SecretList');
    expect(all.apiVersion).toBe('v1');
  });

  it('shares one counter across resources: every write gets the next revision', async () => {
    const a = await core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name: 'a' } } });
    const s = await core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name: 's' } } });
    const b = await core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name: 'b' } } });
    expect(Number(s.metadata?.resourceVersion)).toBe(Number(a.metadata?.resourceVersion) + 1);
    expect(Number(b.metadata?.resourceVersion)).toBe(Number(s.metadata?.resourceVersion) + 1);
    const list = await core.listNamespacedSecret({ namespace: 'default' });
    expect(list.metadata?.resourceVersion).toBe(b.metadata?.resourceVersion);
  });

  it('answers an empty items array, never a missing one', async () => {
    const list = await core.listNamespacedSecretWithHttpInfo({ namespace: 'second' });
    expect(list.data.items).toEqual([]);
  });
});

describe('label selectors', () => {
  beforeEach(() => seed('default', [['a', { app: 'web', tier: 'front' }], ['b', { app: 'web', tier: 'back' }], ['c', { app: 'db' }], ['d']]));

  const select = async (labelSelector: string) => names(await core.listNamespacedSecret({ namespace: 'default', labelSelector }));

  it('supports every operator', async () => {
    expect(await select('app=web')).toEqual(['default/a', 'default/b']);
    expect(await select('app==db')).toEqual(['default/c']);
    expect(await select('app!=web')).toEqual(['default/c', 'default/d']);
    expect(await select('tier in (front,side)')).toEqual(['default/a']);
    expect(await select('tier notin (front)')).toEqual(['default/b', 'default/c', 'default/d']);
    expect(await select('tier')).toEqual(['default/a', 'default/b']);
    expect(await select('!tier')).toEqual(['default/c', 'default/d']);
    expect(await select('app=web,tier!=back')).toEqual(['default/a']);
  });

  it('answers 400 with the parser text for a malformed selector', async () => {
    const body = await expectStatus(core.listNamespacedSecret({ namespace: 'default', labelSelector: 'app in web' }), { code: 400, reason: 'BadRequest' });
    expect(body.message).toMatch(/^unable to parse requirement: |^found '/);
  });
});

describe('field selectors', () => {
  it('selects by metadata.name and metadata.namespace', async () => {
    await seed('default', [['a'], ['b']]);
    await seed('second', [['a']]);
    expect(names(await core.listSecretForAllNamespaces({ fieldSelector: 'metadata.name=a' }))).toEqual(['default/a', 'second/a']);
    expect(names(await core.listSecretForAllNamespaces({ fieldSelector: 'metadata.namespace!=default' }))).toEqual(['second/a']);
  });

  it('supports the per-kind fields of the real conversion functions', async () => {
    await core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name: 'tls' }, type: 'kubernetes.io/tls', data: { 'tls.crt': 'eA==', 'tls.key': 'eA==' } } });
    await core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name: 'plain' } } });
    const tls = await core.listNamespacedSecret({ namespace: 'default', fieldSelector: 'type=kubernetes.io/tls' });
    expect(names(tls)).toEqual(['default/tls']);
    const active = await core.listNamespace({ fieldSelector: 'status.phase=Active' });
    expect(active.items.length).toBe(5);
  });

  it('answers 400 for an unknown field with the real texts', async () => {
    await expectStatus(core.listNamespacedConfigMap({ namespace: 'default', fieldSelector: 'spec.foo=bar' }), {
      code: 400,
      reason: 'BadRequest',
      message: '"spec.foo" is not a known field selector: only "metadata.name", "metadata.namespace"',
    });
    await expectStatus(core.listNamespacedPod({ namespace: 'default', fieldSelector: 'spec.foo=bar' }), {
      code: 400,
      reason: 'BadRequest',
      message: 'field label not supported: spec.foo',
    });
    await expectStatus(core.listNamespacedSecret({ namespace: 'default', fieldSelector: 'a=b=c' }), { code: 400, reason: 'BadRequest' });
  });
});

describe('pagination', () => {
  beforeEach(() => seed('second', [['n1'], ['n2'], ['n3'], ['n4'], ['n5']]));

  it('returns limit items, a continue token in the etcd format, and remainingItemCount', async () => {
    const page = await core.listNamespacedSecret({ namespace: 'second', limit: 2 });
    expect(names(page)).toEqual(['second/n1', 'second/n2']);
    expect(page.metadata?.remainingItemCount).toBe(3);
    const token = JSON.parse(Buffer.from(page.metadata!._continue!, 'base64url').toString());
    expect(token).toEqual({ v: 'meta.k8s.io/v1', rv: Number(page.metadata?.resourceVersion), start: 'n2\u0000' });
    expect(page.metadata!._continue).not.toMatch(/=/);
  });

  it('serves every page at the first page’s resourceVersion', async () => {
    const first = await core.listNamespacedSecret({ namespace: 'second', limit: 2 });
    // Changes after the first page must not show up in later pages.
    await core.deleteNamespacedSecret({ name: 'n3', namespace: 'second' });
    await core.createNamespacedSecret({ namespace: 'second', body: { metadata: { name: 'n35' } } });
    const second = await core.listNamespacedSecret({ namespace: 'second', limit: 2, _continue: first.metadata!._continue });
    expect(names(second)).toEqual(['second/n3', 'second/n4']);
    expect(second.metadata?.resourceVersion).toBe(first.metadata?.resourceVersion);
    const third = await core.listNamespacedSecret({ namespace: 'second', limit: 2, _continue: second.metadata!._continue });
    expect(names(third)).toEqual(['second/n5']);
    expect(third.metadata?._continue).toBeUndefined();
    expect(third.metadata?.remainingItemCount).toBeUndefined();
  });

  it('uses ns/name keys for cluster-wide lists', async () => {
    await seed('default', [['x']]);
    const page = await core.listSecretForAllNamespaces({ limit: 1 });
    expect(names(page)).toEqual(['default/x']);
    const token = JSON.parse(Buffer.from(page.metadata!._continue!, 'base64url').toString());
    expect(token.start).toBe('default/x\u0000');
    const rest = await core.listSecretForAllNamespaces({ _continue: page.metadata!._continue });
    expect(names(rest)).toEqual(['second/n1', 'second/n2', 'second/n3', 'second/n4', 'second/n5']);
  });

  it('omits remainingItemCount when a selector is used', async () => {
    const page = await core.listNamespacedSecret({ namespace: 'second', limit: 2, fieldSelector: 'metadata.name!=n1' });
    expect(names(page)).toEqual(['second/n2', 'second/n3']);
    expect(page.metadata?._continue).toBeTruthy();
    expect(page.metadata?.remainingItemCount).toBeUndefined();
  });

  it('pages a label-selected list at the first page’s revision while labels change between pages', async () => {
    const label = (name: string, tier: string | null) =>
      core.patchNamespacedSecret({ name, namespace: 'second', body: { metadata: { labels: { tier } } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    for (const name of ['n1', 'n2', 'n4', 'n5']) await label(name, 'web');
    await core.createNamespacedSecret({ namespace: 'second', body: { metadata: { name: 'n6' } } });
    const first = await core.listNamespacedSecret({ namespace: 'second', limit: 2, labelSelector: 'tier=web' });
    expect(names(first)).toEqual(['second/n1', 'second/n2']);
    expect(first.metadata?.remainingItemCount).toBeUndefined();
    // After the first page: n4 loses the label, n3 gains it, n5 is deleted, n45 is created with it.
    await label('n4', null);
    await label('n3', 'web');
    await core.deleteNamespacedSecret({ name: 'n5', namespace: 'second' });
    await core.createNamespacedSecret({ namespace: 'second', body: { metadata: { name: 'n45', labels: { tier: 'web' } } } });
    const second = await core.listNamespacedSecret({ namespace: 'second', limit: 2, labelSelector: 'tier=web', _continue: first.metadata!._continue });
    expect(names(second)).toEqual(['second/n4', 'second/n5']);
    expect(second.metadata?.resourceVersion).toBe(first.metadata?.resourceVersion);
    // The page is full and a key follows it at that revision (n6, not matching): there is a last, empty page.
    const token = JSON.parse(Buffer.from(second.metadata!._continue!, 'base64url').toString());
    expect(token.start).toBe('n5\u0000');
    const third = await core.listNamespacedSecret({ namespace: 'second', limit: 2, labelSelector: 'tier=web', _continue: second.metadata!._continue });
    expect(third.items).toEqual([]);
    expect(third.metadata?._continue).toBeUndefined();
    const now = await core.listNamespacedSecret({ namespace: 'second', labelSelector: 'tier in (web)' });
    expect(names(now)).toEqual(['second/n1', 'second/n2', 'second/n3', 'second/n45']);
  });

  it('ends a label-selected list when its page is full and no key follows', async () => {
    await core.patchNamespacedSecret({ name: 'n5', namespace: 'second', body: { metadata: { labels: { last: 'yes' } } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    const page = await core.listNamespacedSecret({ namespace: 'second', limit: 1, labelSelector: 'last=yes' });
    expect(names(page)).toEqual(['second/n5']);
    expect(page.metadata?._continue).toBeUndefined();
    const before = await core.listNamespacedSecret({ namespace: 'second', limit: 1, labelSelector: 'last!=yes' });
    expect(names(before)).toEqual(['second/n1']);
    expect(before.metadata?._continue).toBeTruthy();
  });

  it('ignores limit for resourceVersion=0', async () => {
    const all = await core.listNamespacedSecret({ namespace: 'second', limit: 2, resourceVersion: '0' });
    expect(all.items).toHaveLength(5);
    expect(all.metadata?._continue).toBeUndefined();
  });

  it('answers 410 Expired with a fresh token when the continue revision was compacted', async () => {
    const first = await core.listNamespacedSecret({ namespace: 'second', limit: 2 });
    await core.createNamespacedSecret({ namespace: 'second', body: { metadata: { name: 'n6' } } });
    await cluster.compact();
    const body = await expectStatus(core.listNamespacedSecret({ namespace: 'second', limit: 2, _continue: first.metadata!._continue }), {
      code: 410,
      reason: 'Expired',
    });
    expect(body.message).toMatch(/^The provided continue parameter is too old to display a consistent list result\./);
    const fresh = (body.metadata as { continue: string }).continue;
    expect(JSON.parse(Buffer.from(fresh, 'base64url').toString())).toEqual({ v: 'meta.k8s.io/v1', rv: -1, start: 'n2\u0000' });
    const rest = await core.listNamespacedSecret({ namespace: 'second', _continue: fresh });
    expect(names(rest)).toEqual(['second/n3', 'second/n4', 'second/n5', 'second/n6']);
  });

  it('answers 504 Timeout for a continue token from a revision the server has not reached', async () => {
    const future = Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: 999999, start: 'n1\u0000' })).toString('base64url');
    const body = await expectStatus(core.listNamespacedSecret({ namespace: 'second', _continue: future }), { code: 504, reason: 'Timeout' });
    expect(body.message).toMatch(/^Timeout: Too large resource version: 999999, current: \d+$/);
  }, 10_000);

  it('answers 400 for a corrupt token and for continue with a resourceVersion', async () => {
    const body = await expectStatus(core.listNamespacedSecret({ namespace: 'second', _continue: '!!!' }), { code: 400, reason: 'BadRequest' });
    expect(body.message).toMatch(/^invalid continue token: continue key is not valid: /);
    const page = await core.listNamespacedSecret({ namespace: 'second', limit: 1 });
    await expectStatus(core.listNamespacedSecret({ namespace: 'second', _continue: page.metadata!._continue, resourceVersion: '5' }), {
      code: 400,
      reason: 'BadRequest',
      message: 'specifying resource version is not allowed when using continue',
    });
  });
});

describe('resourceVersion and resourceVersionMatch', () => {
  it('lists exactly at an older revision with resourceVersionMatch=Exact', async () => {
    await seed('second', [['e1']]);
    const at = await core.listNamespacedSecret({ namespace: 'second' });
    await seed('second', [['e2']]);
    const exact = await core.listNamespacedSecret({ namespace: 'second', resourceVersion: at.metadata?.resourceVersion, resourceVersionMatch: 'Exact' });
    expect(names(exact)).toEqual(['second/e1']);
    expect(exact.metadata?.resourceVersion).toBe(at.metadata?.resourceVersion);
    const notOlder = await core.listNamespacedSecret({ namespace: 'second', resourceVersion: at.metadata?.resourceVersion, resourceVersionMatch: 'NotOlderThan' });
    expect(names(notOlder)).toEqual(['second/e1', 'second/e2']);
  });

  it('answers 410 for an Exact list at a compacted revision', async () => {
    const at = await core.listNamespacedSecret({ namespace: 'second' });
    await seed('second', [['late']]);
    await cluster.compact();
    await expectStatus(core.listNamespacedSecret({ namespace: 'second', resourceVersion: at.metadata?.resourceVersion, resourceVersionMatch: 'Exact' }), {
      code: 410,
      reason: 'Expired',
      message: 'The resourceVersion for the provided list is too old.',
    });
  });

  it('validates ListOptions with 422 and the real texts', async () => {
    await expectStatus(core.listNamespacedSecret({ namespace: 'second', resourceVersionMatch: 'Exact' }), {
      code: 422,
      reason: 'Invalid',
      message: 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
    });
    await expectStatus(core.listNamespacedSecret({ namespace: 'second', resourceVersion: '0', resourceVersionMatch: 'Exact' }), {
      code: 422,
      reason: 'Invalid',
      message: 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
    });
    await expectStatus(core.listNamespacedSecret({ namespace: 'second', resourceVersion: '1', resourceVersionMatch: 'Newest' }), {
      code: 422,
      reason: 'Invalid',
      message: 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""',
    });
  });

  it('answers 504 Timeout for a resourceVersion the server has not reached', async () => {
    const body = await expectStatus(core.listNamespacedSecret({ namespace: 'default', resourceVersion: '999999' }), { code: 504, reason: 'Timeout' });
    expect(body.message).toMatch(/^Timeout: Too large resource version: 999999, current: \d+$/);
    expect(body.details).toEqual({ causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 });
  }, 10_000);
});
