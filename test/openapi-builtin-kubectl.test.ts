// kubectl explain and client-side apply of the built-in kinds added from the generated catalogue,
// whose OpenAPI definitions are generated from the Go types (scripts/gen-openapi-definitions.py):
// explain walks them down to nested fields, and apply computes its strategic merge patch from
// their patch markers (a wrong merge key would duplicate or drop list entries on re-apply).
import * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { kubectlAvailable, useKubectlCluster } from './support/kubectl.ts';

/** explain's text with its line wrapping and indentation folded, for matching whole sentences. */
const flat = (s: string): string => s.replace(/\s+/g, ' ');

const ingress = (backendPort: number, extraPath = '') => `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web
  namespace: default
spec:
  rules:
  - host: a.example.com
    http:
      paths:
      - path: /
        pathType: Prefix
        backend:
          service:
            name: web
            port:
              number: ${backendPort}
${extraPath}  - host: b.example.com
    http:
      paths:
      - path: /api
        pathType: Exact
        backend:
          service:
            name: api
            port:
              name: http
`;

const networkPolicy = (ports: string) => `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: allow-web
  namespace: default
spec:
  podSelector:
    matchLabels:
      app: web
  policyTypes: [Ingress, Egress]
  ingress:
  - from:
    - podSelector:
        matchLabels:
          role: frontend
    - ipBlock:
        cidr: 10.0.0.0/8
        except: [10.1.0.0/16]
    ports:
${ports}
  egress:
  - to:
    - namespaceSelector: {}
    ports:
    - protocol: UDP
      port: 53
`;

describe.skipIf(!kubectlAvailable)('kubectl explain and apply on generated built-in schemas', { shuffle: false }, () => {
  // One cluster for the block; the apply tests build on each other's objects and run in order.
  const k = useKubectlCluster();

  it('explains pdb.spec.minAvailable as an IntOrString with its description', async () => {
    const r = await k.kubectl(['explain', 'pdb.spec.minAvailable']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('GROUP:      policy');
    expect(r.stdout).toContain('KIND:       PodDisruptionBudget');
    expect(r.stdout).toContain('VERSION:    v1');
    expect(r.stdout).toContain('FIELD: minAvailable <IntOrString>');
    expect(flat(r.stdout)).toContain(
      'An eviction is allowed if at least "minAvailable" pods selected by "selector" will still be available after the eviction, i.e. even in the absence of the evicted pod. So for example you can prevent all voluntary evictions by specifying "100%".',
    );
    expect(flat(r.stdout)).toContain('IntOrString is a type that can hold an int32 or a string.');
  });

  it('explains ingress.spec.rules.http.paths with its nested fields and required markers', async () => {
    const r = await k.kubectl(['explain', 'ingress.spec.rules.http.paths']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('GROUP:      networking.k8s.io');
    expect(r.stdout).toContain('FIELD: paths <[]HTTPIngressPath>');
    expect(flat(r.stdout)).toContain('HTTPIngressPath associates a path with a backend. Incoming urls matching the path are forwarded to the backend.');
    expect(r.stdout).toMatch(/backend\t<IngressBackend> -required-/);
    expect(r.stdout).toMatch(/path\t<string>\n/);
    expect(r.stdout).toMatch(/pathType\t<string> -required-/);
    const port = await k.kubectl(['explain', 'ingress.spec.rules.http.paths.backend.service.port.number']);
    expect(port.code, port.stderr).toBe(0);
    expect(port.stdout).toContain('FIELD: number <integer>');
  });

  it('explains hpa.spec.metrics of autoscaling/v2, and autoscaling/v1 on request', async () => {
    const r = await k.kubectl(['explain', 'hpa.spec.metrics']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('GROUP:      autoscaling');
    expect(r.stdout).toContain('VERSION:    v2');
    expect(r.stdout).toContain('FIELD: metrics <[]MetricSpec>');
    expect(flat(r.stdout)).toContain('MetricSpec specifies how to scale based on a single metric');
    expect(r.stdout).toMatch(/containerResource\t<ContainerResourceMetricSource>/);
    expect(r.stdout).toMatch(/type\t<string> -required-/);
    const v1 = await k.kubectl(['explain', 'hpa.spec', '--api-version=autoscaling/v1']);
    expect(v1.code, v1.stderr).toBe(0);
    expect(v1.stdout).toMatch(/targetCPUUtilizationPercentage\t<integer>/);
    expect(v1.stdout).not.toContain('metrics');
  });

  it('answers a field that does not exist as kubectl does', async () => {
    const r = await k.kubectl(['explain', 'pdb.spec.nonsense']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('field "nonsense" does not exist');
  });

  it('applies an Ingress with lists, re-applies it unchanged, and changes one entry in place', async () => {
    const created = await k.kubectl(['apply', '-f', '-'], ingress(80));
    expect(created.stderr).toBe('');
    expect(created.stdout.trim()).toBe('ingress.networking.k8s.io/web created');
    const again = await k.kubectl(['apply', '-f', '-'], ingress(80));
    expect(again.stderr).toBe('');
    expect(again.stdout.trim()).toBe('ingress.networking.k8s.io/web unchanged');

    const changed = await k.kubectl(['apply', '-f', '-'], ingress(8080));
    expect(changed.stderr).toBe('');
    expect(changed.stdout.trim()).toBe('ingress.networking.k8s.io/web configured');
    const net = k.cluster.kubeConfig.makeApiClient(k8s.NetworkingV1Api);
    const read = await net.readNamespacedIngress({ name: 'web', namespace: 'default' });
    expect(read.spec?.rules?.map((r) => r.host)).toEqual(['a.example.com', 'b.example.com']);
    expect(read.spec?.rules?.[0]?.http?.paths.map((p) => p.backend.service?.port?.number)).toEqual([8080]);
    expect(read.spec?.rules?.[1]?.http?.paths.map((p) => p.backend.service?.port?.name)).toEqual(['http']);
    expect((await k.kubectl(['apply', '-f', '-'], ingress(8080))).stdout.trim()).toBe('ingress.networking.k8s.io/web unchanged');
  });

  it('applies a NetworkPolicy with lists, re-applies it unchanged, and drops a port that left the manifest', async () => {
    const twoPorts = '    - protocol: TCP\n      port: 80\n    - protocol: TCP\n      port: 443';
    const created = await k.kubectl(['apply', '-f', '-'], networkPolicy(twoPorts));
    expect(created.stderr).toBe('');
    expect(created.stdout.trim()).toBe('networkpolicy.networking.k8s.io/allow-web created');
    const again = await k.kubectl(['apply', '-f', '-'], networkPolicy(twoPorts));
    expect(again.stderr).toBe('');
    expect(again.stdout.trim()).toBe('networkpolicy.networking.k8s.io/allow-web unchanged');

    const changed = await k.kubectl(['apply', '-f', '-'], networkPolicy('    - protocol: TCP\n      port: 443'));
    expect(changed.stderr).toBe('');
    expect(changed.stdout.trim()).toBe('networkpolicy.networking.k8s.io/allow-web configured');
    const net = k.cluster.kubeConfig.makeApiClient(k8s.NetworkingV1Api);
    const read = await net.readNamespacedNetworkPolicy({ name: 'allow-web', namespace: 'default' });
    expect(read.spec?.ingress?.[0]?.ports).toEqual([{ protocol: 'TCP', port: 443 }]);
    expect(read.spec?.ingress?.[0]?._from).toEqual([
      { podSelector: { matchLabels: { role: 'frontend' } } },
      { ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] } },
    ]);
    expect(read.spec?.egress?.[0]?.ports).toEqual([{ protocol: 'UDP', port: 53 }]);
    expect(read.spec?.policyTypes).toEqual(['Ingress', 'Egress']);
  });

  it('re-applies a Deployment whose containers, ports and env changed: SMP merges env by name, keeping another writer’s entry, and drops what left the manifest', async () => {
    const deployment = (containers: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: lists, namespace: default}
spec:
  selector: {matchLabels: {app: lists}}
  template:
    metadata: {labels: {app: lists}}
    spec:
      containers:
${containers}`;
    const a = (value: string, ports: string) => `      - name: a\n        image: nginx\n        ports: [${ports}]\n        env: [{name: EX, value: "${value}"}, {name: EY, value: "2"}]\n`;
    const b = '      - name: b\n        image: busybox\n';
    const created = await k.kubectl(['apply', '-f', '-'], deployment(a('1', '{containerPort: 80}, {containerPort: 443}') + b));
    expect(created.stderr).toBe('');
    expect(created.stdout.trim()).toBe('deployment.apps/lists created');
    // An entry another writer added survives the re-apply only if env merges by name (a replaced list would drop it).
    const setEnv = await k.kubectl(['set', 'env', 'deployment/lists', '-c', 'a', 'EZ=3']);
    expect(setEnv.code, setEnv.stderr).toBe(0);
    const changed = await k.kubectl(['apply', '-f', '-'], deployment(a('9', '{containerPort: 80}')));
    expect(changed.stderr).toBe('');
    expect(changed.stdout.trim()).toBe('deployment.apps/lists configured');
    const apps = k.cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
    const containers = (await apps.readNamespacedDeployment({ name: 'lists', namespace: 'default' })).spec?.template.spec?.containers ?? [];
    expect(containers.map((c) => c.name)).toEqual(['a']);
    expect(containers[0]?.ports).toEqual([{ containerPort: 80, protocol: 'TCP' }]);
    expect(containers[0]?.env).toEqual([
      { name: 'EX', value: '9' },
      { name: 'EY', value: '2' },
      { name: 'EZ', value: '3' },
    ]);
  });

  it('diffs a changed Ingress against the live one', async () => {
    const r = await k.kubectl(['diff', '-f', '-'], ingress(9090));
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^-\s+number: 8080$/m);
    expect(r.stdout).toMatch(/^\+\s+number: 9090$/m);
  });
});
