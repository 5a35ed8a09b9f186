// ValidateService rule by rule (pkg/apis/core/validation/validation.go, v1.36 default feature
// gates) and what the Service REST's allocator checks first (pkg/registry/core/service/storage/
// alloc.go initIPFamilyFields, allocClusterIPs, initNodePorts), through client-node: each rule's
// refusal with Go's path and text, and the Service the rule lets through.
import * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { expectStatus } from './support/status.ts';
import { causeLines, useValidationCluster } from './support/validation.ts';

const api = useValidationCluster();
const merge = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
const create = (name: string, spec: k8s.V1ServiceSpec, metadata: k8s.V1ObjectMeta = {}) =>
  api.core.createNamespacedService({ namespace: 'default', body: { metadata: { name, ...metadata }, spec } });
const patch = (name: string, spec: Record<string, unknown>) => api.core.patchNamespacedService({ name, namespace: 'default', body: { spec } }, merge);
const refused = async (request: Promise<unknown>) => causeLines(await expectStatus(request, { code: 422, reason: 'Invalid' }));
const port80 = [{ port: 80 }];
const QUALIFIED_NAME =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

describe('Service loadBalancerClass', () => {
  it('takes a qualified name on a LoadBalancer', async () => {
    expect((await create('lb-class', { type: 'LoadBalancer', loadBalancerClass: 'example.com/internal-vip', ports: port80 })).spec?.loadBalancerClass).toBe('example.com/internal-vip');
  });

  it('refuses a class that is not a qualified name, and any class on another type', async () => {
    expect(await refused(create('lb-bad-class', { type: 'LoadBalancer', loadBalancerClass: 'example.com/internal vip', ports: port80 }))).toEqual([
      `spec.loadBalancerClass: Invalid value: "example.com/internal vip": ${QUALIFIED_NAME}`,
    ]);
    expect(await refused(create('cip-class', { loadBalancerClass: 'example.com/lb', ports: port80 }))).toEqual([
      "spec.loadBalancerClass: Forbidden: may only be used when `type` is 'LoadBalancer'",
    ]);
  });
});

describe('Service clusterIPs and ipFamilies', () => {
  it('takes a requested clusterIP of the family ipFamilies names', async () => {
    const svc = await create('fam-ok', { clusterIP: '10.96.50.1', ipFamilies: ['IPv4'], ports: port80 });
    expect([svc.spec?.clusterIPs, svc.spec?.ipFamilies, svc.spec?.ipFamilyPolicy]).toEqual([['10.96.50.1'], ['IPv4'], 'SingleStack']);
  });

  it('refuses a clusterIP of another family than its ipFamilies entry, before allocating', async () => {
    expect(await refused(create('fam-mismatch', { clusterIP: '10.96.50.2', ipFamilies: ['IPv6'], ports: port80 }))).toEqual([
      'spec.clusterIPs[0]: Invalid value: "10.96.50.2": expected an IPv6 value as indicated by `ipFamilies[0]`',
    ]);
    // The address was not taken.
    expect((await create('fam-takes-2', { clusterIP: '10.96.50.2', ports: port80 })).spec?.clusterIP).toBe('10.96.50.2');
  });

  it('refuses an ipFamilies change on update with the mismatch the allocator finds first', async () => {
    await create('fam-update', { clusterIP: '10.96.50.3', ports: port80 });
    // BeginUpdate runs initIPFamilyFields, whose loose ValidateServiceClusterIPsRelatedFields refuses
    // the update before ValidateServiceUpdate's "may not change once set" is reached (alloc.go).
    expect(await refused(patch('fam-update', { ipFamilies: ['IPv6'] }))).toEqual([
      'spec.clusterIPs[0]: Invalid value: "10.96.50.3": expected an IPv6 value as indicated by `ipFamilies[0]`',
    ]);
    expect((await api.core.readNamespacedService({ name: 'fam-update', namespace: 'default' })).spec?.ipFamilies).toEqual(['IPv4']);
  });

  it('refuses malformed clusterIP fields', async () => {
    expect(await refused(create('ips-sync', { clusterIP: '10.96.50.4', clusterIPs: ['10.96.50.5'], ports: port80 }))).toEqual([
      'spec.clusterIPs: Invalid value: ["10.96.50.5"]: first value must match `clusterIP`',
    ]);
    expect(await refused(create('ips-none', { clusterIP: 'None', clusterIPs: ['None', '10.96.50.6'], ports: port80 }))).toEqual([
      `spec.clusterIPs: Invalid value: ["None","10.96.50.6"]: 'None' must be the first and only value`,
    ]);
    expect(await refused(create('ips-bad', { clusterIP: '10.96.50', ports: port80 }))).toEqual([
      'spec.clusterIPs[0]: Invalid value: "10.96.50": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    ]);
    expect(await refused(create('ips-two-v4', { clusterIP: '10.96.50.7', clusterIPs: ['10.96.50.7', '10.96.50.8'], ipFamilyPolicy: 'PreferDualStack', ports: port80 }))).toEqual([
      'spec.clusterIPs: Invalid value: ["10.96.50.7","10.96.50.8"]: may specify no more than one IP for each IP family',
    ]);
    expect(await refused(create('fam-dup', { ipFamilies: ['IPv4', 'IPv4'], ipFamilyPolicy: 'PreferDualStack', ports: port80 }))).toEqual([
      'spec.ipFamilies[1]: Duplicate value: "IPv4"',
    ]);
    expect(await refused(create('fam-bad', { ipFamilies: ['IPv5'], ipFamilyPolicy: 'Single', ports: port80 }))).toEqual([
      'spec.ipFamilies[0]: Unsupported value: "IPv5": supported values: "IPv4", "IPv6"',
      'spec.ipFamilyPolicy: Unsupported value: "Single": supported values: "PreferDualStack", "RequireDualStack", "SingleStack"',
    ]);
  });

  it('refuses two families with SingleStack, and dual-stack on this single-stack cluster', async () => {
    expect(await refused(create('fam-single', { ipFamilies: ['IPv4', 'IPv6'], ipFamilyPolicy: 'SingleStack', ports: port80 }))).toEqual([
      "spec.ipFamilyPolicy: Invalid value: \"SingleStack\": must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified",
    ]);
    expect(await refused(create('fam-dual', { ipFamilies: ['IPv4', 'IPv6'], ipFamilyPolicy: 'RequireDualStack', ports: port80 }))).toEqual([
      'spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services',
      'spec.ipFamilies[1]: Invalid value: "IPv6": not configured on this cluster',
    ]);
  });

  it('lets a selectorless headless Service drop its second family only with SingleStack', async () => {
    const created = await create('headless-dual', { clusterIP: 'None', ports: port80 });
    expect([created.spec?.ipFamilies, created.spec?.ipFamilyPolicy]).toEqual([['IPv4', 'IPv6'], 'RequireDualStack']);
    // The policy comes from the stored object (alloc.go initIPFamilyFields).
    expect(await refused(patch('headless-dual', { ipFamilies: ['IPv4'] }))).toEqual([
      "spec.ipFamilyPolicy: Invalid value: \"RequireDualStack\": must be 'SingleStack' to release the secondary IP family",
    ]);
    const single = await patch('headless-dual', { ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' });
    expect([single.spec?.ipFamilies, single.spec?.ipFamilyPolicy]).toEqual([['IPv4'], 'SingleStack']);
  });

  it('allocates nothing for a Service validation refuses after allocation', async () => {
    // BeginCreate allocates, Validate refuses, the store's finish func hands the address back.
    expect(await refused(create('alloc-revert', { clusterIP: '10.96.50.9', ports: [{ port: 80, name: 'Web' }] }))).toHaveLength(1);
    expect((await create('alloc-takes-9', { clusterIP: '10.96.50.9', ports: port80 })).spec?.clusterIP).toBe('10.96.50.9');
    expect(await refused(create('np-revert', { type: 'NodePort', ports: [{ port: 80, nodePort: 30450, appProtocol: 'bad proto' }] }))).toHaveLength(1);
    expect((await create('np-takes', { type: 'NodePort', ports: [{ port: 80, nodePort: 30450 }] })).spec?.ports?.[0]?.nodePort).toBe(30450);
  });

  it('reports a requested address outside the service range, or taken, as the allocator does', async () => {
    expect(await refused(create('ip-out', { clusterIP: '10.0.0.5', ports: port80 }))).toEqual([
      'spec.clusterIPs: Invalid value: ["10.0.0.5"]: failed to allocate IP 10.0.0.5: the provided network does not match the current range',
    ]);
    expect(await refused(create('ip-broadcast', { clusterIP: '10.111.255.255', ports: port80 }))).toEqual([
      'spec.clusterIPs: Invalid value: ["10.111.255.255"]: failed to allocate IP 10.111.255.255: the provided IP (10.111.255.255) is not in the valid range. The range of valid IPs is 10.96.0.0/12',
    ]);
    expect(await refused(create('ip-taken', { clusterIP: '10.96.50.1', ports: port80 }))).toEqual([
      'spec.clusterIPs: Invalid value: ["10.96.50.1"]: failed to allocate IP 10.96.50.1: provided IP is already allocated',
    ]);
    expect(await refused(create('np-out', { type: 'NodePort', ports: [{ port: 80, nodePort: 8080 }] }))).toEqual([
      'spec.ports[0].nodePort: Invalid value: 8080: provided port is not in the valid range. The range of valid ports is 30000-32767',
    ]);
  });
});

describe('Service type rules', () => {
  it('refuses a headless NodePort or LoadBalancer Service, and IP fields on an ExternalName one', async () => {
    expect(await refused(create('np-headless', { type: 'NodePort', clusterIP: 'None', ports: port80 }))).toEqual([
      "spec.clusterIPs[0]: Invalid value: \"None\": may not be set to 'None' for NodePort services",
    ]);
    expect(await refused(create('en-policy', { type: 'ExternalName', externalName: 'db.example.com', ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4'] }))).toEqual([
      'spec.ipFamilies: Forbidden: may not be set for ExternalName services',
      'spec.ipFamilyPolicy: Forbidden: may not be set for ExternalName services',
    ]);
  });

  it('keeps nodePorts to NodePort and LoadBalancer Services, unique per protocol', async () => {
    expect(await refused(create('cip-nodeport', { ports: [{ port: 80, nodePort: 30460 }] }))).toEqual([
      "spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'",
    ]);
    expect(
      await refused(create('np-dup', { type: 'NodePort', ports: [{ name: 'a', port: 80, nodePort: 30461 }, { name: 'b', port: 80, nodePort: 30461 }] })),
    ).toEqual([
      'spec.ports[1].nodePort: Duplicate value: 30461',
      'spec.ports[1]: Duplicate value: {"Name":"","Protocol":"TCP","AppProtocol":null,"Port":80,"TargetPort":0,"NodePort":0}',
    ]);
    // The same port number over TCP and UDP shares its nodePort.
    const shared = await create('np-tcp-udp', { type: 'NodePort', ports: [{ name: 'dns', port: 53 }, { name: 'dns-udp', port: 53, protocol: 'UDP' }] });
    expect(shared.spec?.ports?.[0]?.nodePort).toBe(shared.spec?.ports?.[1]?.nodePort);
  });

  it('keeps LoadBalancer fields to LoadBalancer Services', async () => {
    expect(
      await refused(create('cip-lb-fields', { loadBalancerSourceRanges: ['10.0.0.0/8', '10.0.0/8'], allocateLoadBalancerNodePorts: false, ports: port80 })),
    ).toEqual([
      "spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'",
      'spec.LoadBalancerSourceRanges[1]: Invalid value: "10.0.0/8": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
      "spec.allocateLoadBalancerNodePorts: Forbidden: may only be used when `type` is 'LoadBalancer'",
    ]);
    expect(
      await refused(create('cip-lb-annotation', { ports: port80 }, { annotations: { 'service.beta.kubernetes.io/load-balancer-source-ranges': '10.0.0.0/8, 300.0.0.0/8' } })),
    ).toEqual([
      "metadata.annotations[service.beta.kubernetes.io/load-balancer-source-ranges]: Forbidden: may only be used when `type` is 'LoadBalancer'",
      'metadata.annotations[service.beta.kubernetes.io/load-balancer-source-ranges]: Invalid value: "300.0.0.0/8": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
    ]);
    const lb = await create('lb-ranges', { type: 'LoadBalancer', loadBalancerSourceRanges: [' 10.0.0.0/8 '], allocateLoadBalancerNodePorts: false, ports: port80 });
    expect(lb.spec?.ports?.[0]?.nodePort).toBeUndefined();
  });
});

describe('Service traffic and affinity', () => {
  it('refuses traffic policies that do not apply or are not known', async () => {
    expect(await refused(create('cip-etp', { externalTrafficPolicy: 'Local', internalTrafficPolicy: 'Nearest' as 'Local', ports: port80 }))).toEqual([
      'spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services',
      'spec.internalTrafficPolicy: Unsupported value: "Nearest": supported values: "Cluster", "Local"',
    ]);
    expect(await refused(create('np-etp', { type: 'NodePort', externalTrafficPolicy: 'Nearest' as 'Local', healthCheckNodePort: 30470, ports: port80 }))).toEqual([
      'spec.externalTrafficPolicy: Unsupported value: "Nearest": supported values: "Cluster", "Local"',
      "spec.healthCheckNodePort: Invalid value: 30470: may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
    ]);
  });

  it('takes the three trafficDistribution values and refuses others', async () => {
    expect((await create('td-zone', { trafficDistribution: 'PreferSameZone', ports: port80 })).spec?.trafficDistribution).toBe('PreferSameZone');
    expect(await refused(create('td-bad', { trafficDistribution: 'Nearby', ports: port80 }))).toEqual([
      'spec.trafficDistribution: Unsupported value: "Nearby": supported values: "PreferClose", "PreferSameZone", "PreferSameNode"',
    ]);
  });

  it('keeps a health-check nodePort once allocated', async () => {
    const lb = await create('lb-local', { type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: port80 });
    const hc = lb.spec!.healthCheckNodePort!;
    expect(hc).toBeGreaterThanOrEqual(30000);
    expect(await refused(patch('lb-local', { healthCheckNodePort: hc === 32767 ? 32766 : hc + 1 }))).toEqual(['spec.healthCheckNodePort: Forbidden: field is immutable']);
    // Dropped from the body, the allocated one is kept.
    expect((await patch('lb-local', { healthCheckNodePort: null, selector: { app: 'x' } })).spec?.healthCheckNodePort).toBe(hc);
  });

  it('checks session affinity, appProtocol, externalIPs and the topology annotations', async () => {
    const sticky = await create('sticky', { sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 600 } }, ports: port80 });
    expect(sticky.spec?.sessionAffinityConfig?.clientIP?.timeoutSeconds).toBe(600);
    expect(
      await refused(
        create('affinity-bad', { sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 86401 } }, externalIPs: ['127.0.0.1', '10.1.2'], ports: [{ port: 80, appProtocol: 'k8s.io/h2c x' }] }),
      ),
    ).toEqual([
      `spec.ports[0].appProtocol: Invalid value: "k8s.io/h2c x": ${QUALIFIED_NAME}`,
      'spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 86401: must be greater than 0 and less than 86400',
      'spec.externalIPs[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      'spec.externalIPs[1]: Invalid value: "10.1.2": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    ]);
    expect(await refused(create('affinity-unknown', { sessionAffinity: 'Sticky', ports: port80 }))).toEqual([
      'spec.sessionAffinity: Unsupported value: "Sticky": supported values: "ClientIP", "None"',
    ]);
    const annotations = { 'service.kubernetes.io/topology-mode': 'Auto', 'service.kubernetes.io/topology-aware-hints': 'Disabled' };
    expect(await refused(create('topology', { ports: port80 }, { annotations }))).toEqual([
      'metadata.annotations[service.kubernetes.io/topology-mode]: Invalid value: "Auto": must match annotations[service.kubernetes.io/topology-aware-hints] when both are specified',
    ]);
    const external = await create('external-ip', { externalIPs: ['192.0.2.10'], ports: port80 });
    expect([external.spec?.externalIPs, external.spec?.externalTrafficPolicy]).toEqual([['192.0.2.10'], 'Cluster']);
  });
});
