// Validation of the kinds controllers write (pkg/apis/core/validation and pkg/apis/apps|batch/
// validation, v1.36), through client-node and kubectl: each rule family with the real message
// and field path. Objects are defaulted first, as on the real server.
import * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { kubectlAvailable, kubectlRunner } from './support/kubectl.ts';
import { expectStatus } from './support/status.ts';
import { causeLines as causes, useValidationCluster } from './support/validation.ts';

const api = useValidationCluster();

const container = (extra: Partial<k8s.V1Container> = {}): k8s.V1Container => ({ name: 'app', image: 'nginx:1.27', ...extra });
const pod = (name: string, spec: Partial<k8s.V1PodSpec>) => api.core.createNamespacedPod({ namespace: 'default', body: { metadata: { name }, spec: { containers: [container()], ...spec } } });

describe('Pod spec', () => {
  it('requires containers, and a name and an image for each', async () => {
    await expectStatus(pod('none', { containers: [] }), { code: 422, reason: 'Invalid', message: 'Pod "none" is invalid: spec.containers: Required value' });
    const status = await expectStatus(pod('bare', { containers: [{ name: '' } as k8s.V1Container] }), { code: 422, reason: 'Invalid' });
    expect(causes(status)).toEqual(['spec.containers[0].name: Required value', 'spec.containers[0].image: Required value']);
  });

  it('checks container names as DNS labels and unique across init and app containers', async () => {
    const status = await expectStatus(
      pod('names', { initContainers: [container({ name: 'app' })], containers: [container({ name: 'App_1' }), container({ name: 'app' })] }),
      { code: 422 },
    );
    expect(causes(status)).toEqual([
      `spec.containers[0].name: Invalid value: "App_1": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      'spec.initContainers[0].name: Duplicate value: "app"',
    ]);
  });

  it('checks ports: range, protocol, names (IANA_SVC_NAME) and their uniqueness', async () => {
    const status = await expectStatus(
      pod('ports', {
        containers: [
          container({
            ports: [
              { containerPort: 70000, name: 'web' },
              { containerPort: 80, name: 'web', protocol: 'HTTP' },
              { containerPort: 81, name: 'Not-Valid--name-toolong' },
            ],
          }),
        ],
      }),
      { code: 422 },
    );
    expect(causes(status)).toEqual([
      'spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.containers[0].ports[1].name: Duplicate value: "web"',
      'spec.containers[0].ports[1].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
      'spec.containers[0].ports[2].name: Invalid value: "Not-Valid--name-toolong": must be no more than 15 characters',
      'spec.containers[0].ports[2].name: Invalid value: "Not-Valid--name-toolong": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      'spec.containers[0].ports[2].name: Invalid value: "Not-Valid--name-toolong": must not contain consecutive hyphens',
    ]);
  });

  it('checks env names (relaxed: printable ASCII but =) and that mounts name a volume', async () => {
    const status = await expectStatus(
      pod('env', {
        volumes: [{ name: 'data', emptyDir: {} }, { name: 'Bad_Volume', emptyDir: {} }],
        containers: [
          container({
            env: [{ name: '1-fine.name', value: 'x' }, { name: 'A=B', value: 'y' }],
            volumeMounts: [
              { name: 'data', mountPath: '/data' },
              { name: 'cache', mountPath: '/data' },
              { name: 'Bad_Volume', mountPath: '/bad' },
            ],
          }),
        ],
      }),
      { code: 422 },
    );
    expect(causes(status)).toEqual([
      `spec.volumes[1].name: Invalid value: "Bad_Volume": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      `spec.containers[0].env[1].name: Invalid value: "A=B": a valid environment variable name must consist only of printable ASCII characters other than '='`,
      'spec.containers[0].volumeMounts[1].name: Not found: "cache"',
      'spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/data": must be unique',
      'spec.containers[0].volumeMounts[2].name: Not found: "Bad_Volume"',
    ]);
  });

  it('checks restartPolicy; a volume without a source is defaulted to emptyDir, not refused', async () => {
    const status = await expectStatus(pod('policy', { restartPolicy: 'Sometimes', volumes: [{ name: 'empty' }] }), { code: 422 });
    expect(causes(status)).toEqual(['spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"']);
    const defaulted = await pod('sourceless', { volumes: [{ name: 'scratch' }] });
    expect(defaulted.spec?.volumes?.[0]).toEqual({ name: 'scratch', emptyDir: {} });
  });

  it('reports every source after the first as validateVolumeSource orders them, under its Go field names', async () => {
    const volume = { name: 'many', hostPath: { path: '/x' }, emptyDir: {}, cephfs: { monitors: ['m'] }, downwardAPI: {} } as k8s.V1Volume;
    const status = await expectStatus(pod('many-sources', { volumes: [volume] }), { code: 422 });
    expect(causes(status)).toEqual([
      'spec.volumes[0].hostPath: Forbidden: may not specify more than 1 volume type',
      'spec.volumes[0].cephFS: Forbidden: may not specify more than 1 volume type',
      'spec.volumes[0].downwarAPI: Forbidden: may not specify more than 1 volume type',
    ]);
  });

  it('accepts a valid pod', async () => {
    const created = await pod('ok', { volumes: [{ name: 'data', emptyDir: {} }], containers: [container({ ports: [{ containerPort: 8080, name: 'http' }], volumeMounts: [{ name: 'data', mountPath: '/data' }] })] });
    expect(created.spec?.containers[0]?.ports?.[0]?.protocol).toBe('TCP');
  });
});

const deployment = (name: string, selector: k8s.V1LabelSelector | undefined, labels: Record<string, string>, spec: Partial<k8s.V1DeploymentSpec> = {}): k8s.V1Deployment => ({
  metadata: { name },
  spec: { replicas: 1, selector: selector as k8s.V1LabelSelector, template: { metadata: { labels }, spec: { containers: [container()] } }, ...spec },
});

describe('Deployment', () => {
  it('requires a selector that selects the template labels', async () => {
    await expectStatus(api.apps.createNamespacedDeployment({ namespace: 'default', body: deployment('nosel', undefined, { app: 'web' }) }), {
      code: 422,
      message: 'Deployment.apps "nosel" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`]',
    });
    await expectStatus(api.apps.createNamespacedDeployment({ namespace: 'default', body: deployment('mismatch', { matchLabels: { app: 'web' } }, { app: 'other' }) }), {
      code: 422,
      message: 'Deployment.apps "mismatch" is invalid: spec.template.metadata.labels: Invalid value: {"app":"other"}: `selector` does not match template `labels`',
    });
  });

  it('refuses an empty selector, negative replicas and a template that does not restart always', async () => {
    const body = deployment('bad', {}, { app: 'web' }, { replicas: -1 });
    body.spec!.template.spec!.restartPolicy = 'Never';
    const status = await expectStatus(api.apps.createNamespacedDeployment({ namespace: 'default', body }), { code: 422 });
    expect(causes(status)).toEqual([
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      'spec.selector: Invalid value: {}: empty selector is invalid for deployment',
      'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
    ]);
  });

  it('validates the template as a pod spec', async () => {
    const body = deployment('tmpl', { matchLabels: { app: 'web' } }, { app: 'web' });
    body.spec!.template.spec!.containers = [{ name: 'app' } as k8s.V1Container];
    await expectStatus(api.apps.createNamespacedDeployment({ namespace: 'default', body }), { code: 422, message: 'Deployment.apps "tmpl" is invalid: spec.template.spec.containers[0].image: Required value' });
  });

  it('validates matchExpressions; a selector that cannot be built stops the template checks', async () => {
    const body = deployment('expr', { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: [] }] }, { app: 'web', tier: 'x' });
    body.spec!.template.spec!.containers = [{ name: 'app' } as k8s.V1Container];
    const status = await expectStatus(api.apps.createNamespacedDeployment({ namespace: 'default', body }), { code: 422 });
    expect(causes(status)).toEqual([
      "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      'spec.selector: Invalid value: {"matchLabels":{"app":"web"},"matchExpressions":[{"key":"tier","operator":"In"}]}: invalid label selector',
    ]);
  });

  it('keeps the selector immutable on update', async () => {
    await api.apps.createNamespacedDeployment({ namespace: 'default', body: deployment('web', { matchLabels: { app: 'web' } }, { app: 'web', v: '1' }) });
    const stored = await api.apps.readNamespacedDeployment({ name: 'web', namespace: 'default' });
    stored.spec!.selector = { matchLabels: { app: 'web', v: '1' } };
    await expectStatus(api.apps.replaceNamespacedDeployment({ name: 'web', namespace: 'default', body: stored }), {
      code: 422,
      message: 'Deployment.apps "web" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"web","v":"1"}}: field is immutable',
    });
  });
});

describe('other workloads', () => {
  it('ReplicaSet, StatefulSet and DaemonSet check their selectors against the template', async () => {
    const template = { metadata: { labels: { app: 'x' } }, spec: { containers: [container()] } };
    await expectStatus(api.apps.createNamespacedReplicaSet({ namespace: 'default', body: { metadata: { name: 'rs' }, spec: { selector: { matchLabels: { app: 'y' } }, template } } }), {
      code: 422,
      message: 'ReplicaSet.apps "rs" is invalid: spec.template.metadata.labels: Invalid value: {"app":"x"}: `selector` does not match template `labels`',
    });
    await expectStatus(api.apps.createNamespacedStatefulSet({ namespace: 'default', body: { metadata: { name: 'sts' }, spec: { selector: {}, serviceName: 'sts', template } } }), {
      code: 422,
      message: 'StatefulSet.apps "sts" is invalid: spec.selector: Invalid value: {}: empty selector is invalid for statefulset',
    });
    await expectStatus(api.apps.createNamespacedDaemonSet({ namespace: 'default', body: { metadata: { name: 'ds' }, spec: { selector: { matchLabels: { app: 'y' } }, template } } }), {
      code: 422,
      message: 'DaemonSet.apps "ds" is invalid: spec.template.metadata.labels: Invalid value: {"app":"x"}: `selector` does not match template `labels`',
    });
    // No selector: no Required (ValidateDaemonSetSpec has none), the template's labels do not match labels.Nothing().
    await expectStatus(api.apps.createNamespacedDaemonSet({ namespace: 'default', body: { metadata: { name: 'ds' }, spec: { template } as unknown as k8s.V1DaemonSetSpec } }), {
      code: 422,
      message: 'DaemonSet.apps "ds" is invalid: spec.template.metadata.labels: Invalid value: {"app":"x"}: `selector` does not match template `labels`',
    });
  });

  it('Job refuses a template that restarts always, and negative counts', async () => {
    const status = await expectStatus(
      api.batch.createNamespacedJob({ namespace: 'default', body: { metadata: { name: 'job' }, spec: { backoffLimit: -1, template: { spec: { restartPolicy: 'Always', containers: [container()] } } } } }),
      { code: 422 },
    );
    expect(causes(status)).toEqual([
      'spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0',
      'spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
    ]);
    const ok = await api.batch.createNamespacedJob({ namespace: 'default', body: { metadata: { name: 'ok' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [container()] } } } } });
    expect(ok.spec?.selector?.matchLabels?.['batch.kubernetes.io/controller-uid']).toBe(ok.metadata?.uid);
    // An update is validated too (job strategy ValidateUpdate runs ValidateJob): a patch cannot make the spec invalid.
    await expectStatus(api.batch.patchNamespacedJob({ name: 'ok', namespace: 'default', body: { spec: { backoffLimit: -2 } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch)), {
      code: 422,
      message: 'Job.batch "ok" is invalid: spec.backoffLimit: Invalid value: -2: must be greater than or equal to 0',
    });
  });

  it('StatefulSet updates may change only the fields ValidateStatefulSetUpdate lets through', async () => {
    const labels = { app: 'db' };
    const body = { metadata: { name: 'db' }, spec: { selector: { matchLabels: labels }, serviceName: 'db', template: { metadata: { labels }, spec: { containers: [container()] } } } };
    await api.apps.createNamespacedStatefulSet({ namespace: 'default', body });
    const scaled = await api.apps.patchNamespacedStatefulSet({ name: 'db', namespace: 'default', body: { spec: { replicas: 3, minReadySeconds: 5, revisionHistoryLimit: 4 } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    expect([scaled.spec?.replicas, scaled.spec?.minReadySeconds, scaled.spec?.revisionHistoryLimit]).toEqual([3, 5, 4]);
    const forbidden =
      "StatefulSet.apps \"db\" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";
    for (const spec of [{ serviceName: 'other' }, { selector: { matchExpressions: [{ key: 'app', operator: 'Exists' }] } }]) {
      await expectStatus(api.apps.patchNamespacedStatefulSet({ name: 'db', namespace: 'default', body: { spec } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch)), {
        code: 422,
        message: forbidden,
      });
    }
  });
});

describe('Service', () => {
  const svc = (name: string, spec: k8s.V1ServiceSpec) => api.core.createNamespacedService({ namespace: 'default', body: { metadata: { name }, spec } });

  it('requires ports unless headless or ExternalName, and names them when there are several', async () => {
    await expectStatus(svc('noports', { selector: { app: 'web' } }), { code: 422, message: 'Service "noports" is invalid: spec.ports: Required value' });
    const status = await expectStatus(svc('twoports', { ports: [{ port: 80 }, { port: 70000, name: 'Admin', protocol: 'HTTP' as never, targetPort: 'web_ui' as never }] }), { code: 422 });
    expect(causes(status)).toEqual([
      'spec.ports[0].name: Required value',
      `spec.ports[1].name: Invalid value: "Admin": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      'spec.ports[1].port: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.ports[1].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
      'spec.ports[1].targetPort: Invalid value: "web_ui": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
    ]);
    const headless = await svc('headless', { clusterIP: 'None', selector: { app: 'web' } });
    expect(headless.spec?.clusterIP).toBe('None');
  });

  it('checks the type and an ExternalName service\'s name', async () => {
    await expectStatus(svc('badtype', { type: 'Internal', ports: [{ port: 80 }] }), {
      code: 422,
      message: 'Service "badtype" is invalid: spec.type: Unsupported value: "Internal": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
    });
    await expectStatus(svc('ext', { type: 'ExternalName' }), { code: 422, message: 'Service "ext" is invalid: spec.externalName: Required value' });
    const ok = await svc('ext-ok', { type: 'ExternalName', externalName: 'db.example.com.' });
    expect(ok.spec?.externalName).toBe('db.example.com.');
  });
});

describe.skipIf(!kubectlAvailable)('through kubectl', () => {
  it('kubectl create reports a template whose labels the selector does not select', async () => {
    const kubectl = kubectlRunner((await api.cluster.listen()).kubeconfig);
    const manifest = `apiVersion: apps/v1
kind: Deployment
metadata: {name: kubectl-web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: api}}
    spec:
      containers: [{name: app, image: nginx}]
`;
    const r = await kubectl(['create', '-f', '-'], manifest);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      'The Deployment "kubectl-web" is invalid: spec.template.metadata.labels: Invalid value: {"app":"api"}: `selector` does not match template `labels`',
    );
  });
});
