// The msw project leaves out the files whose clients never go through cluster.kubeConfig
// (test/support/msw-project.ts): each of them must still not, or it would lose its run on msw.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEPENDS_ON_TRANSPORT, namesEveryTransport, TRANSPORT_INDEPENDENT_FILES } from './support/msw-project.ts';

const root = new URL('..', import.meta.url);

describe('files the msw project leaves out', () => {
  it.each(Object.keys(TRANSPORT_INDEPENDENT_FILES))('%s exists and sends nothing through cluster.kubeConfig', (file) => {
    const path = new URL(file, root);
    expect(existsSync(path), `${file} is listed but does not exist`).toBe(true);
    const text = readFileSync(path, 'utf8');
    const used = namesEveryTransport(text) ? [] : DEPENDS_ON_TRANSPORT.filter((pattern) => pattern.test(text)).map(String);
    expect(used, `${file} reaches a cluster through cluster.kubeConfig: run it on both projects`).toEqual([]);
  });

  it('catches a file that does', () => {
    const uses = ['const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);', 'await k.core.readNamespace({ name })', 'await installWidgets(cluster, schema)'];
    for (const text of uses) expect(DEPENDS_ON_TRANSPORT.some((pattern) => pattern.test(text)), text).toBe(true);
  });

  it('takes a file as transport-independent only when every cluster it makes names its transport', () => {
    const named = "const a = await createFakeCluster({ transport: 'msw' });\nconst b = await createFakeCluster({ transport, deterministic: true });\na.kubeConfig;";
    expect(namesEveryTransport(named)).toBe(true);
    expect(namesEveryTransport(`${named}\nconst c = await createFakeCluster();`)).toBe(false);
    expect(namesEveryTransport(`${named}\nconst c = await createFakeCluster({ auth: true });`)).toBe(false);
    expect(namesEveryTransport(`${named}\nconst k = useKubectlCluster();`)).toBe(false);
    expect(namesEveryTransport("import { test } from '../src/vitest.ts';\ntest('x', ({ cluster }) => cluster.kubeConfig);")).toBe(false);
  });
});
