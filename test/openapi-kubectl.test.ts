// kubectl's default `--validate=strict` asks OpenAPI v3 whether the server takes fieldValidation
// before create/apply/replace; these run the real kubectl against cluster.listen() to prove the
// documents are what it needs (and that `explain` can render from them).
import * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { kubectlAvailable, useKubectlCluster } from './support/kubectl.ts';

const configMap = (value: string) => `apiVersion: v1
kind: ConfigMap
metadata:
  name: app-config
  namespace: default
data:
  key1: ${value}
`;

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
  labels:
    app: web
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
        ports:
        - containerPort: 80
`;

describe.skipIf(!kubectlAvailable)('kubectl with OpenAPI served (default --validate=strict)', { shuffle: false }, () => {
  // One cluster for the block and tests that build on each other's objects: they run in order even under --sequence.shuffle.
  const k = useKubectlCluster();

  it('applies a ConfigMap (create), then re-applies it unchanged', async () => {
    const created = await k.kubectl(['apply', '-f', '-'], configMap('value1'));
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    expect(created.stdout.trim()).toBe('configmap/app-config created');
    const cm = await k.core.readNamespacedConfigMap({ name: 'app-config', namespace: 'default' });
    expect(cm.data).toEqual({ key1: 'value1' });
    expect(cm.metadata?.annotations?.['kubectl.kubernetes.io/last-applied-configuration']).toContain('"key1":"value1"');

    const again = await k.kubectl(['apply', '-f', '-'], configMap('value1'));
    expect(again.stderr).toBe('');
    expect(again.stdout.trim()).toBe('configmap/app-config unchanged');
  });

  it('replaces the ConfigMap from a file', async () => {
    const r = await k.kubectl(['replace', '-f', '-'], configMap('replaced'));
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('configmap/app-config replaced');
    const cm = await k.core.readNamespacedConfigMap({ name: 'app-config', namespace: 'default' });
    expect(cm.data).toEqual({ key1: 'replaced' });
  });

  it('creates a Deployment from a file, and applies another', async () => {
    const created = await k.kubectl(['create', '-f', '-'], deployment);
    expect(created.stderr).toBe('');
    expect(created.stdout.trim()).toBe('deployment.apps/web created');
    const applied = await k.kubectl(['apply', '-f', '-'], deployment.replace(/name: web\n  namespace/, 'name: web2\n  namespace'));
    expect(applied.stderr).toBe('');
    expect(applied.stdout.trim()).toBe('deployment.apps/web2 created');
    const apps = k.cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
    expect((await apps.readNamespacedDeployment({ name: 'web2', namespace: 'default' })).spec?.replicas).toBe(2);
  });

  it('creates a ConfigMap from a file with kubectl create', async () => {
    const r = await k.kubectl(['create', '-f', '-'], configMap('v').replace('app-config', 'created-config'));
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('configmap/created-config created');
  });

  it('explains configmap from the v3 document', async () => {
    const r = await k.kubectl(['explain', 'configmap']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('KIND:       ConfigMap');
    expect(r.stdout).toContain('VERSION:    v1');
    expect(r.stdout).toMatch(/data\s+<map\[string\]string>/);
    const field = await k.kubectl(['explain', 'configmap.metadata.labels']);
    expect(field.code, field.stderr).toBe(0);
    expect(field.stdout).toContain('FIELD: labels <map[string]string>');
  });

  it('explains a deployment down to its containers, from the definitions generated from the Go types', async () => {
    const r = await k.kubectl(['explain', 'deployment']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('GROUP:      apps');
    expect(r.stdout).toMatch(/spec\s+<DeploymentSpec>/);
    const ports = await k.kubectl(['explain', 'deployment.spec.template.spec.containers.ports']);
    expect(ports.code, ports.stderr).toBe(0);
    expect(ports.stdout).toContain('FIELD: ports <[]ContainerPort>');
    expect(ports.stdout).toMatch(/containerPort\s+<integer> -required-/);
  });

  it('serves the index and the hash-addressed GV documents through kubectl get --raw', async () => {
    const index = JSON.parse((await k.kubectl(['get', '--raw', '/openapi/v3'])).stdout) as { paths: Record<string, { serverRelativeURL: string }> };
    const url = index.paths['apis/apps/v1']!.serverRelativeURL;
    expect(url).toMatch(/^\/openapi\/v3\/apis\/apps\/v1\?hash=[0-9A-F]{128}$/);
    const doc = JSON.parse((await k.kubectl(['get', '--raw', url])).stdout) as { paths: Record<string, Record<string, { parameters?: { name: string }[] }>> };
    const patch = doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}']!.patch!;
    expect(patch.parameters!.map((p) => p.name)).toContain('fieldValidation');
  });

  // These three read /openapi/v2, which kubectl asks for in protobuf only.
  const list = (value: string) => `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: listed-a, namespace: default}
  data: {k: ${value}}
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: listed-b, namespace: default}
  data: {k: ${value}}
`;

  it('replaces a kind: List from stdin', async () => {
    const created = await k.kubectl(['create', '-f', '-'], list('one'));
    expect(created.code, created.stderr).toBe(0);
    const replaced = await k.kubectl(['replace', '-f', '-'], list('two'));
    expect(replaced.stderr).toBe('');
    expect(replaced.code).toBe(0);
    expect(replaced.stdout.trim().split('\n')).toEqual(['configmap/listed-a replaced', 'configmap/listed-b replaced']);
    for (const name of ['listed-a', 'listed-b']) expect((await k.core.readNamespacedConfigMap({ name, namespace: 'default' })).data).toEqual({ k: 'two' });
  });

  it('diffs a changed object against the live one (exit 1, the change in unified form)', async () => {
    await k.kubectl(['apply', '-f', '-'], configMap('live'));
    const r = await k.kubectl(['diff', '-f', '-'], configMap('planned'));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^-\s+key1: live$/m);
    expect(r.stdout).toMatch(/^\+\s+key1: planned$/m);
    const same = await k.kubectl(['diff', '-f', '-'], configMap('live'));
    expect(same.code, same.stderr + same.stdout).toBe(0);
  });

  // As against a real server: kubectl maps every document before it sends any, so the object of a
  // CRD created by the same apply is not yet in its discovery; the CRD is created, the object is
  // refused with kubectl's hint, and the next apply creates it.
  it('applies a CRD and an object of it from one file: the CRD first time, the object the second', async () => {
    const manifest = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gizmos.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: gizmos, singular: gizmo, kind: Gizmo}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {size: {type: integer}}}
---
apiVersion: example.com/v1
kind: Gizmo
metadata: {name: g1, namespace: default}
spec: {size: 3}
`;
    const first = await k.kubectl(['apply', '-f', '-'], manifest);
    expect(first.code).toBe(1);
    expect(first.stdout.trim()).toBe('customresourcedefinition.apiextensions.k8s.io/gizmos.example.com created');
    expect(first.stderr).toContain('resource mapping not found for name: "g1" namespace: "default" from "STDIN": no matches for kind "Gizmo" in version "example.com/v1"');
    expect(first.stderr).toContain('ensure CRDs are installed first');
    const second = await k.kubectl(['apply', '-f', '-'], manifest);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('gizmo.example.com/g1 created');
  });
});
