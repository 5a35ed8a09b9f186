// ValidateServiceUpdate's transition rules (pkg/apis/core/validation/validation.go,
// validateUpgradeDowngradeClusterIPs and the update half of validateLoadBalancerClassField): a
// Service's primary clusterIP and a LoadBalancer's class may not change once set. Found by
// kubectl's own test/cmd/testdata/apply.txtar ("kubectl apply --force"), where kubefake took a
// headless Service's new clusterIP.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { kubectlAvailable, kubectlRunner } from './support/kubectl.ts';
import { expectStatus } from './support/status.ts';
import { causeLines, useValidationCluster } from './support/validation.ts';

const api = useValidationCluster();
const merge = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
const create = (name: string, spec: k8s.V1ServiceSpec) => api.core.createNamespacedService({ namespace: 'default', body: { metadata: { name }, spec } });
const patch = (name: string, spec: Record<string, unknown>) => api.core.patchNamespacedService({ name, namespace: 'default', body: { spec } }, merge);

describe('Service update', () => {
  it('refuses a headless Service a clusterIP, and allocates nothing for the refused update', async () => {
    await create('headless', { clusterIP: 'None', selector: { app: 'test' }, ports: [{ port: 80 }] });
    // A merge patch of clusterIP alone: NormalizeClusterIPs makes clusterIPs follow it.
    const status = await expectStatus(patch('headless', { clusterIP: '10.96.100.12' }), { code: 422, reason: 'Invalid' });
    expect(status.message).toBe('Service "headless" is invalid: spec.clusterIPs[0]: Invalid value: ["10.96.100.12"]: may not change once set');
    expect((await api.core.readNamespacedService({ name: 'headless', namespace: 'default' })).spec?.clusterIPs).toEqual(['None']);
    // The address was never taken: another Service may have it.
    expect((await create('takes-12', { clusterIP: '10.96.100.12', ports: [{ port: 80 }] })).spec?.clusterIPs).toEqual(['10.96.100.12']);
  });

  it('refuses a new primary clusterIP, or turning headless, with ValidateService errors after the transition ones', async () => {
    const created = await create('allocated', { selector: { app: 'test' }, ports: [{ port: 80 }] });
    const ip = created.spec!.clusterIP!;
    expect(causeLines(await expectStatus(patch('allocated', { clusterIP: '10.96.100.13', clusterIPs: ['10.96.100.13'] }), { code: 422 }))).toEqual([
      'spec.clusterIPs[0]: Invalid value: ["10.96.100.13"]: may not change once set',
    ]);
    // Both rule sets report: the transition first, then ValidateService's.
    expect(causeLines(await expectStatus(patch('allocated', { clusterIP: 'None', clusterIPs: ['None'], ports: [{ port: 0 }] }), { code: 422 }))).toEqual([
      'spec.clusterIPs[0]: Invalid value: ["None"]: may not change once set',
      'spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
      // SetDefaults_Service copied the port into the unset targetPort.
      'spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive',
    ]);
    // Dropping the addresses from the body keeps the allocated ones (patchAllocatedValues): no change.
    const kept = await api.core.replaceNamespacedService({ name: 'allocated', namespace: 'default', body: { metadata: { name: 'allocated', labels: { touched: 'yes' } }, spec: { selector: { app: 'test' }, ports: [{ port: 80 }] } } });
    expect(kept.spec?.clusterIPs).toEqual([ip]);
    expect(kept.metadata?.labels).toEqual({ touched: 'yes' });
  });

  it('lets a headless Service stay headless, and an ExternalName one become a ClusterIP one', async () => {
    const relabelled = await patch('headless', { selector: { app: 'other' } });
    expect(relabelled.spec?.clusterIPs).toEqual(['None']);
    await create('external', { type: 'ExternalName', externalName: 'db.example.com' });
    const converted = await patch('external', { type: 'ClusterIP', externalName: null, ports: [{ port: 80 }] });
    expect(converted.spec?.clusterIPs).toHaveLength(1);
  });

  it("refuses a LoadBalancer's new loadBalancerClass", async () => {
    await create('lb', { type: 'LoadBalancer', loadBalancerClass: 'example.com/lb-a', ports: [{ port: 80 }] });
    const status = await expectStatus(patch('lb', { loadBalancerClass: 'example.com/lb-b' }), { code: 422 });
    expect(causeLines(status)).toEqual(['spec.loadBalancerClass: Invalid value: "example.com/lb-b": may not change once set']);
    expect(causeLines(await expectStatus(patch('lb', { loadBalancerClass: null }), { code: 422 }))).toEqual(['spec.loadBalancerClass: Invalid value: null: may not change once set']);
  });

  it.runIf(kubectlAvailable)('kubectl apply reports the change, and apply --force replaces the Service', async () => {
    const kubectl = kubectlRunner((await api.cluster.listen()).kubeconfig);
    const dir = mkdtempSync(join(tmpdir(), 'kubefake-svc-'));
    const revision = (clusterIP: string) => {
      const file = join(dir, `svc-${clusterIP}.yaml`);
      writeFileSync(file, `apiVersion: v1\nkind: Service\nmetadata:\n  name: a\nspec:\n  selector:\n    app: test\n  clusterIP: ${clusterIP}\n  ports:\n    - port: 80\n`);
      return file;
    };
    expect((await kubectl(['apply', '-f', revision('None')])).stdout).toBe('service/a created\n');
    const refused = await kubectl(['apply', '-f', revision('10.96.100.22')]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('The Service "a" is invalid: spec.clusterIPs[0]: Invalid value: ["10.96.100.22"]: may not change once set');
    const forced = await kubectl(['apply', '-f', revision('10.96.100.22'), '--force']);
    expect(forced.stdout).toBe('service/a configured\n');
    expect((await kubectl(['get', 'service', 'a', '-o', 'jsonpath={.spec.clusterIP}'])).stdout).toBe('10.96.100.22');
  });
});
