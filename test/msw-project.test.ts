// The msw project leaves out the files whose clients never go through cluster.kubeConfig
// (test/support/msw-project.ts): each of them must still not, or it would lose its run on msw.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEPENDS_ON_TRANSPORT, TRANSPORT_INDEPENDENT_FILES } from './support/msw-project.ts';

const root = new URL('..', import.meta.url);

describe('files the msw project leaves out', () => {
  it.each(Object.keys(TRANSPORT_INDEPENDENT_FILES))('%s exists and sends nothing through cluster.kubeConfig', (file) => {
    const path = new URL(file, root);
    expect(existsSync(path), `${file} is listed but does not exist`).toBe(true);
    const text = readFileSync(path, 'utf8');
    const used = DEPENDS_ON_TRANSPORT.filter((pattern) => pattern.test(text)).map(String);
    expect(used, `${file} reaches a cluster through cluster.kubeConfig: run it on both projects`).toEqual([]);
  });

  it('catches a file that does', () => {
    const uses = ['const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);', 'await k.core.readNamespace({ name })', 'await installWidgets(cluster, schema)'];
    for (const text of uses) expect(DEPENDS_ON_TRANSPORT.some((pattern) => pattern.test(text)), text).toBe(true);
  });
});
