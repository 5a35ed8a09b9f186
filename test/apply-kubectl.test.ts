// kubectl apply --server-side over cluster.listen(): applies, conflicts, --force-conflicts, and the
// move from client-side to server-side apply.
import { describe, expect, it } from 'vitest';
import { kubectlAvailable, useKubectlCluster } from './support/kubectl.ts';

const configMap = (name: string, data: Record<string, string>) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: default\ndata:\n${Object.entries(data)
    .map(([k, v]) => `  ${k}: "${v}"`)
    .join('\n')}\n`;

describe.skipIf(!kubectlAvailable)('kubectl apply --server-side', () => {
  const k = useKubectlCluster();

  it('applies, reports a conflict with another manager, and takes over with --force-conflicts', async () => {
    const first = await k.kubectl(['apply', '--server-side', '-f', '-'], configMap('ssa', { mode: 'fast' }));
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout.trim()).toBe('configmap/ssa serverside-applied');
    const cm = await k.core.readNamespacedConfigMap({ name: 'ssa', namespace: 'default' });
    expect(cm.metadata?.managedFields?.map((e) => [e.manager, e.operation])).toEqual([['kubectl', 'Apply']]);

    const conflict = await k.kubectl(['apply', '--server-side', '--field-manager=other', '-f', '-'], configMap('ssa', { mode: 'slow' }));
    expect(conflict.code).toBe(1);
    expect(conflict.stderr).toContain('Apply failed with 1 conflict: conflict with "kubectl": .data.mode');

    const forced = await k.kubectl(['apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', '-'], configMap('ssa', { mode: 'slow' }));
    expect(forced.code, forced.stderr).toBe(0);
    const after = await k.core.readNamespacedConfigMap({ name: 'ssa', namespace: 'default' });
    expect(after.data).toEqual({ mode: 'slow' });
    expect(after.metadata?.managedFields?.map((e) => e.manager)).toEqual(['other']);
  });

  it('moves from client-side apply to server-side apply without conflicts on unchanged fields', async () => {
    const csa = await k.kubectl(['apply', '-f', '-'], configMap('migrate', { a: '1', b: '2' }));
    expect(csa.code, csa.stderr).toBe(0);
    const before = await k.core.readNamespacedConfigMap({ name: 'migrate', namespace: 'default' });
    expect(before.metadata?.managedFields?.map((e) => [e.manager, e.operation])).toEqual([['kubectl-client-side-apply', 'Update']]);

    const ssa = await k.kubectl(['apply', '--server-side', '-f', '-'], configMap('migrate', { a: '10', b: '2' }));
    expect(ssa.code, ssa.stderr).toBe(0);
    const after = await k.core.readNamespacedConfigMap({ name: 'migrate', namespace: 'default' });
    expect(after.data).toEqual({ a: '10', b: '2' });
    // kubectl's server-side apply keeps the last-applied annotation it finds current.
    expect(JSON.parse(after.metadata!.annotations!['kubectl.kubernetes.io/last-applied-configuration']!)).toMatchObject({ data: { a: '10', b: '2' } });
    expect(after.metadata?.managedFields?.find((e) => e.manager === 'kubectl')?.operation).toBe('Apply');
  });
});
