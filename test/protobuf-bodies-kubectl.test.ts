// kubectl's typed clients (client-go clientsets with ContentType application/vnd.kubernetes.protobuf)
// send protobuf bodies; kube-apiserver decodes every built-in kind that way. These kubectl commands
// answered 415 UnsupportedMediaType before the protobuf tables covered every served kind
// (src/generated/protobuf-messages.generated.ts) and the subresources' bodies.
import * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { kubectlAvailable, useKubectlCluster } from './support/kubectl.ts';

describe.skipIf(!kubectlAvailable)('kubectl commands that send protobuf bodies', () => {
  const ctx = useKubectlCluster();

  it('kubectl autoscale creates a HorizontalPodAutoscaler from a protobuf autoscaling/v1 body', async () => {
    const { kubectl, cluster } = ctx;
    expect(await kubectl(['create', 'deployment', 'web', '--image=nginx', '--replicas=2'])).toMatchObject({ code: 0 });
    const res = await kubectl(['autoscale', 'deployment', 'web', '--min=2', '--max=5', '--cpu-percent=80', '-v=8']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe('horizontalpodautoscaler.autoscaling/web autoscaled\n');
    // The POST itself was protobuf (kubectl logs its request headers at -v=8).
    expect(res.stderr).toMatch(/POST .*\/apis\/autoscaling\/v1\/namespaces\/default\/horizontalpodautoscalers[\s\S]*Content-Type: application\/vnd\.kubernetes\.protobuf/);
    const hpa = await cluster.kubeConfig.makeApiClient(k8s.AutoscalingV2Api).readNamespacedHorizontalPodAutoscaler({ name: 'web', namespace: 'default' });
    expect(hpa.spec).toEqual({
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      minReplicas: 2,
      maxReplicas: 5,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
    });
  });

  it('kubectl create token posts a protobuf TokenRequest to serviceaccounts/token', async () => {
    const res = await ctx.kubectl(['create', 'token', 'default', '--audience=api', '--duration=10m']);
    expect(res.code, res.stderr).toBe(0);
    const [header, payload] = res.stdout.trim().split('.');
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toMatchObject({ alg: 'RS256' });
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as { aud: string[]; sub: string; exp: number; iat: number };
    expect(claims).toMatchObject({ aud: ['api'], sub: 'system:serviceaccount:default:default' });
    expect(claims.exp - claims.iat).toBe(600);
  });

  it('pods/eviction and pods/binding take protobuf bodies (client-go typed clients), with the PDB refusal as for JSON', async () => {
    const { cluster, core } = ctx;
    // Protocol buffers by hand: a length-delimited field is tag, length, bytes (bodies under 128 bytes).
    const field = (n: number, ...parts: (string | Buffer)[]) => {
      const body = Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
      return Buffer.concat([Buffer.from([(n << 3) | 2, body.length]), body]);
    };
    const envelope = (apiVersion: string, kind: string, raw: Buffer) => Buffer.concat([Buffer.from('k8s\0'), field(1, field(1, apiVersion), field(2, kind)), field(2, raw)]);
    const post = (path: string, body: Buffer) =>
      fetch(`${cluster.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/vnd.kubernetes.protobuf', accept: 'application/json' }, body: new Uint8Array(body) });
    await cluster.apply({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'worker' } });
    const pod = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', labels: { app: name } }, spec: { terminationGracePeriodSeconds: 0, containers: [{ name: 'c', image: 'nginx' }] } });
    await cluster.apply(pod('free'));
    await cluster.apply(pod('guarded'));
    // core.v1.Binding: metadata = 1, target (ObjectReference: kind = 1, name = 3) = 2.
    for (const name of ['free', 'guarded']) {
      const bound = await post(`/api/v1/namespaces/default/pods/${name}/binding`, envelope('v1', 'Binding', Buffer.concat([field(1, field(1, name)), field(2, field(1, 'Node'), field(3, 'worker'))])));
      expect(bound.status).toBe(201);
    }
    expect((await core.readNamespacedPod({ name: 'free', namespace: 'default' })).spec?.nodeName).toBe('worker');
    // Running and Ready, as a kubelet reports (a Pending pod may be evicted whatever its budget says).
    for (const name of ['free', 'guarded']) {
      const current = await core.readNamespacedPod({ name, namespace: 'default' });
      current.status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };
      await core.replaceNamespacedPodStatus({ name, namespace: 'default', body: current });
    }
    await cluster.apply({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'guard', namespace: 'default' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'guarded' } } } });
    await cluster.settle();
    // policy.v1.Eviction: metadata = 1.
    const evicted = await post('/api/v1/namespaces/default/pods/free/eviction', envelope('policy/v1', 'Eviction', field(1, field(1, 'free'))));
    expect(evicted.status).toBe(201);
    expect((await core.listNamespacedPod({ namespace: 'default' })).items.map((p) => p.metadata?.name)).toEqual(['guarded']);
    const refused = await post('/api/v1/namespaces/default/pods/guarded/eviction', envelope('policy/v1', 'Eviction', field(1, field(1, 'guarded'))));
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ kind: 'Status', reason: 'TooManyRequests', message: "Cannot evict pod as it would violate the pod's disruption budget." });
  });
});
