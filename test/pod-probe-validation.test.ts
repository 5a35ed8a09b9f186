// The probe and lifecycle-hook rules of ValidatePodSpec (pkg/apis/core/validation, v1.36) through
// client-node: exactly one handler per probe or hook, the actions' own checks, non-negative timings,
// successThreshold 1 for liveness and startup probes, no grace period on a readiness probe, a sleep
// hook bounded by the pod's grace period, and probes/lifecycle only on sidecar init containers;
// the same rules in a Deployment's template.
import * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { invalidCauses as invalid, useValidationCluster } from './support/validation.ts';

const api = useValidationCluster();

const container = (extra: Partial<k8s.V1Container> = {}): k8s.V1Container => ({ name: 'app', image: 'nginx', ...extra });
const pod = (name: string, spec: Partial<k8s.V1PodSpec>) => api.core.createNamespacedPod({ namespace: 'default', body: { metadata: { name }, spec: { containers: [container()], ...spec } } });
const HEADER_MSG = "a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')";

describe('probes', () => {
  it('checks each probe: one handler, non-negative timings, successThreshold and grace periods', async () => {
    expect(
      await invalid(
        pod('probes', {
          containers: [
            container({
              livenessProbe: { periodSeconds: -1, successThreshold: 2 },
              readinessProbe: { exec: { command: [] }, httpGet: { port: 80 }, terminationGracePeriodSeconds: 10 },
              startupProbe: { tcpSocket: { port: 70000 }, failureThreshold: -3, terminationGracePeriodSeconds: -5 },
            }),
          ],
        }),
      ),
    ).toEqual([
      'spec.containers[0].livenessProbe: Required value: must specify a handler type',
      'spec.containers[0].livenessProbe.periodSeconds: Invalid value: -1: must be greater than or equal to 0',
      'spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1',
      'spec.containers[0].readinessProbe.exec.command: Required value',
      'spec.containers[0].readinessProbe.httpGet: Forbidden: may not specify more than 1 handler type',
      'spec.containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 10: must not be set for readinessProbes',
      'spec.containers[0].startupProbe.tcpSocket.port: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.containers[0].startupProbe.failureThreshold: Invalid value: -3: must be greater than or equal to 0',
      'spec.containers[0].startupProbe.terminationGracePeriodSeconds: Invalid value: -5: must be greater than 0',
    ]);
  });

  it('checks httpGet and grpc actions: port, scheme and header names', async () => {
    expect(
      await invalid(
        pod('probe-actions', {
          containers: [
            container({
              livenessProbe: { httpGet: { port: 'Not_A_Port', scheme: 'FTP', httpHeaders: [{ name: 'Bad Header', value: 'x' }] } },
              readinessProbe: { grpc: { port: 0 } },
            }),
          ],
        }),
      ),
    ).toEqual([
      'spec.containers[0].livenessProbe.httpGet.port: Invalid value: "Not_A_Port": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      'spec.containers[0].livenessProbe.httpGet.scheme: Unsupported value: "FTP": supported values: "HTTP", "HTTPS"',
      `spec.containers[0].livenessProbe.httpGet.httpHeaders: Invalid value: "Bad Header": ${HEADER_MSG}`,
      'spec.containers[0].readinessProbe.grpc.port: Invalid value: 0: must be between 1 and 65535, inclusive',
    ]);
  });

  it('accepts well-formed probes, defaulted as the server defaults them', async () => {
    const created = await pod('probes-ok', {
      containers: [container({ livenessProbe: { httpGet: { port: 8080 } }, readinessProbe: { grpc: { port: 9090 } }, startupProbe: { exec: { command: ['true'] } } })],
    });
    expect(created.spec?.containers[0]?.livenessProbe).toEqual({
      httpGet: { path: '/', port: 8080, scheme: 'HTTP' },
      timeoutSeconds: 1,
      periodSeconds: 10,
      successThreshold: 1,
      failureThreshold: 3,
    });
  });
});

describe('lifecycle hooks', () => {
  it('checks postStart and preStop handlers, the sleep bounded by the pod grace period', async () => {
    expect(
      await invalid(
        pod('hooks', {
          containers: [
            container({
              lifecycle: {
                postStart: {},
                preStop: { sleep: { seconds: 60 }, exec: { command: ['x'] } },
              },
            }),
          ],
        }),
      ),
    ).toEqual([
      'spec.containers[0].lifecycle.postStart: Required value: must specify a handler type',
      'spec.containers[0].lifecycle.preStop.sleep: Forbidden: may not specify more than 1 handler type',
    ]);
    expect(await invalid(pod('sleep-long', { containers: [container({ lifecycle: { preStop: { sleep: { seconds: 60 } } } })] }))).toEqual([
      'spec.containers[0].lifecycle.preStop.sleep: Invalid value: 60: must be non-negative and less than terminationGracePeriodSeconds (30)',
    ]);
    expect(await invalid(pod('sleep-negative', { terminationGracePeriodSeconds: 5, containers: [container({ lifecycle: { postStart: { sleep: { seconds: -1 } } } })] }))).toEqual([
      'spec.containers[0].lifecycle.postStart.sleep: Invalid value: -1: must be non-negative and less than terminationGracePeriodSeconds (5)',
    ]);
  });

  it('accepts a zero sleep (PodLifecycleSleepActionAllowZero) and one up to the grace period', async () => {
    await pod('sleep-zero', { containers: [container({ lifecycle: { preStop: { sleep: { seconds: 0 } }, postStart: { sleep: { seconds: 30 } } } })] });
  });
});

describe('init containers', () => {
  it('refuses probes and lifecycle on an init container that is not a sidecar, checks a sidecar\'s', async () => {
    expect(
      await invalid(
        pod('init-hooks', {
          initContainers: [
            container({ name: 'setup', lifecycle: { preStop: { exec: { command: ['x'] } } }, livenessProbe: { exec: { command: ['x'] } }, startupProbe: { exec: { command: ['x'] } } }),
            container({ name: 'sidecar', restartPolicy: 'Always', startupProbe: { exec: { command: ['x'] }, successThreshold: 3 }, readinessProbe: { exec: { command: ['x'] } } }),
          ],
        }),
      ),
    ).toEqual([
      'spec.initContainers[0].lifecycle: Forbidden: may not be set for init containers without restartPolicy=Always',
      'spec.initContainers[0].livenessProbe: Forbidden: may not be set for init containers without restartPolicy=Always',
      'spec.initContainers[0].startupProbe: Forbidden: may not be set for init containers without restartPolicy=Always',
      'spec.initContainers[1].startupProbe.successThreshold: Invalid value: 3: must be 1',
    ]);
  });
});

describe('in a pod template', () => {
  it('refuses a Deployment whose template has an invalid probe', async () => {
    expect(
      await invalid(
        api.apps.createNamespacedDeployment({
          namespace: 'default',
          body: {
            metadata: { name: 'probe-deploy' },
            spec: {
              selector: { matchLabels: { app: 'p' } },
              template: { metadata: { labels: { app: 'p' } }, spec: { containers: [container({ livenessProbe: { exec: { command: ['x'] }, successThreshold: 5 } })] } },
            },
          },
        }),
      ),
    ).toEqual(['spec.template.spec.containers[0].livenessProbe.successThreshold: Invalid value: 5: must be 1']);
  });
});
