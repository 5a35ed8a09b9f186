// The name-resolution rules of ValidatePodSpec (pkg/apis/core/validation, v1.36) through
// client-node: dnsPolicy None and dnsConfig (nameservers as strict IPs, search domains and their
// limits, options), readiness gates and host aliases, with the exact texts and field paths.
import * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { invalidCauses as invalid, useValidationCluster } from './support/validation.ts';

const api = useValidationCluster();

const pod = (name: string, spec: Partial<k8s.V1PodSpec>) =>
  api.core.createNamespacedPod({ namespace: 'default', body: { metadata: { name }, spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec } } });
const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*')";

describe('dnsPolicy None', () => {
  it('needs a dnsConfig, and one with a nameserver', async () => {
    expect(await invalid(pod('dns-none', { dnsPolicy: 'None' }))).toEqual(['spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None']);
    expect(await invalid(pod('dns-none-empty', { dnsPolicy: 'None', dnsConfig: { searches: ['a.b'] } }))).toEqual([
      'spec.dnsConfig.nameservers: Required value: must provide at least one DNS nameserver when `dnsPolicy` is None',
    ]);
    const created = await pod('dns-none-ok', { dnsPolicy: 'None', dnsConfig: { nameservers: ['10.0.0.10'], searches: ['.', 'svc.cluster.local.', '_srv.example.com'], options: [{ name: 'ndots', value: '2' }] } });
    expect(created.spec?.dnsConfig?.nameservers).toEqual(['10.0.0.10']);
  });
});

describe('dnsConfig', () => {
  it('checks nameservers, searches and options', async () => {
    expect(
      await invalid(
        pod('dns-config', {
          dnsConfig: {
            nameservers: ['1.1.1.1', '010.0.0.1', '2001:DB8::1', 'dns.example.com'],
            searches: ['Bad_Domain', 'ok.example.com.', '-bad'],
            options: [{ name: 'ndots', value: '1' }, { value: 'x' }],
          },
        }),
      ),
    ).toEqual([
      'spec.dnsConfig.nameservers: Invalid value: ["1.1.1.1","010.0.0.1","2001:DB8::1","dns.example.com"]: must not have more than 3 nameservers',
      // IsValidIP stops at the leading-0s refusal, with no canonical-form error (apimachinery util/validation/ip.go).
      'spec.dnsConfig.nameservers[1]: Invalid value: "010.0.0.1": must not have leading 0s',
      'spec.dnsConfig.nameservers[2]: Invalid value: "2001:DB8::1": must be in canonical form ("2001:db8::1")',
      'spec.dnsConfig.nameservers[3]: Invalid value: "dns.example.com": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      `spec.dnsConfig.searches[0]: Invalid value: "Bad_Domain": ${SUBDOMAIN_MSG}`,
      `spec.dnsConfig.searches[2]: Invalid value: "-bad": ${SUBDOMAIN_MSG}`,
      'spec.dnsConfig.options[1]: Required value: must not be empty',
    ]);
  });

  it('limits the search list to 32 domains and 2048 characters', async () => {
    const many = Array.from({ length: 33 }, (_, i) => `d${i}.example.com`);
    expect(await invalid(pod('dns-many', { dnsConfig: { searches: many } }))).toEqual([
      `spec.dnsConfig.searches: Invalid value: ${JSON.stringify(many)}: must not have more than 32 search paths`,
    ]);
    const long = Array.from({ length: 11 }, (_, i) => `${String.fromCharCode(97 + i)}${'.x'.repeat(100)}`); // 11 × 201 characters and 10 spaces
    expect(await invalid(pod('dns-long', { dnsConfig: { searches: long } }))).toEqual([
      `spec.dnsConfig.searches: Invalid value: ${JSON.stringify(long)}: must not have more than 2048 characters (including spaces) in the search list`,
    ]);
  });
});

describe('readiness gates and host aliases', () => {
  it('checks condition types and aliases', async () => {
    expect(
      await invalid(
        pod('gates-aliases', {
          readinessGates: [{ conditionType: 'example.com/ready' }, { conditionType: 'not ok' }],
          hostAliases: [{ ip: '10.0.0.300', hostnames: ['good.example.com', 'Bad_Host'] }],
        }),
      ),
    ).toEqual([
      'spec.readinessGates[1].conditionType: Invalid value: "not ok": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
      'spec.hostAliases[0].ip: Invalid value: "10.0.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      'spec.hostAliases[0].hostnames[1]: Invalid value: "Bad_Host": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')',
    ]);
  });
});
