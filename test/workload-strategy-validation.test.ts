// Update strategies of the apps workloads as pkg/apis/apps/validation (v1.36) validates them:
// ValidateDeploymentStrategy, ValidateDaemonSetUpdateStrategy and the StatefulSet's update
// strategy and pod management policy, through client-node with the exact texts. Values are
// defaulted first (RollingUpdate with 25%/25%, 1/0, partition 0), as on the real server.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';
import { causeLines } from './support/validation.ts';

let cluster: FakeCluster;
let apps: k8s.AppsV1Api;
let policy: k8s.PolicyV1Api;
beforeAll(async () => {
  cluster = await createFakeCluster();
  apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
  policy = cluster.kubeConfig.makeApiClient(k8s.PolicyV1Api);
});
afterAll(() => cluster.close());

const ns = 'default';
const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } };
const selector = { matchLabels: { app: 'web' } };
const deployment = (name: string, strategy: k8s.V1DeploymentStrategy) => apps.createNamespacedDeployment({ namespace: ns, body: { metadata: { name }, spec: { selector, template, strategy } } });
const daemonSet = (name: string, updateStrategy: k8s.V1DaemonSetUpdateStrategy) => apps.createNamespacedDaemonSet({ namespace: ns, body: { metadata: { name }, spec: { selector, template, updateStrategy } } });
const statefulSet = (name: string, spec: Partial<k8s.V1StatefulSetSpec>) =>
  apps.createNamespacedStatefulSet({ namespace: ns, body: { metadata: { name }, spec: { selector, template, serviceName: 'web', ...spec } } });

describe('Deployment strategy (ValidateDeploymentStrategy)', () => {
  it('checks maxSurge and maxUnavailable: a count or a percentage, not both zero, unavailability at most 100%', async () => {
    const status = await expectStatus(deployment('bad-rolling', { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '150%', maxSurge: 'lots' } }), { code: 422 });
    expect(causeLines(status)).toEqual([
      `spec.strategy.rollingUpdate.maxSurge: Invalid value: "lots": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
      'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "150%": must not be greater than 100%',
    ]);
    await expectStatus(deployment('zero', { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '0%' } }), {
      code: 422,
      message: 'Deployment.apps "zero" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0',
    });
    await expectStatus(deployment('negative', { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: -1, maxSurge: 1 } }), {
      code: 422,
      message: 'Deployment.apps "negative" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: -1: must be greater than or equal to 0',
    });
  });

  it('refuses rollingUpdate beside Recreate, and an unknown type', async () => {
    await expectStatus(deployment('recreate', { type: 'Recreate', rollingUpdate: { maxSurge: 1 } }), {
      code: 422,
      message: "Deployment.apps \"recreate\" is invalid: spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
    });
    await expectStatus(deployment('blue-green', { type: 'BlueGreen' }), {
      code: 422,
      message: 'Deployment.apps "blue-green" is invalid: spec.strategy: Unsupported value: {"Type":"BlueGreen","RollingUpdate":null}: supported values: "Recreate", "RollingUpdate"',
    });
  });

  it('accepts the defaults and a valid rolling update', async () => {
    const created = await deployment('fine', { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '100%' } });
    expect(created.spec!.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '100%' } });
  });
});

describe('DaemonSet update strategy (ValidateDaemonSetUpdateStrategy)', () => {
  it('wants exactly one of maxSurge and maxUnavailable non-zero', async () => {
    await expectStatus(daemonSet('both', { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: '10%' } }), {
      code: 422,
      message: 'DaemonSet.apps "both" is invalid: spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: "10%": may not be set when maxUnavailable is non-zero',
    });
    await expectStatus(daemonSet('neither', { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '0%', maxSurge: 0 } }), {
      code: 422,
      message: 'DaemonSet.apps "neither" is invalid: spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0',
    });
    await expectStatus(daemonSet('unknown', { type: 'Sometimes' }), {
      code: 422,
      message: 'DaemonSet.apps "unknown" is invalid: spec.updateStrategy: Unsupported value: {"Type":"Sometimes","RollingUpdate":null}: supported values: "RollingUpdate", "OnDelete"',
    });
    const created = await daemonSet('surge', { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 2 } });
    expect(created.spec!.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 2 } });
  });
});

describe('StatefulSet (ValidateStatefulSetSpec)', () => {
  it('answers an unknown podManagementPolicy with an Invalid, as Go does', async () => {
    await expectStatus(statefulSet('policy', { podManagementPolicy: 'Random' }), {
      code: 422,
      message: "StatefulSet.apps \"policy\" is invalid: spec.podManagementPolicy: Invalid value: \"Random\": must be 'OrderedReady' or 'Parallel'",
    });
  });

  it('checks the update strategy: its type, rollingUpdate only for RollingUpdate, partition and maxUnavailable', async () => {
    await expectStatus(statefulSet('on-delete', { updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 2 } } }), {
      code: 422,
      message: "StatefulSet.apps \"on-delete\" is invalid: spec.updateStrategy.rollingUpdate: Invalid value: {\"Partition\":2,\"MaxUnavailable\":null}: only allowed for updateStrategy 'RollingUpdate'",
    });
    const status = await expectStatus(statefulSet('rolling', { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: -1, maxUnavailable: 0 } } }), { code: 422 });
    expect(causeLines(status)).toEqual([
      'spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0',
      'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: cannot be 0',
    ]);
    await expectStatus(statefulSet('canary', { updateStrategy: { type: 'Canary' } }), {
      code: 422,
      message: "StatefulSet.apps \"canary\" is invalid: spec.updateStrategy: Invalid value: {\"Type\":\"Canary\",\"RollingUpdate\":null}: must be 'RollingUpdate' or 'OnDelete'",
    });
  });
});

describe('PodDisruptionBudget (the same int-or-percent checks)', () => {
  it('still refuses a percentage above 100%', async () => {
    await expectStatus(policy.createNamespacedPodDisruptionBudget({ namespace: ns, body: { metadata: { name: 'pdb' }, spec: { maxUnavailable: '120%', selector } } }), {
      code: 422,
      message: 'PodDisruptionBudget.policy "pdb" is invalid: spec.maxUnavailable: Invalid value: "120%": must not be greater than 100%',
    });
  });
});
