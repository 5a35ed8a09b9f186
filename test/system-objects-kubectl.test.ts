// What every namespace holds and the ServiceAccount admission plugin, as kubectl sees them over
// cluster.listen().
import { describe, expect, it } from 'vitest';
import { kubectlAvailable, useKubectlCluster } from './support/kubectl.ts';

describe.skipIf(!kubectlAvailable)('system objects through kubectl', { shuffle: false }, () => {
  const k = useKubectlCluster();

  it('gets the kubernetes Service in `get all` and a default ServiceAccount per namespace', async () => {
    const all = await k.kubectl(['get', 'all', '-o', 'name']);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout.trim().split('\n')).toEqual(['service/kubernetes']);
    const svc = await k.kubectl(['get', 'service', 'kubernetes', '-o', 'jsonpath={.spec.clusterIP} {.spec.ports[0].name} {.spec.ports[0].port} {.spec.ports[0].targetPort}']);
    expect(svc.stdout).toBe('10.96.0.1 https 443 6443');
    const sas = await k.kubectl(['get', 'serviceaccounts', '--all-namespaces', '-o', 'jsonpath={range .items[*]}{.metadata.namespace}/{.metadata.name} {end}']);
    expect(sas.stdout.trim()).toBe('default/default kube-node-lease/default kube-public/default kube-system/default');
  });

  it('gives a namespace kubectl creates its ServiceAccount and kube-root-ca.crt at once', async () => {
    expect((await k.kubectl(['create', 'namespace', 'team-a'])).stdout.trim()).toBe('namespace/team-a created');
    const cms = await k.kubectl(['get', 'configmaps', '-n', 'team-a', '-o', 'name']);
    expect(cms.stdout.trim()).toBe('configmap/kube-root-ca.crt');
    const ca = await k.kubectl(['get', 'configmap', 'kube-root-ca.crt', '-n', 'team-a', '-o', 'jsonpath={.data.ca\\.crt}']);
    expect(ca.stdout).toMatch(/^-----BEGIN CERTIFICATE-----\n[\s\S]+\n-----END CERTIFICATE-----\n$/);
    expect((await k.kubectl(['get', 'serviceaccount', 'default', '-n', 'team-a', '-o', 'name'])).stdout.trim()).toBe('serviceaccount/default');
  });

  it('runs a pod as the default ServiceAccount with its token volume mounted', async () => {
    const run = await k.kubectl(['run', 'web', '-n', 'team-a', '--image=nginx']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe('pod/web created');
    const pod = JSON.parse((await k.kubectl(['get', 'pod', 'web', '-n', 'team-a', '-o', 'json'])).stdout) as {
      spec: { serviceAccountName: string; serviceAccount: string; volumes: Array<{ name: string }>; containers: Array<{ volumeMounts: unknown[] }> };
    };
    expect(pod.spec.serviceAccountName).toBe('default');
    expect(pod.spec.serviceAccount).toBe('default');
    const volume = pod.spec.volumes[0]!.name;
    expect(volume).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(pod.spec.containers[0]!.volumeMounts).toEqual([{ name: volume, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }]);
  });

  it('answers kubectl run --serviceaccount for a missing ServiceAccount with the plugin\'s 403', async () => {
    const run = await k.kubectl(['run', 'lost', '-n', 'team-a', '--image=nginx', '--overrides={"spec":{"serviceAccountName":"builder"}}']);
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe('Error from server (Forbidden): pods "lost" is forbidden: error looking up service account team-a/builder: serviceaccount "builder" not found');
  });
});
