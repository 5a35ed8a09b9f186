// Validation of the kinds controllers write, beyond the workloads and Services
// (pkg/apis/{batch,networking,policy}/validation, v1.36), through client-node and kubectl: each
// rule family with the real message and field path, and a valid object still accepted.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { kubectlAvailable, kubectlRunner } from './support/kubectl.ts';
import { expectStatus } from './support/status.ts';
import { causeLines } from './support/validation.ts';

let cluster: FakeCluster;
let batch: k8s.BatchV1Api;
let networking: k8s.NetworkingV1Api;
let policy: k8s.PolicyV1Api;
let hpaV2: k8s.AutoscalingV2Api;
let hpaV1: k8s.AutoscalingV1Api;
let storage: k8s.StorageV1Api;
let core: k8s.CoreV1Api;
let admission: k8s.AdmissionregistrationV1Api;
beforeAll(async () => {
  cluster = await createFakeCluster();
  batch = cluster.kubeConfig.makeApiClient(k8s.BatchV1Api);
  networking = cluster.kubeConfig.makeApiClient(k8s.NetworkingV1Api);
  policy = cluster.kubeConfig.makeApiClient(k8s.PolicyV1Api);
  hpaV2 = cluster.kubeConfig.makeApiClient(k8s.AutoscalingV2Api);
  hpaV1 = cluster.kubeConfig.makeApiClient(k8s.AutoscalingV1Api);
  storage = cluster.kubeConfig.makeApiClient(k8s.StorageV1Api);
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  admission = cluster.kubeConfig.makeApiClient(k8s.AdmissionregistrationV1Api);
});
afterAll(() => cluster.close());


const podTemplate = (restartPolicy = 'OnFailure'): k8s.V1PodTemplateSpec => ({ spec: { restartPolicy, containers: [{ name: 'app', image: 'busybox' }] } });
const cronJob = (name: string, spec: Partial<k8s.V1CronJobSpec>) =>
  batch.createNamespacedCronJob({ namespace: 'default', body: { metadata: { name }, spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: podTemplate() } }, ...spec } } });

describe('CronJob', () => {
  it('reports schedules robfig/cron cannot parse, with its error texts', async () => {
    const cases: Array<[string, string]> = [
      ['x', 'expected exactly 5 fields, found 1: [x]'],
      ['* * * *  * *', 'expected exactly 5 fields, found 6: [* * * * * *]'],
      ['60 * * * *', 'end of range (60) above maximum (59): 60'],
      ['0 0 0 * *', 'beginning of range (0) below minimum (1): 0'],
      ['*/0 * * * *', 'step of range should be a positive number: */0'],
      ['a * * * *', 'failed to parse int from a: strconv.Atoi: parsing "a": invalid syntax'],
      // Month and weekday names are a Go map: names of JS object members are not among them.
      ['0 0 1 constructor *', 'failed to parse int from constructor: strconv.Atoi: parsing "constructor": invalid syntax'],
      ['0 0 * * toString', 'failed to parse int from toString: strconv.Atoi: parsing "toString": invalid syntax'],
      ['5-1 * * * *', 'beginning of range (5) beyond end of range (1): 5-1'],
      ['@fortnightly', 'unrecognized descriptor: @fortnightly'],
      // @every: time.ParseDuration's own error (go/src/time/format.go), with time's quote.
      ['@every 5x', 'failed to parse duration @every 5x: time: unknown unit "x" in duration "5x"'],
      ['@every 5', 'failed to parse duration @every 5: time: missing unit in duration "5"'],
      ['@every 5é', 'failed to parse duration @every 5é: time: unknown unit "\\xc3\\xa9" in duration "5\\xc3\\xa9"'],
      // A uint past 2^53 printed exactly; strconv.Atoi's range error even before a bad character.
      ['9007199254740993 * * * *', 'end of range (9007199254740993) above maximum (59): 9007199254740993'],
      ['99999999999999999999x * * * *', 'failed to parse int from 99999999999999999999x: strconv.Atoi: parsing "99999999999999999999x": value out of range'],
      ['9223372036854775808 * * * *', 'failed to parse int from 9223372036854775808: strconv.Atoi: parsing "9223372036854775808": value out of range'],
    ];
    for (const [schedule, detail] of cases) {
      await expectStatus(cronJob('sched', { schedule }), {
        code: 422,
        reason: 'Invalid',
        message: `CronJob.batch "sched" is invalid: spec.schedule: Invalid value: ${JSON.stringify(schedule)}: ${detail}`,
      });
    }
    // strconv.Atoi's NumError quotes with strconv.Quote: a zero-width space (not white space to Go) as \u200b.
    await expectStatus(cronJob('sched', { schedule: '\u200b * * * *' }), {
      code: 422,
      message: 'CronJob.batch "sched" is invalid: spec.schedule: Invalid value: "\\u200b * * * *": failed to parse int from \u200b: strconv.Atoi: parsing "\\u200b": invalid syntax',
    });
    // strings.Fields splits on unicode.IsSpace: U+0085 separates fields, U+FEFF does not.
    await expectStatus(cronJob('sched', { schedule: '\ufeff0 * * * *' }), {
      code: 422,
      message: 'CronJob.batch "sched" is invalid: spec.schedule: Invalid value: "\\ufeff0 * * * *": failed to parse int from \ufeff0: strconv.Atoi: parsing "\\ufeff0": invalid syntax',
    });
    expect((await cronJob('nel', { schedule: '0\u0085* * * *' })).spec?.schedule).toBe('0\u0085* * * *');
    await expectStatus(cronJob('empty', { schedule: '' }), { code: 422, message: 'CronJob.batch "empty" is invalid: spec.schedule: Required value' });
    for (const schedule of ['0 9 * * MON-FRI', '@hourly', '@every 90m', '15,45 */2 1-15 jan,jul ?']) {
      const ok = await cronJob(`ok-${(schedule.length * 7919) % 1000}`, { schedule });
      expect(ok.spec?.schedule).toBe(schedule);
    }
  });

  it('refuses TZ= in the schedule and unknown time zones', async () => {
    await expectStatus(cronJob('tz', { schedule: 'TZ=UTC 0 * * * *' }), {
      code: 422,
      message: 'CronJob.batch "tz" is invalid: spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
    });
    const status = await expectStatus(cronJob('zones', { timeZone: 'Mars/Olympus' }), { code: 422 });
    expect(causeLines(status)).toEqual(['spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus']);
    const odd = await expectStatus(cronJob('zones', { timeZone: '../etc/passwd' }), { code: 422 });
    expect(causeLines(odd)).toEqual(['spec.timeZone: Invalid value: "../etc/passwd": unknown time zone ../etc/passwd']);
    const local = await expectStatus(cronJob('zones', { timeZone: 'Local' }), { code: 422 });
    expect(causeLines(local)).toEqual(['spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones']);
    const ok = await cronJob('berlin', { timeZone: 'Europe/Berlin' });
    expect(ok.spec?.timeZone).toBe('Europe/Berlin');
  });

  it('checks the concurrency policy, the counts and the job template', async () => {
    const status = await expectStatus(
      cronJob('spec', {
        concurrencyPolicy: 'Sometimes',
        startingDeadlineSeconds: -1,
        successfulJobsHistoryLimit: -2,
        jobTemplate: { spec: { backoffLimit: -1, manualSelector: true, selector: { matchLabels: { a: 'b' } }, template: podTemplate('Always') } },
      }),
      { code: 422, reason: 'Invalid' },
    );
    expect(causeLines(status)).toEqual([
      'spec.startingDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0',
      'spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"',
      'spec.jobTemplate.spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0',
      'spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
      'spec.jobTemplate.spec.selector: Invalid value: {"matchLabels":{"a":"b"}}: `selector` will be auto-generated',
      'spec.jobTemplate.spec.manualSelector: Unsupported value: true: supported values: "nil", "false"',
      'spec.successfulJobsHistoryLimit: Invalid value: -2: must be greater than or equal to 0',
    ]);
  });

  it('validates updates too, where the name limit no longer applies', async () => {
    const created = await cronJob('to-update', {});
    await expectStatus(batch.replaceNamespacedCronJob({ name: 'to-update', namespace: 'default', body: { ...created, spec: { ...created.spec!, schedule: '* * *' } } }), {
      code: 422,
      message: 'CronJob.batch "to-update" is invalid: spec.schedule: Invalid value: "* * *": expected exactly 5 fields, found 3: [* * *]',
    });
    const updated = await batch.replaceNamespacedCronJob({ name: 'to-update', namespace: 'default', body: { ...created, spec: { ...created.spec!, schedule: '@daily' } } });
    expect(updated.spec?.schedule).toBe('@daily');
  });
});

const backend = (name = 'web', port: k8s.V1ServiceBackendPort = { number: 80 }): k8s.V1IngressBackend => ({ service: { name, port } });
const ingress = (name: string, spec: k8s.V1IngressSpec, annotations?: Record<string, string>) =>
  networking.createNamespacedIngress({ namespace: 'default', body: { metadata: { name, annotations }, spec } });

describe('Ingress', () => {
  it('requires rules or a default backend', async () => {
    await expectStatus(ingress('empty', {}), {
      code: 422,
      reason: 'Invalid',
      message: 'Ingress.networking.k8s.io "empty" is invalid: spec: Invalid value: null: either `defaultBackend` or `rules` must be specified',
    });
    const ok = await ingress('default-only', { defaultBackend: backend() });
    expect(ok.spec?.defaultBackend?.service?.name).toBe('web');
  });

  it('checks hosts: DNS names or wildcards, never IP addresses', async () => {
    const http = { paths: [{ path: '/', pathType: 'Prefix', backend: backend() }] };
    const status = await expectStatus(
      ingress('hosts', { rules: [{ host: '10.0.0.1', http }, { host: 'foo.*.example.com', http }, { host: 'Web.example.com', http }] }),
      { code: 422 },
    );
    expect(causeLines(status)).toEqual([
      'spec.rules[0].host: Invalid value: "10.0.0.1": must be a DNS name, not an IP address',
      `spec.rules[1].host: Invalid value: "foo.*.example.com": a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      `spec.rules[2].host: Invalid value: "Web.example.com": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    ]);
    const ok = await ingress('wildcard', { rules: [{ host: '*.example.com', http }] });
    expect(ok.spec?.rules?.[0]?.host).toBe('*.example.com');
  });

  it('checks paths and their pathType', async () => {
    const status = await expectStatus(
      ingress('paths', {
        rules: [
          {
            http: {
              paths: [
                { path: 'api', pathType: 'Prefix', backend: backend() },
                { path: '/a//b/..', pathType: 'Exact', backend: backend() },
                { path: '/', pathType: 'Regex', backend: backend() },
                { path: '/', backend: backend() } as k8s.V1HTTPIngressPath,
              ],
            },
          },
          { http: { paths: [] } },
        ],
      }),
      { code: 422 },
    );
    expect(causeLines(status)).toEqual([
      'spec.rules[0].http.paths[0].path: Invalid value: "api": must be an absolute path',
      "spec.rules[0].http.paths[1].path: Invalid value: \"/a//b/..\": must not contain '//'",
      "spec.rules[0].http.paths[1].path: Invalid value: \"/a//b/..\": cannot end with '/..'",
      'spec.rules[0].http.paths[2].pathType: Unsupported value: "Regex": supported values: "Exact", "ImplementationSpecific", "Prefix"',
      'spec.rules[0].http.paths[3].pathType: Required value: pathType must be specified',
      'spec.rules[1].http.paths: Required value',
    ]);
  });

  it('checks backends: a service name and one port, or a resource', async () => {
    const path = (b: k8s.V1IngressBackend) => ({ path: '/', pathType: 'ImplementationSpecific', backend: b });
    const status = await expectStatus(
      ingress('backends', {
        rules: [
          {
            http: {
              paths: [
                path({ service: { name: 'Web_1', port: { number: 70000 } } }),
                path({ service: { name: 'web', port: { name: 'http', number: 80 } } }),
                path({ service: { name: 'web', port: {} } }),
                path({}),
                path({ service: { name: 'web', port: { number: 80 } }, resource: { kind: 'Bucket', name: 'b' } }),
              ],
            },
          },
        ],
      }),
      { code: 422 },
    );
    expect(causeLines(status)).toEqual([
      `spec.rules[0].http.paths[0].backend.service.name: Invalid value: "Web_1": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
      'spec.rules[0].http.paths[0].backend.service.port.number: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.rules[0].http.paths[1].backend: Invalid value: "": cannot set both port name & port number',
      'spec.rules[0].http.paths[2].backend: Required value: port name or number is required',
      'spec.rules[0].http.paths[3].backend: Invalid value: "": resource or service backend is required',
      'spec.rules[0].http.paths[4].backend: Invalid value: "": cannot set both resource and service backends',
    ]);
  });

  it('checks TLS hosts, the class, and the class annotation beside the class field', async () => {
    const status = await expectStatus(
      ingress('tls', { defaultBackend: backend(), ingressClassName: 'nginx', tls: [{ hosts: ['*.example.com', 'bad host'], secretName: 'tls-cert' }] }, { 'kubernetes.io/ingress.class': 'nginx' }),
      { code: 422 },
    );
    expect(causeLines(status)).toEqual([
      `spec.tls[0].hosts[1]: Invalid value: "bad host": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      'annotations.kubernetes.io/ingress.class: Invalid value: "nginx": can not be set when the class field is also set',
    ]);
  });

  it('validates updates', async () => {
    const created = await ingress('to-update', { defaultBackend: backend() });
    await expectStatus(networking.replaceNamespacedIngress({ name: 'to-update', namespace: 'default', body: { ...created, spec: { defaultBackend: backend('web', {}) } } }), {
      code: 422,
      message: 'Ingress.networking.k8s.io "to-update" is invalid: spec.defaultBackend: Required value: port name or number is required',
    });
  });
});

const netpol = (name: string, spec: k8s.V1NetworkPolicySpec) => networking.createNamespacedNetworkPolicy({ namespace: 'default', body: { metadata: { name }, spec } });

describe('NetworkPolicy', () => {
  it('checks ports: protocol, numbers and names, endPort ranges', async () => {
    const status = await expectStatus(
      netpol('ports', {
        podSelector: {},
        ingress: [
          {
            ports: [
              { protocol: 'ICMP', port: 80 },
              { port: 8080, endPort: 8000 },
              { port: 'http', endPort: 90 } as k8s.V1NetworkPolicyPort,
              { endPort: 90 },
              { port: 'not_a_name' } as k8s.V1NetworkPolicyPort,
            ],
          },
        ],
      }),
      { code: 422, reason: 'Invalid' },
    );
    expect(causeLines(status)).toEqual([
      'spec.ingress[0].ports[0].protocol: Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP"',
      'spec.ingress[0].ports[1].endPort: Invalid value: 8080: must be greater than or equal to `port`',
      'spec.ingress[0].ports[2].endPort: Invalid value: 90: may not be specified when `port` is non-numeric',
      'spec.ingress[0].ports[3].endPort: Invalid value: 90: may not be specified when `port` is not specified',
      'spec.ingress[0].ports[4].port: Invalid value: "not_a_name": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
    ]);
  });

  it('checks peers and ipBlocks: a valid CIDR, except strictly inside it', async () => {
    const status = await expectStatus(
      netpol('peers', {
        podSelector: { matchLabels: { app: 'db' } },
        egress: [
          {
            to: [
              {},
              { ipBlock: { cidr: '10.0.0.0/33' } },
              { ipBlock: { cidr: '10.0.0.0/16', except: ['10.1.0.0/24', '10.0.0.0/16', 'nope'] } },
              { ipBlock: { cidr: '10.0.0.0/8' }, podSelector: {} },
            ],
          },
        ],
      }),
      { code: 422 },
    );
    expect(causeLines(status)).toEqual([
      'spec.egress[0].to[0]: Required value: must specify a peer',
      'spec.egress[0].to[1].ipBlock.cidr: Invalid value: "10.0.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
      'spec.egress[0].to[2].ipBlock.except[0]: Invalid value: "10.1.0.0/24": must be a strict subset of `cidr`',
      'spec.egress[0].to[2].ipBlock.except[1]: Invalid value: "10.0.0.0/16": must be a strict subset of `cidr`',
      'spec.egress[0].to[2].ipBlock.except[2]: Invalid value: "nope": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
      'spec.egress[0].to[3]: Forbidden: may not specify both ipBlock and another peer',
    ]);
    const ok = await netpol('allow-db', {
      podSelector: { matchLabels: { app: 'db' } },
      policyTypes: ['Ingress', 'Egress'],
      ingress: [{ _from: [{ namespaceSelector: { matchLabels: { team: 'a' } }, podSelector: {} }], ports: [{ port: 5432, endPort: 5440 }] }],
      egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] } }] }],
    });
    expect(ok.spec?.ingress?.[0]?._from?.[0]?.namespaceSelector?.matchLabels).toEqual({ team: 'a' });
  });

  it('checks the pod selector and policyTypes', async () => {
    const status = await expectStatus(netpol('types', { podSelector: { matchLabels: { app: 'a b' } }, policyTypes: ['Ingress', 'Both'] }), { code: 422 });
    expect(causeLines(status)).toEqual([
      `spec.podSelector.matchLabels: Invalid value: "a b": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
      'spec.policyTypes[1]: Unsupported value: "Both": supported values: "Ingress", "Egress"',
    ]);
    await expectStatus(netpol('three', { podSelector: {}, policyTypes: ['Ingress', 'Egress', 'Ingress'] }), {
      code: 422,
      message: 'NetworkPolicy.networking.k8s.io "three" is invalid: spec.policyTypes: Invalid value: ["Ingress","Egress","Ingress"]: may not specify more than two policyTypes',
    });
  });
});

const pdb = (name: string, spec: k8s.V1PodDisruptionBudgetSpec) => policy.createNamespacedPodDisruptionBudget({ namespace: 'default', body: { metadata: { name }, spec } });

describe('PodDisruptionBudget', () => {
  it('refuses minAvailable and maxUnavailable together', async () => {
    await expectStatus(pdb('both', { minAvailable: 1, maxUnavailable: '50%', selector: { matchLabels: { app: 'web' } } }), {
      code: 422,
      reason: 'Invalid',
      message: 'PodDisruptionBudget.policy "both" is invalid: spec: Invalid value: {"minAvailable":1,"selector":{"matchLabels":{"app":"web"}},"maxUnavailable":"50%"}: minAvailable and maxUnavailable cannot be both set',
    });
  });

  it('checks integers and percentages', async () => {
    const cases: Array<[k8s.V1PodDisruptionBudgetSpec, string]> = [
      [{ minAvailable: -1 }, 'spec.minAvailable: Invalid value: -1: must be greater than or equal to 0'],
      [{ minAvailable: 'half' }, `spec.minAvailable: Invalid value: "half": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`],
      [{ maxUnavailable: '150%' }, 'spec.maxUnavailable: Invalid value: "150%": must not be greater than 100%'],
    ];
    for (const [spec, message] of cases) {
      await expectStatus(pdb('counts', spec), { code: 422, message: `PodDisruptionBudget.policy "counts" is invalid: ${message}` });
    }
    const ok = await pdb('quarter', { maxUnavailable: '25%', selector: { matchLabels: { app: 'web' } }, unhealthyPodEvictionPolicy: 'AlwaysAllow' });
    expect(ok.spec?.maxUnavailable).toBe('25%');
  });

  it('checks the selector and the eviction policy, on update too', async () => {
    const status = await expectStatus(
      pdb('sel', { minAvailable: 1, selector: { matchExpressions: [{ key: 'app', operator: 'Near', values: ['a'] }] }, unhealthyPodEvictionPolicy: 'Never' }),
      { code: 422 },
    );
    expect(causeLines(status)).toEqual([
      'spec.selector.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator',
      'spec.unhealthyPodEvictionPolicy: Unsupported value: "Never": supported values: "AlwaysAllow", "IfHealthyBudget"',
    ]);
    const created = await pdb('to-update', { minAvailable: 1 });
    await expectStatus(policy.replaceNamespacedPodDisruptionBudget({ name: 'to-update', namespace: 'default', body: { ...created, spec: { minAvailable: '101%' } } }), {
      code: 422,
      message: 'PodDisruptionBudget.policy "to-update" is invalid: spec.minAvailable: Invalid value: "101%": must not be greater than 100%',
    });
  });
});

const target = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
const hpa = (name: string, spec: Partial<k8s.V2HorizontalPodAutoscalerSpec>) =>
  hpaV2.createNamespacedHorizontalPodAutoscaler({ namespace: 'default', body: { metadata: { name }, spec: { scaleTargetRef: target, maxReplicas: 5, ...spec } } });

describe('HorizontalPodAutoscaler', () => {
  it('checks the replica bounds and the scale target (v2)', async () => {
    const status = await expectStatus(hpa('bounds', { minReplicas: 0, maxReplicas: 0, scaleTargetRef: { kind: '', name: 'a/b' } }), { code: 422, reason: 'Invalid' });
    expect(causeLines(status)).toEqual([
      'spec.minReplicas: Invalid value: 0: must be greater than or equal to 1',
      'spec.maxReplicas: Invalid value: 0: must be greater than 0',
      'spec.scaleTargetRef.kind: Required value',
      "spec.scaleTargetRef.name: Invalid value: \"a/b\": may not contain '/'",
      'spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas',
    ]);
    await expectStatus(hpa('order', { minReplicas: 4, maxReplicas: 2 }), {
      code: 422,
      message: 'HorizontalPodAutoscaler.autoscaling "order" is invalid: spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`',
    });
  });

  it('checks each metric against its type', async () => {
    const status = await expectStatus(
      hpa('metrics', {
        metrics: [
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 0 } } },
          { type: 'Pods', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
          { type: 'External', external: { metric: { name: '' }, target: { type: 'Total', value: '0' } } },
          { type: 'Queue' } as k8s.V2MetricSpec,
          { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '-1000m' } } },
        ],
      }),
      { code: 422 },
    );
    expect(causeLines(status)).toEqual([
      'spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0',
      'spec.metrics[1].pods: Required value: must populate information for the given metric source',
      'spec.metrics[2].external.metric.name: Required value: must specify a metric name',
      'spec.metrics[2].external.target.type: Invalid value: "Total": must be either Utilization, Value, or AverageValue',
      'spec.metrics[2].external.target.value: Invalid value: "0": must be positive',
      'spec.metrics[3].type: Unsupported value: "Queue": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"',
      'spec.metrics[3].type: Unsupported value: "Queue": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"',
      'spec.metrics[4].pods.target.averageValue: Invalid value: "-1": must be positive',
    ]);
  });

  it('checks the behavior\'s scaling rules', async () => {
    const status = await expectStatus(
      hpa('behavior', {
        behavior: {
          scaleUp: { stabilizationWindowSeconds: 4000, selectPolicy: 'Fastest', policies: [{ type: 'Nodes', value: 0, periodSeconds: 3600 }] },
          scaleDown: { policies: [] },
        },
      }),
      { code: 422 },
    );
    expect(causeLines(status)).toEqual([
      'spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: 4000: must be less than or equal to 3600',
      'spec.behavior.scaleUp.selectPolicy: Unsupported value: "Fastest": supported values: "Disabled", "Max", "Min"',
      'spec.behavior.scaleUp.policies[0].type: Unsupported value: "Nodes": supported values: "Percent", "Pods"',
      'spec.behavior.scaleUp.policies[0].value: Invalid value: 0: must be greater than zero',
      'spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 3600: must be less than or equal to 1800',
      'spec.behavior.scaleDown.policies: Required value: must specify at least one Policy',
    ]);
    const ok = await hpa('ok', { minReplicas: 2, behavior: { scaleDown: { stabilizationWindowSeconds: 300, policies: [{ type: 'Percent', value: 50, periodSeconds: 60 }] } } });
    expect(ok.spec?.behavior?.scaleDown?.policies?.[0]?.value).toBe(50);
  });

  it('validates autoscaling/v1 objects in the v2 shape', async () => {
    await expectStatus(
      hpaV1.createNamespacedHorizontalPodAutoscaler({ namespace: 'default', body: { metadata: { name: 'v1' }, spec: { scaleTargetRef: target, maxReplicas: 3, targetCPUUtilizationPercentage: 0 } } }),
      {
        code: 422,
        message: 'HorizontalPodAutoscaler.autoscaling "v1" is invalid: spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0',
      },
    );
    const created = await hpaV1.createNamespacedHorizontalPodAutoscaler({ namespace: 'default', body: { metadata: { name: 'v1-ok' }, spec: { scaleTargetRef: target, maxReplicas: 3 } } });
    await expectStatus(hpaV1.replaceNamespacedHorizontalPodAutoscaler({ name: 'v1-ok', namespace: 'default', body: { ...created, spec: { ...created.spec, minReplicas: 0 } } }), {
      code: 422,
      message:
        'HorizontalPodAutoscaler.autoscaling "v1-ok" is invalid: [spec.minReplicas: Invalid value: 0: must be greater than or equal to 1, spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas]',
    });
  });
});

describe('StorageClass', () => {
  it('requires a qualified provisioner and supported policies, and defaults them', async () => {
    await expectStatus(storage.createStorageClass({ body: { metadata: { name: 'none' } } as k8s.V1StorageClass }), {
      code: 422,
      reason: 'Invalid',
      message: 'StorageClass.storage.k8s.io "none" is invalid: provisioner: Required value',
    });
    const status = await expectStatus(
      storage.createStorageClass({ body: { metadata: { name: 'bad' }, provisioner: 'Example.com/Fast Disk', reclaimPolicy: 'Recycle', volumeBindingMode: 'Later' } }),
      { code: 422 },
    );
    expect(causeLines(status)).toEqual([
      `provisioner: Invalid value: "example.com/fast disk": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      'reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain"',
      'volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"',
    ]);
    const ok = await storage.createStorageClass({ body: { metadata: { name: 'fast' }, provisioner: 'example.com/fast', parameters: { type: 'ssd' } } });
    expect([ok.reclaimPolicy, ok.volumeBindingMode]).toEqual(['Delete', 'Immediate']);
  });

  it('forbids changing the provisioner, parameters, reclaim policy and binding mode', async () => {
    const created = await storage.createStorageClass({ body: { metadata: { name: 'fixed' }, provisioner: 'example.com/a', parameters: { type: 'ssd' } } });
    const status = await expectStatus(
      storage.replaceStorageClass({
        name: 'fixed',
        body: { ...created, provisioner: 'example.com/b', parameters: { type: 'hdd' }, reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' },
      }),
      { code: 422 },
    );
    expect(causeLines(status)).toEqual([
      'parameters: Forbidden: updates to parameters are forbidden.',
      'provisioner: Forbidden: updates to provisioner are forbidden.',
      'reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden.',
      'volumeBindingMode: Invalid value: "WaitForFirstConsumer": field is immutable',
    ]);
    const relabelled = await storage.replaceStorageClass({ name: 'fixed', body: { ...created, metadata: { ...created.metadata, labels: { tier: 'a' } } } });
    expect(relabelled.metadata?.labels).toEqual({ tier: 'a' });
  });
});

describe('PersistentVolumeClaim', () => {
  const pvc = (name: string, spec: k8s.V1PersistentVolumeClaimSpec) => core.createNamespacedPersistentVolumeClaim({ namespace: 'default', body: { metadata: { name }, spec } });

  it('requires access modes and a storage request', async () => {
    const status = await expectStatus(pvc('empty', {}), { code: 422, reason: 'Invalid' });
    expect(causeLines(status)).toEqual(['spec.accessModes: Required value: at least 1 access mode is required', 'spec.resources[storage]: Required value']);
  });

  it('checks access modes, the request, the class name and the volume mode', async () => {
    const status = await expectStatus(
      pvc('bad', { accessModes: ['ReadWriteOncePod', 'ReadWriteSome', 'ReadOnlyMany'], resources: { requests: { storage: '0' } }, storageClassName: 'Fast_SSD', volumeMode: 'Raw' }),
      { code: 422 },
    );
    expect(causeLines(status)).toEqual([
      'spec.accessModes: Unsupported value: "ReadWriteSome": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
      'spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes',
      'spec.resources[storage]: Invalid value: "0": must be greater than zero',
      `spec.storageClassName: Invalid value: "Fast_SSD": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      'spec.volumeMode: Unsupported value: "Raw": supported values: "Block", "Filesystem"',
    ]);
    // Only a supported mode beside ReadWriteOncePod is forbidden (ValidatePersistentVolumeClaimSpec's supportedAccessModes.Has).
    const unsupportedOnly = await expectStatus(pvc('rwop', { accessModes: ['ReadWriteOncePod', 'ReadWriteSome'], resources: { requests: { storage: '1Gi' } } }), { code: 422 });
    expect(causeLines(unsupportedOnly)).toEqual(['spec.accessModes: Unsupported value: "ReadWriteSome": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"']);
    const ok = await pvc('data', { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '5Gi' } }, storageClassName: 'fast' });
    expect(ok.spec?.volumeMode).toBe('Filesystem');
  });
});

describe('PersistentVolume', () => {
  const pv = (name: string, spec: k8s.V1PersistentVolumeSpec) => core.createPersistentVolume({ body: { metadata: { name }, spec } });

  it('requires access modes, a storage capacity and one volume source', async () => {
    const status = await expectStatus(pv('empty-pv', {}), { code: 422, reason: 'Invalid' });
    expect(causeLines(status)).toEqual([
      'spec.accessModes: Required value',
      'spec.capacity: Required value',
      'spec.capacity: Unsupported value: {}: supported values: "storage"',
      'spec: Required value: must specify a volume type',
    ]);
  });

  it('checks capacity, reclaim policy, sources, class and mode', async () => {
    const status = await expectStatus(
      pv('bad-pv', {
        accessModes: ['ReadWriteOnce'],
        capacity: { storage: '0', cpu: '1' },
        persistentVolumeReclaimPolicy: 'Recycle',
        hostPath: { path: '/' },
        nfs: { server: 'nfs.example.com', path: '/exports' },
        storageClassName: 'Slow',
        volumeMode: 'Raw',
      }),
      { code: 422 },
    );
    expect(causeLines(status)).toEqual([
      'spec.capacity: Unsupported value: {"cpu":"1","storage":"0"}: supported values: "storage"',
      'spec.capacity[storage]: Invalid value: "0": must be greater than zero',
      'spec.nfs: Forbidden: may not specify more than 1 volume type',
      "spec.persistentVolumeReclaimPolicy: Forbidden: may not be 'recycle' for a hostPath mount of '/'",
      `spec.storageClassName: Invalid value: "Slow": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      'spec.volumeMode: Unsupported value: "Raw": supported values: "Block", "Filesystem"',
    ]);
    await expectStatus(pv('local-pv', { accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' }, local: { path: '/mnt/disk' } }), {
      code: 422,
      message: 'PersistentVolume "local-pv" is invalid: spec.nodeAffinity: Required value: Local volume requires node affinity',
    });
    const ok = await pv('nfs-pv', { accessModes: ['ReadWriteMany'], capacity: { storage: '10Gi' }, nfs: { server: 'nfs.example.com', path: '/exports' } });
    expect(ok.spec?.persistentVolumeReclaimPolicy).toBe('Retain');
  });
});

describe('webhook configurations', () => {
  const hook = (extra: Partial<k8s.V1ValidatingWebhook> = {}): k8s.V1ValidatingWebhook => ({
    name: 'check.example.com',
    clientConfig: { service: { namespace: 'default', name: 'hooks' } },
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    ...extra,
  });
  const vwc = (name: string, webhooks: k8s.V1ValidatingWebhook[]) => admission.createValidatingWebhookConfiguration({ body: { metadata: { name }, webhooks } });

  it('defaults a webhook as the real server does', async () => {
    const created = await vwc('defaults', [hook({ rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] })]);
    const w = created.webhooks![0]!;
    expect([w.failurePolicy, w.matchPolicy, w.timeoutSeconds, w.namespaceSelector, w.objectSelector, w.rules?.[0]?.scope, w.clientConfig.service?.port]).toEqual([
      'Fail',
      'Equivalent',
      10,
      {},
      {},
      '*',
      443,
    ]);
    const mutating = await admission.createMutatingWebhookConfiguration({ body: { metadata: { name: 'defaults' }, webhooks: [hook()] } });
    expect(mutating.webhooks?.[0]?.reinvocationPolicy).toBe('Never');
  });

  it('checks names (fully qualified, unique), sideEffects and review versions', async () => {
    const status = await expectStatus(
      vwc('names', [hook({ name: 'short.name' }), hook({ name: 'check.example.com', sideEffects: 'Some' }), hook({ name: 'check.example.com', admissionReviewVersions: [] }), hook({ name: 'x.example.com', admissionReviewVersions: ['v2'] })]),
      { code: 422, reason: 'Invalid' },
    );
    expect(causeLines(status)).toEqual([
      'webhooks[0].name: Invalid value: "short.name": should be a domain with at least three segments separated by dots',
      'webhooks[1].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"',
      'webhooks[2].admissionReviewVersions: Required value: must specify one of v1, v1beta1',
      'webhooks[2].name: Duplicate value: "check.example.com"',
      'webhooks[3].admissionReviewVersions: Invalid value: ["v2"]: must include at least one of v1, v1beta1',
    ]);
    await expectStatus(vwc('no-effects', [hook({ sideEffects: undefined })]), {
      code: 422,
      message: 'ValidatingWebhookConfiguration.admissionregistration.k8s.io "no-effects" is invalid: webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun',
    });
  });

  it('checks the client config, rules, policies and timeout', async () => {
    const status = await expectStatus(
      vwc('config', [
        hook({ clientConfig: { url: 'http://hooks.example.com/x', service: { namespace: 'default', name: 'hooks' } } }),
        hook({ name: 'b.example.com', clientConfig: { url: 'http://hooks.example.com/x' } }),
        hook({
          name: 'c.example.com',
          failurePolicy: 'Retry',
          timeoutSeconds: 31,
          rules: [{ operations: ['*', 'CREATE'], apiGroups: [], apiVersions: ['v1'], resources: [], scope: 'Global' }, { operations: ['PATCH'], apiGroups: ['*'], apiVersions: [''], resources: ['pods'] }],
        }),
      ]),
      { code: 422 },
    );
    expect(causeLines(status)).toEqual([
      'webhooks[0].clientConfig: Required value: exactly one of url or service is required',
      `webhooks[1].clientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
      `webhooks[2].rules[0].operations: Invalid value: ["*","CREATE"]: if '*' is present, must not specify other operations`,
      'webhooks[2].rules[0].apiGroups: Required value',
      'webhooks[2].rules[0].resources: Required value',
      'webhooks[2].rules[0].scope: Unsupported value: "Global": supported values: "*", "Cluster", "Namespaced"',
      'webhooks[2].rules[1].operations[0]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
      'webhooks[2].rules[1].apiVersions[0]: Required value',
      'webhooks[2].failurePolicy: Unsupported value: "Retry": supported values: "Fail", "Ignore"',
      'webhooks[2].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds',
    ]);
  });
});

describe.skipIf(!kubectlAvailable)('through kubectl', () => {
  it('kubectl create reports a bad CronJob schedule', async () => {
    const kubectl = kubectlRunner((await cluster.listen()).kubeconfig);
    const r = await kubectl(['create', 'cronjob', 'kubectl-cj', '--image=busybox', '--schedule=61 * * * *']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('error: failed to create cronjob: CronJob.batch "kubectl-cj" is invalid: spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61');
  });

  it('kubectl apply reports an Ingress path that is not absolute', async () => {
    const kubectl = kubectlRunner((await cluster.listen()).kubeconfig);
    const manifest = `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: kubectl-ing}
spec:
  rules:
  - http:
      paths:
      - {path: api, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}
`;
    const r = await kubectl(['apply', '-f', '-'], manifest);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('The Ingress "kubectl-ing" is invalid: spec.rules[0].http.paths[0].path: Invalid value: "api": must be an absolute path');
  });
});
