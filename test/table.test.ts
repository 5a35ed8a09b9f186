// Table and PartialObjectMetadata output through @kubernetes/client-node (apiserver-wire.md §6):
// the Accept header picks the representation; client-node types the answer as the resource, so
// the raw body is read with the wire() middleware.
import * as k8s from '@kubernetes/client-node';
import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { kubectlAvailable, kubectlRunner, type KubectlResult } from './support/kubectl.ts';
import { expectStatus } from './support/status.ts';
import { wire } from './support/wire.ts';

const TABLE_V1 = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const KUBECTL_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const POM = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';
const POM_LIST = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';

interface Table {
  kind: string;
  apiVersion: string;
  metadata: Record<string, unknown>;
  columnDefinitions: { name: string; type: string; format: string; description: string; priority: number }[];
  rows: { cells: unknown[]; object?: Record<string, unknown> | null }[] | null;
}

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
let apps: k8s.AppsV1Api;

beforeEach(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
});
afterEach(() => cluster.close());

/** A wire capture whose request carries `accept`. */
function accepting(accept: string) {
  const res = wire();
  return { res, options: k8s.setHeaderOptions('Accept', accept, res.options) };
}

describe('Table', () => {
  it('lists pods as a Table with the kubectl columns and PartialObjectMetadata row objects', async () => {
    await core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'web' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } });
    const { res, options } = accepting(TABLE_V1);
    await core.listNamespacedPod({ namespace: 'default' }, options);
    expect(res.status()).toBe(200);
    const table = res.body<Table>();
    expect(table).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: expect.any(String) } });
    expect(table.columnDefinitions.map((c) => [c.name, c.priority])).toEqual([
      ['Name', 0],
      ['Ready', 0],
      ['Status', 0],
      ['Restarts', 0],
      ['Age', 0],
      ['IP', 1],
      ['Node', 1],
      ['Nominated Node', 1],
      ['Readiness Gates', 1],
    ]);
    expect(table.columnDefinitions[0]).toEqual({ name: 'Name', type: 'string', format: 'name', description: expect.stringMatching(/^Name must be unique within a namespace/), priority: 0 });
    expect(table.rows).toHaveLength(1);
    const [row] = table.rows!;
    expect(row!.cells).toEqual(['web', '0/1', 'Pending', '0', expect.stringMatching(/^\d+s$/), '<none>', '<none>', '<none>', '<none>']);
    expect(row!.object).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'web', namespace: 'default', uid: expect.any(String) } });
    expect(row!.object).not.toHaveProperty('spec');
  });

  it('answers kubectl’s Accept with fallbacks, and a single object with its resourceVersion', async () => {
    const created = await apps.createNamespacedDeployment({
      namespace: 'default',
      body: {
        metadata: { name: 'web' },
        spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } } },
      },
    });
    const { res, options } = accepting(KUBECTL_ACCEPT);
    await apps.readNamespacedDeployment({ namespace: 'default', name: 'web' }, options);
    const table = res.body<Table>();
    expect(table.metadata).toEqual({ resourceVersion: created.metadata?.resourceVersion });
    expect(table.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Ready', 'Up-to-date', 'Available', 'Age', 'Containers', 'Images', 'Selector']);
    expect(table.rows![0]!.cells).toEqual(['web', '0/3', 0, 0, expect.stringMatching(/^\d+s$/), 'nginx', 'nginx:1.27', 'app=web']);
  });

  it('honours includeObject and rejects unknown values', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'cm' }, data: { a: '1', b: '2' } } });
    const none = accepting(TABLE_V1);
    await core.listNamespacedConfigMap({ namespace: 'default' }, k8s.setHeaderOptions('Accept', TABLE_V1, addQuery(none.res.options, 'includeObject', 'None')));
    // kube-root-ca.crt (the root-CA publisher's, one key) is listed too.
    expect(none.res.body<Table>().rows).toEqual([
      { cells: ['cm', 2, expect.any(String)], object: null },
      { cells: ['kube-root-ca.crt', 1, expect.any(String)], object: null },
    ]);

    const full = wire();
    await core.listNamespacedConfigMap({ namespace: 'default' }, k8s.setHeaderOptions('Accept', TABLE_V1, addQuery(full.options, 'includeObject', 'Object')));
    expect(full.body<Table>().rows![0]!.object).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', data: { a: '1', b: '2' } });

    await expectStatus(
      core.listNamespacedConfigMap({ namespace: 'default' }, k8s.setHeaderOptions('Accept', TABLE_V1, addQuery(undefined, 'includeObject', 'Everything'))),
      {
        code: 400,
        reason: 'BadRequest',
        message: `Unable to convert to Table as requested: includeObject: Invalid value: "Everything": must be 'Metadata', 'Object', 'None', or empty`,
      },
    );
  });

  it('gives kinds without a printer the default Name / Created At table', async () => {
    const rbac = cluster.kubeConfig.makeApiClient(k8s.RbacAuthorizationV1Api);
    const role = await rbac.createNamespacedRole({ namespace: 'default', body: { metadata: { name: 'reader' }, rules: [] } });
    const { res, options } = accepting(TABLE_V1);
    await rbac.listNamespacedRole({ namespace: 'default' }, options);
    const table = res.body<Table>();
    expect(table.columnDefinitions.map((c) => [c.name, c.type, c.format])).toEqual([
      ['Name', 'string', 'name'],
      ['Created At', 'date', ''],
    ]);
    expect(table.rows![0]!.cells).toEqual(['reader', new Date(role.metadata!.creationTimestamp!).toISOString().replace('.000', '')]);
  });

  it('answers 406 when no Accept clause can be served', async () => {
    await expectStatus(core.listNamespacedConfigMap({ namespace: 'default' }, k8s.setHeaderOptions('Accept', 'application/json;as=Table;v=v1alpha1;g=meta.k8s.io')), {
      code: 406,
      reason: 'NotAcceptable',
    });
  });

  it('prints custom resources with the CRD’s additionalPrinterColumns (fixtures/crd-docs/printer-columns.yaml)', async () => {
    const fixture = load(readFileSync(new URL('./fixtures/crd-docs/printer-columns.yaml', import.meta.url), 'utf8')) as {
      scenarios: { manifests: Record<string, unknown>[]; steps: { headers: { Accept: string }; expect: { columns: string[]; cells: unknown[][] } }[] }[];
    };
    const scenario = fixture.scenarios[0]!;
    await cluster.apply(scenario.manifests);
    const step = scenario.steps[0]!;
    const { res, options } = accepting(step.headers.Accept);
    await cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi).listNamespacedCustomObject({ group: 'stable.example.com', version: 'v1', namespace: 'default', plural: 'crontabs' }, options);
    const table = res.body<Table>();
    expect(table).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1' });
    expect(table.columnDefinitions.map((c) => c.name)).toEqual(step.expect.columns);
    expect(table.rows!.map((r) => r.cells.slice(0, step.expect.cells[0]!.length))).toEqual(step.expect.cells);
    expect(table.rows![0]!.cells[3]).toMatch(/^\d+s$/);
    expect(table.columnDefinitions[1]).toEqual({ name: 'Spec', type: 'string', format: '', description: 'The cron spec defining the interval a CronJob is run', priority: 0 });
  });
});

describe('PartialObjectMetadata', () => {
  it('returns metadata only for get and list, and 406 for the wrong form', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'cm', labels: { a: 'b' } }, data: { k: 'v' } } });
    const one = accepting(POM);
    await core.readNamespacedConfigMap({ namespace: 'default', name: 'cm' }, one.options);
    expect(one.res.body()).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: expect.objectContaining({ name: 'cm', namespace: 'default', labels: { a: 'b' }, creationTimestamp: expect.any(String) }),
    });

    const many = accepting(POM_LIST);
    await core.listNamespacedConfigMap({ namespace: 'default' }, many.options);
    const list = many.res.body<{ kind: string; apiVersion: string; metadata: Record<string, unknown>; items: { kind: string; metadata: { name: string } }[] }>();
    expect(list).toMatchObject({ kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: expect.any(String) } });
    expect(list.items.map((i) => [i.kind, i.metadata.name])).toContainEqual(['PartialObjectMetadata', 'cm']);

    await expectStatus(core.listNamespacedConfigMap({ namespace: 'default' }, k8s.setHeaderOptions('Accept', POM)), {
      code: 406,
      reason: 'NotAcceptable',
      message: 'you requested PartialObjectMetadata, but the requested object is a list (*core.ConfigMapList)',
    });
    await expectStatus(core.readNamespacedConfigMap({ namespace: 'default', name: 'cm' }, k8s.setHeaderOptions('Accept', POM_LIST)), {
      code: 406,
      reason: 'NotAcceptable',
      message: 'you requested PartialObjectMetadataList, but the requested object is not a list (*core.ConfigMap)',
    });
  });
});

/** ConfigurationOptions whose middleware adds a query parameter to the request URL. */
function addQuery(opt: k8s.ConfigurationOptions | undefined, key: string, value: string): k8s.ConfigurationOptions {
  const middleware: k8s.ObservableMiddleware = {
    pre: (ctx: k8s.RequestContext) => {
      ctx.setQueryParam(key, value);
      return new k8s.Observable(Promise.resolve(ctx));
    },
    post: (rsp: k8s.ResponseContext) => new k8s.Observable(Promise.resolve(rsp)),
  };
  return { ...opt, middleware: [...((opt?.middleware as k8s.ObservableMiddleware[] | undefined) ?? []), middleware], middlewareMergeStrategy: 'append' };
}

describe.skipIf(!kubectlAvailable)('kubectl get over cluster.listen()', () => {
  let kubectl: (args: string[]) => Promise<KubectlResult>;

  beforeEach(async () => {
    const { kubeconfig } = await cluster.listen();
    kubectl = kubectlRunner(kubeconfig);
  });

  it('prints pods and configmaps from server-side Tables', async () => {
    await core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'web' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } });
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'settings' }, data: { a: '1', b: '2' } } });
    const r = await kubectl(['get', 'pods,configmaps']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n').map((l) => l.trim().split(/\s+/));
    expect(lines[0]).toEqual(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
    expect(lines[1]!.slice(0, 4)).toEqual(['pod/web', '0/1', 'Pending', '0']);
    expect(lines).toContainEqual(['NAME', 'DATA', 'AGE']);
    expect(lines.find((l) => l[0] === 'configmap/settings')?.slice(0, 2)).toEqual(['configmap/settings', '2']);
  });

  it('prints the wide deployment columns', async () => {
    await apps.createNamespacedDeployment({
      namespace: 'default',
      body: {
        metadata: { name: 'web' },
        spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } } },
      },
    });
    const r = await kubectl(['get', 'deploy', '-o', 'wide']);
    expect(r.code, r.stderr).toBe(0);
    const [header, row] = r.stdout.trim().split('\n').map((l) => l.trim().split(/\s{2,}/));
    expect(header).toEqual(['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR']);
    expect(row).toEqual(['web', '0/3', '0', '0', expect.stringMatching(/^\d+s$/), 'nginx', 'nginx:1.27', 'app=web']);
  });
});
