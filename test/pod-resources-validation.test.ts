// A container's resources as ValidateContainerResourceRequirements checks them (pkg/apis/core/
// validation, v1.36) through client-node: resource names, non-negative and whole quantities,
// requests within limits, extended resources and hugepages that cannot be overcommitted.
import * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { invalidCauses as invalid, useValidationCluster } from './support/validation.ts';

const api = useValidationCluster();

const pod = (name: string, resources: k8s.V1ResourceRequirements) =>
  api.core.createNamespacedPod({ namespace: 'default', body: { metadata: { name }, spec: { containers: [{ name: 'app', image: 'nginx', resources }] } } });
const R = 'spec.containers[0].resources';
const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const NAME_PART_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

describe('container resources', () => {
  it('refuses a request above its limit, naming the limit', async () => {
    expect(await invalid(pod('over', { requests: { cpu: '2', memory: '64Mi' }, limits: { cpu: '500m', memory: '64Mi' } }))).toEqual([
      `${R}.requests: Invalid value: "2": must be less than or equal to cpu limit of 500m`,
    ]);
  });

  it('refuses negative quantities and names that are no container resource', async () => {
    expect(await invalid(pod('names', { requests: { memory: '-1Mi', pods: '1', gpu: '1', 'example.com/-bad': '1' } }))).toEqual([
      `${R}.requests[memory]: Invalid value: "-1Mi": must be greater than or equal to 0`,
      `${R}.requests[pods]: Invalid value: "pods": must be a standard resource for containers`,
      `${R}.requests[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified`,
      `${R}.requests[gpu]: Invalid value: "gpu": must be a standard resource for containers`,
      `${R}.requests[example.com/-bad]: Invalid value: "example.com/-bad": ${NAME_PART_MSG}`,
      `${R}.requests[example.com/-bad]: Invalid value: "example.com/-bad": doesn't follow extended resource name standard`,
      `${R}.limits: Required value: Limit must be set for non overcommitable resources`,
    ]);
  });

  it('holds extended resources to whole numbers, with requests equal to limits', async () => {
    expect(await invalid(pod('extended', { requests: { 'example.com/gpu': '1' }, limits: { 'example.com/gpu': '2' } }))).toEqual([
      `${R}.requests: Invalid value: "1": must be equal to example.com/gpu limit of 2`,
    ]);
    expect(await invalid(pod('extended-half', { limits: { 'example.com/gpu': '500m' } }))).toEqual([
      `${R}.limits[example.com/gpu]: Invalid value: "500m": must be an integer`,
      `${R}.requests[example.com/gpu]: Invalid value: "500m": must be an integer`,
    ]);
    expect(await invalid(pod('extended-no-limit', { requests: { 'example.com/gpu': '1' } }))).toEqual([
      `${R}.limits: Required value: Limit must be set for non overcommitable resources`,
    ]);
  });

  it('needs hugepages in whole pages, beside cpu or memory', async () => {
    expect(await invalid(pod('hugepages', { limits: { 'hugepages-2Mi': '3Mi' } }))).toEqual([
      `${R}.limits[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi`,
      `${R}.requests[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi`,
      `${R}: Forbidden: HugePages require cpu or memory`,
    ]);
    const ok = await pod('hugepages-ok', { limits: { 'hugepages-2Mi': '4Mi', memory: '64Mi', 'example.com/gpu': '1' } });
    // A pod's requests default to its limits (SetDefaults_Pod), which is why they are equal.
    expect(ok.spec?.containers[0]?.resources?.requests).toEqual({ 'hugepages-2Mi': '4Mi', memory: '64Mi', 'example.com/gpu': '1' });
  });

  it('checks a Deployment template, whose requests are not defaulted from its limits', async () => {
    expect(
      await invalid(
        api.apps.createNamespacedDeployment({
          namespace: 'default',
          body: {
            metadata: { name: 'res-deploy' },
            spec: {
              selector: { matchLabels: { app: 'r' } },
              template: { metadata: { labels: { app: 'r' } }, spec: { containers: [{ name: 'app', image: 'nginx', resources: { limits: { 'example.com/gpu': '1', cpu: '1' }, requests: { cpu: '1500m' } } }] } },
            },
          },
        }),
      ),
    ).toEqual(['spec.template.spec.containers[0].resources.requests: Invalid value: "1500m": must be less than or equal to cpu limit of 1']);
  });
});

describe('resource claims', () => {
  const claimPod = (name: string, resourceClaims: k8s.V1PodResourceClaim[], claims: k8s.CoreV1ResourceClaim[]) =>
    api.core.createNamespacedPod({ namespace: 'default', body: { metadata: { name }, spec: { resourceClaims, containers: [{ name: 'app', image: 'nginx', resources: { claims } }] } } });

  it('checks the pod claims: names, and exactly one source printed as the internal struct', async () => {
    expect(
      await invalid(
        claimPod('claims', [{ name: 'gpu', resourceClaimTemplateName: 'gpu-tpl' }, { name: 'gpu', resourceClaimName: 'c' }, { name: 'Bad_Name', resourceClaimName: 'c' }, { name: 'both', resourceClaimName: 'a', resourceClaimTemplateName: 'b' }, { name: 'none' }], []),
      ),
    ).toEqual([
      'spec.resourceClaims[1].name: Duplicate value: "gpu"',
      `spec.resourceClaims[2].name: Invalid value: "Bad_Name": ${LABEL_MSG}`,
      'spec.resourceClaims[3]: Invalid value: {"Name":"both","ResourceClaimName":"a","ResourceClaimTemplateName":"b"}: at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified',
      'spec.resourceClaims[4]: Invalid value: {"Name":"none","ResourceClaimName":null,"ResourceClaimTemplateName":null}: must specify one of: `resourceClaimName`, `resourceClaimTemplateName`',
    ]);
  });

  it('checks the claims a container names against the pod claims', async () => {
    expect(await invalid(claimPod('container-claims', [{ name: 'gpu', resourceClaimTemplateName: 'gpu-tpl' }, { name: 'net', resourceClaimName: 'n' }], [{ name: 'gpu', request: 'big' }, { name: 'gpu' }, { name: 'gpu' }, { name: 'fpga' }]))).toEqual([
      `${R}.claims[1]: Duplicate value: "gpu"`,
      `${R}.claims[2]: Duplicate value: "gpu"`,
      `${R}.claims[3]: Not found: "fpga": must be one of the names in pod.spec.resourceClaims: gpu, net`,
    ]);
    expect(await invalid(claimPod('no-pod-claims', [], [{ name: 'gpu' }]))).toEqual([`${R}.claims[0]: Not found: "gpu": must be one of the names in pod.spec.resourceClaims which is empty`]);
    await claimPod('claims-ok', [{ name: 'gpu', resourceClaimTemplateName: 'gpu-tpl' }], [{ name: 'gpu', request: 'a' }, { name: 'gpu', request: 'b' }]);
  });
});
