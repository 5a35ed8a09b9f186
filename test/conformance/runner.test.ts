// Self-test of the conformance runner: inline scenarios over built-in kinds (which kubefake serves
// today) exercise every verb and expectation the built-ins can, and the matcher is shown to *fail*
// when an expectation is not met (a runner that passes everything would hide every gap).
import { existsSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { load } from 'js-yaml';
import { afterEach, describe, expect, test } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../../src/index.ts';
import { customKindsOf } from './client-steps.ts';
import { FixtureFormatError, parseFixture, parseScenario, parseStep, type Fixture, type JsonObject, type Step, type StepAction } from './fixture-types.ts';
import { checkOutcome, ExpectationError, parseWarningHeader, type StepOutcome } from './matchers.ts';
import { KNOWN_GAPS } from './known-gaps.ts';
import { FIXTURES_DIR, runScenario, runStep } from './runner.ts';

const fixture = (yaml: string): Fixture => parseFixture(load(yaml), 'inline');
const only = (yaml: string) => fixture(yaml).scenarios[0]!;
const step = (yaml: string): Step & { action: StepAction } => {
  const s = parseStep(load(yaml), 'inline step');
  if (!s.action) throw new Error('inline step without verb');
  return s as Step & { action: StepAction };
};

const ENDPOINTS_WARNING = 'v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice';

describe('runner over built-in kinds (passing scenarios)', () => {
  const scenarios = fixture(`
scenarios:
- name: configmap-verbs
  manifests:
  - apiVersion: v1
    kind: ConfigMap
    metadata: {name: seeded}
    data: {a: '1'}
  steps:
  - create: {apiVersion: v1, kind: ConfigMap, metadata: {name: c1}, data: {k: v}}
    expect:
      code: 201
      object: {apiVersion: v1, kind: ConfigMap, metadata: {name: c1, namespace: default}, data: {k: v}}
      present: [metadata.uid, metadata.resourceVersion, metadata.creationTimestamp]
      absent: [metadata.generation, data.other]
      warnings: []
  - get: {apiVersion: v1, kind: ConfigMap, namespace: default, name: missing}
    expect:
      code: 404
      reason: NotFound
      message: configmaps "missing" not found
      messageContains: not found
      details: {name: missing, kind: configmaps}
  - list: {apiVersion: v1, kind: ConfigMap, namespace: default}
    expect: {code: 200, object: {kind: ConfigMapList, apiVersion: v1}, names: [seeded, c1, kube-root-ca.crt]}
  - list: {apiVersion: v1, kind: ConfigMap, namespace: default}
    query: {fieldSelector: metadata.name=c1}
    expect: {code: 200, names: [c1]}
  - patch:
      apiVersion: v1
      kind: ConfigMap
      name: c1
      type: application/merge-patch+json
      body: {data: {k: null, k2: v2}}
    expect: {code: 200, object: {data: {k2: v2}}, absent: [data.k]}
  - update: {apiVersion: v1, kind: ConfigMap, metadata: {name: c1}, data: {x: y}}
    expect: {code: 200, object: {data: {x: y}}, absent: [data.k2]}
  - create: {apiVersion: v1, kind: ConfigMap, metadata: {name: dry}, data: {k: v}}
    query: {dryRun: All}
    expect: {code: 201, object: {metadata: {name: dry}}}
  - get: {apiVersion: v1, kind: ConfigMap, namespace: default, name: dry}
    expect: {code: 404, reason: NotFound}
  - create: {apiVersion: v1, kind: ConfigMap, metadata: {name: c1}}
    expect: {code: 409, reason: AlreadyExists, details: {name: c1, kind: configmaps}}
  - delete: {apiVersion: v1, kind: ConfigMap, namespace: default, name: c1}
    expect: {code: 200}
  - get: {apiVersion: v1, kind: ConfigMap, namespace: default, name: c1}
    eventually: true
    expect: {code: 404, reason: NotFound}
- name: namespace-verbs
  steps:
  - create: {apiVersion: v1, kind: Namespace, metadata: {name: team-a}}
    expect: {code: 201, object: {metadata: {name: team-a}, status: {phase: Active}}, absent: [metadata.namespace]}
  - get: {apiVersion: v1, kind: Namespace, name: team-a}
    expect: {code: 200, object: {spec: {finalizers: [kubernetes]}}}
  - list: {apiVersion: v1, kind: Namespace}
    query: {fieldSelector: metadata.name=team-a}
    expect: {code: 200, names: [team-a]}
  - delete: {apiVersion: v1, kind: Namespace, name: team-a}
    expect: {code: 200, present: [metadata.deletionTimestamp], object: {status: {phase: Terminating}}}
- name: discovery-and-warnings
  steps:
  - discovery: {groupVersion: v1}
    expect:
      code: 200
      object: {kind: APIResourceList, groupVersion: v1}
      resources:
      - {name: configmaps, kind: ConfigMap, namespaced: true, singularName: configmap, shortNames: [cm]}
      - {name: namespaces, kind: Namespace, namespaced: false}
  - list: {apiVersion: v1, kind: Endpoints, namespace: default}
    expect: {code: 200, warnings: ['${ENDPOINTS_WARNING}']}
- name: crd-schema-reaches-the-server-intact
  # client-node's typed CRD model drops wire names such as x-kubernetes-validations unless the runner
  # converts the fixture object into the model first; the stored CRD proves nothing was lost.
  steps:
  - create:
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      metadata: {name: crontabs.stable.example.com}
      spec:
        group: stable.example.com
        scope: Namespaced
        names: {plural: crontabs, singular: crontab, kind: CronTab}
        versions:
        - name: v1
          served: true
          storage: true
          schema:
            openAPIV3Schema:
              type: object
              properties:
                spec:
                  type: object
                  x-kubernetes-validations: [{rule: self.a <= 3, messageExpression: '"too big"', fieldPath: .a}]
                  properties:
                    a: {type: integer, default: 1, nullable: true}
                    b: {x-kubernetes-int-or-string: true}
                    c: {type: object, x-kubernetes-preserve-unknown-fields: true, x-kubernetes-embedded-resource: true}
    expect:
      code: 201
      object:
        spec:
          versions:
          - schema:
              openAPIV3Schema:
                properties:
                  spec:
                    x-kubernetes-validations: [{rule: self.a <= 3, messageExpression: '"too big"', fieldPath: .a}]
                    properties:
                      a: {type: integer, default: 1, nullable: true}
                      b: {x-kubernetes-int-or-string: true}
                      c: {type: object, x-kubernetes-preserve-unknown-fields: true, x-kubernetes-embedded-resource: true}
`).scenarios;
  for (const scenario of scenarios) test(scenario.name, () => runScenario(scenario));
});

describe('runner detects failures end to end', () => {
  const failing = (name: string, stepsYaml: string) => only(`scenarios:\n- name: ${name}\n  steps:\n${stepsYaml}`);

  test('a wrong code', async () => {
    const s = failing('wrong-code', `  - create: {apiVersion: v1, kind: ConfigMap, metadata: {name: c}}\n    expect: {code: 200}`);
    await expect(runScenario(s)).rejects.toThrow(/step 1 \(create\).*\n.*code: expected 200, got 201/);
  });

  test('a wrong reason and message on a 404', async () => {
    const s = failing('wrong-reason', `  - get: {apiVersion: v1, kind: ConfigMap, namespace: default, name: nope}\n    expect: {code: 404, reason: Conflict, message: nope}`);
    await expect(runScenario(s)).rejects.toThrow(/reason: expected "Conflict", got "NotFound"[\s\S]*message: expected "nope"/);
  });

  test('an extra list item', async () => {
    const s = failing(
      'wrong-names',
      `  - create: {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n  - create: {apiVersion: v1, kind: ConfigMap, metadata: {name: b}}\n` +
        `  - list: {apiVersion: v1, kind: ConfigMap, namespace: default}\n    expect: {names: [a]}`,
    );
    await expect(runScenario(s)).rejects.toThrow(/step 3 \(list\)[\s\S]*names: expected \["a"\]/);
  });

  test('a query the server must see (dryRun): the object is not stored', async () => {
    const s = failing(
      'dry-run-not-stored',
      `  - create: {apiVersion: v1, kind: ConfigMap, metadata: {name: d}}\n    query: {dryRun: All}\n` +
        `  - get: {apiVersion: v1, kind: ConfigMap, namespace: default, name: d}\n    expect: {code: 200}`,
    );
    await expect(runScenario(s)).rejects.toThrow(/step 2 \(get\)[\s\S]*code: expected 200, got 404/);
  });

  test('a missing warning', async () => {
    const s = failing('no-warning', `  - list: {apiVersion: v1, kind: ConfigMap, namespace: default}\n    expect: {warnings: [something]}`);
    await expect(runScenario(s)).rejects.toThrow(/warnings: expected \["something"\], got \[\]/);
  });

  test('a scenario without steps, a note-only step and unknown scenario keys fail instead of passing vacuously', async () => {
    await expect(runScenario(only('scenarios:\n- name: empty\n  note: semantics only'))).rejects.toThrow(/no steps/);
    await expect(runScenario(only('scenarios:\n- name: n\n  steps:\n  - note: do something'))).rejects.toThrow(/step 1 has no verb/);
    await expect(runScenario(only('scenarios:\n- name: v\n  versions: [v1]'))).rejects.toThrow(/`versions`, outside the fixture format/);
  });

  test('a step naming only `name` needs a custom kind in the scenario', async () => {
    const s = failing('no-crd', `  - getScale: {name: x}\n    expect: {code: 200}`);
    await expect(runScenario(s)).rejects.toThrow(/names only `name`, but the scenario defines no custom kind/);
  });
});

describe('steps on a fake cluster', () => {
  let cluster: FakeCluster | undefined;
  afterEach(() => cluster?.close());

  test('retries until the expectation holds', async () => {
    cluster = await createFakeCluster();
    const ctx = { kc: cluster.kubeConfig, customKinds: [], namespace: 'default' };
    const get = 'get: {apiVersion: v1, kind: ConfigMap, namespace: default, name: late}\nexpect: {code: 200}';
    await expect(runStep(ctx, step(get))).rejects.toThrow(ExpectationError);
    const c = cluster;
    setTimeout(() => void c.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'late' } }), 300);
    await runStep(ctx, step(`${get}\neventually: true`));
  });

  test('get/list/delete of a custom kind unknown to discovery still reach the resource URL', async () => {
    cluster = await createFakeCluster();
    const ctx = { kc: cluster.kubeConfig, customKinds: [{ group: 'stable.example.com', versions: ['v1'], kind: 'CronTab', plural: 'crontabs', namespaced: true }], namespace: 'default' };
    await runStep(ctx, step('list: {apiVersion: stable.example.com/v1, kind: CronTab}\nexpect: {code: 404}'));
    await expect(runStep(ctx, step('get: {name: x}\nexpect: {code: 200}'))).rejects.toThrow(/GET \/apis\/stable.example.com\/v1\/namespaces\/default\/crontabs\/x \(got 404\)/);
    await expect(runStep(ctx, step('create: {apiVersion: stable.example.com/v1, kind: CronTab, metadata: {name: x}}\nexpect: {code: 201}'))).rejects.toThrow(
      /client-node cannot address CronTab: discovery of stable.example.com\/v1 answered 404/,
    );
  });
});

describe('requests the runner builds (stub server)', () => {
  // kubefake serves no subresources and no Table yet, so a loopback stub stands in to show what the
  // runner sends for getScale/updateScale/updateStatus, Table headers and queries, and what it reads back.
  interface Seen {
    method: string;
    url: string;
    accept: string | undefined;
    body: JsonObject | undefined;
  }
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  async function stub(): Promise<{ kc: KubeConfig; seen: Seen[] }> {
    const seen: Seen[] = [];
    const base = '/apis/stable.example.com/v1/namespaces/default/crontabs';
    const crontab = { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'web', namespace: 'default', resourceVersion: '7' }, spec: { replicas: 3 } };
    const scale = { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'web', namespace: 'default', resourceVersion: '7' }, spec: { replicas: 3 }, status: { replicas: 0 } };
    const table = { apiVersion: 'meta.k8s.io/v1', kind: 'Table', columnDefinitions: [{ name: 'Name' }, { name: 'Age' }], rows: [{ cells: ['web', '1s'] }] };
    const discovery = { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: 'stable.example.com/v1', resources: [{ name: 'crontabs', singularName: 'crontab', namespaced: true, kind: 'CronTab', verbs: ['get', 'list', 'create', 'update'] }] };
    server = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        const body = text ? (JSON.parse(text) as JsonObject) : undefined;
        seen.push({ method: req.method ?? '', url: req.url ?? '', accept: req.headers.accept, body });
        const path = new URL(req.url ?? '/', 'http://stub').pathname;
        const reply = (code: number, json: unknown, headers: Record<string, string> = {}) => {
          res.writeHead(code, { 'content-type': 'application/json', ...headers });
          res.end(JSON.stringify(json));
        };
        if (req.method === 'GET' && path === '/apis/stable.example.com/v1') reply(200, discovery);
        else if (req.method === 'GET' && path === base) reply(200, req.headers.accept?.includes('as=Table') ? table : { kind: 'CronTabList', items: [crontab] });
        else if (req.method === 'GET' && path === `${base}/web`) reply(200, crontab);
        else if (req.method === 'GET' && path === `${base}/web/scale`) reply(200, scale);
        else if (req.method === 'PUT' && (path === `${base}/web/scale` || path === `${base}/web/status`)) reply(200, body, { warning: '299 - "stub warning"' });
        else if (req.method === 'POST' && path === base) reply(201, body);
        else reply(404, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404, message: 'stub: not found' });
      });
    });
    const listening = server;
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    const { port } = listening.address() as AddressInfo;
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'stub', server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
      users: [{ name: 'u' }],
      contexts: [{ name: 'c', cluster: 'stub', user: 'u' }],
      currentContext: 'c',
    });
    return { kc, seen };
  }
  const CRONTAB = { group: 'stable.example.com', versions: ['v1'], kind: 'CronTab', plural: 'crontabs', namespaced: true };

  test('getScale, updateScale and updateStatus go through CustomObjectsApi with the current resourceVersion', async () => {
    const { kc, seen } = await stub();
    const ctx = { kc, customKinds: [CRONTAB], namespace: 'default' };
    await runStep(ctx, step('getScale: {name: web}\nexpect: {code: 200, object: {kind: Scale, spec: {replicas: 3}, status: {replicas: 0}}}'));
    expect(seen.at(-1)).toMatchObject({ method: 'GET', url: '/apis/stable.example.com/v1/namespaces/default/crontabs/web/scale' });

    seen.length = 0;
    await runStep(ctx, step('updateScale: {name: web, replicas: 5}\nquery: {dryRun: All}\nexpect: {code: 200, warnings: [stub warning]}'));
    // The Scale is read without the step's query, then written with it.
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      'GET /apis/stable.example.com/v1/namespaces/default/crontabs/web/scale',
      'PUT /apis/stable.example.com/v1/namespaces/default/crontabs/web/scale?dryRun=All',
    ]);
    expect(seen[1]!.body).toMatchObject({ kind: 'Scale', metadata: { resourceVersion: '7' }, spec: { replicas: 5 } });

    seen.length = 0;
    await runStep(ctx, step('updateStatus: {apiVersion: stable.example.com/v1, kind: CronTab, metadata: {name: web}, status: {replicas: 5}}\nexpect: {code: 200, object: {status: {replicas: 5}}}'));
    expect(seen.at(-1)).toMatchObject({ method: 'PUT', url: '/apis/stable.example.com/v1/namespaces/default/crontabs/web/status' });
    expect(seen.at(-1)!.body).toMatchObject({ metadata: { name: 'web', namespace: 'default', resourceVersion: '7' }, status: { replicas: 5 } });
  });

  test('query and headers reach only the step request, not the discovery lookup; Table checks', async () => {
    const { kc, seen } = await stub();
    const ctx = { kc, customKinds: [CRONTAB], namespace: 'default' };
    const accept = 'application/json;as=Table;v=v1;g=meta.k8s.io';
    await runStep(ctx, step(`list: {apiVersion: stable.example.com/v1, kind: CronTab, namespace: default}\nquery: {limit: 1}\nheaders: {Accept: '${accept}'}\nexpect: {code: 200, object: {kind: Table}, columns: [Name, Age], cells: [[web]]}`));
    expect(seen.map((s) => [s.url, s.accept])).toEqual([
      ['/apis/stable.example.com/v1', 'application/json, */*;q=0.8'],
      ['/apis/stable.example.com/v1/namespaces/default/crontabs?limit=1', accept],
    ]);
    seen.length = 0;
    await runStep(ctx, step('create: {apiVersion: stable.example.com/v1, kind: CronTab, metadata: {name: n}, spec: {a: null}}\nquery: {fieldValidation: Strict}\nexpect: {code: 201, object: {metadata: {namespace: default}, spec: {a: null}}}'));
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/apis/stable.example.com/v1/namespaces/default/crontabs?fieldValidation=Strict' });
  });

});

describe('fixture bookkeeping', () => {
  const fixtures = readdirSync(FIXTURES_DIR).filter((f) => f.endsWith('.yaml')).map((f) => f.slice(0, -'.yaml'.length));

  test('every fixture file has its test file (a new fixture cannot be silently left out)', () => {
    expect(fixtures.length).toBeGreaterThan(0);
    const missing = fixtures.filter((name) => !existsSync(new URL(`./${name}.test.ts`, import.meta.url)));
    expect(missing).toEqual([]);
  });

  test('every known gap names an existing fixture and carries a reason', () => {
    for (const [key, reason] of Object.entries(KNOWN_GAPS)) {
      expect(fixtures, key).toContain(key.split('/')[0]);
      expect(reason.trim(), key).not.toBe('');
    }
  });
});

describe('fixture parsing', () => {
  test('rejects what the runner would otherwise ignore', () => {
    expect(() => parseStep(load('get: {apiVersion: v1, kind: ConfigMap, name: x}\nexpect: {colour: red}'), 's')).toThrow(FixtureFormatError);
    expect(() => parseStep(load('get: {apiVersion: v1, kind: ConfigMap}\nlist: {apiVersion: v1, kind: ConfigMap}'), 's')).toThrow(/one verb per step/);
    expect(() => parseStep(load('get: {apiVersion: v1, kind: ConfigMap}\nretries: 3'), 's')).toThrow(/unsupported step key "retries"/);
    expect(() => fixture('scenarios:\n- name: a\n- name: a')).toThrow(/duplicate scenario name/);
  });

  test('query values are sent as text; the first custom kind comes from the first CRD', () => {
    const s = parseScenario(
      load(`
name: k
manifests:
- apiVersion: apiextensions.k8s.io/v1
  kind: CustomResourceDefinition
  metadata: {name: crontabs.stable.example.com}
  spec:
    group: stable.example.com
    scope: Namespaced
    names: {plural: crontabs, kind: CronTab}
    versions: [{name: v1beta1, served: false}, {name: v1, served: true}]
steps:
- list: {apiVersion: v1, kind: ConfigMap}
  query: {limit: 1}
`),
      'inline',
    );
    expect(s.steps[0]!.query).toEqual({ limit: '1' });
    expect(customKindsOf(s)).toEqual([{ group: 'stable.example.com', versions: ['v1'], kind: 'CronTab', plural: 'crontabs', namespaced: true }]);
  });
});

describe('matcher rejects unmet expectations', () => {
  const status = (causes: JsonObject[], extra: JsonObject = {}): StepOutcome => ({
    code: 422,
    body: { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Invalid', message: 'x is invalid: spec.a: Invalid value', code: 422, details: { name: 'x', kind: 'T', causes }, ...extra },
    warnings: [],
    request: 'POST /test',
  });
  const a = { field: 'spec.a', reason: 'FieldValueInvalid', message: 'Invalid value: a' };
  const b = { field: 'spec.b', reason: 'FieldValueRequired', message: 'Required value' };
  const fails = (fn: () => void, pattern: RegExp) => expect(fn).toThrow(pattern);

  test('causes: every expected cause, in any order, and no other', () => {
    checkOutcome({ causes: [b, a] }, status([a, b]));
    checkOutcome({ causes: [{ field: 'spec.a' }, { reason: 'FieldValueRequired' }] }, status([b, a]));
    fails(() => checkOutcome({ causes: [a] }, status([a, b])), /unexpected \[\{"field":"spec.b"/);
    fails(() => checkOutcome({ causes: [a, b] }, status([a])), /missing \[\{"field":"spec.b"/);
    fails(() => checkOutcome({ causes: [a, a] }, status([a, b])), /details.causes: expected exactly/);
    fails(() => checkOutcome({ causes: [{ ...a, message: 'other' }] }, status([a])), /details.causes/);
    fails(() => checkOutcome({ causes: [a] }, status([], { details: { name: 'x' } })), /missing/);
  });

  test('causeFields, code, reason, message, messageContains, details', () => {
    checkOutcome({ code: 422, reason: 'Invalid', causeFields: ['spec.b'], messageContains: 'spec.a', details: { name: 'x' } }, status([a, b]));
    fails(() => checkOutcome({ causeFields: ['spec.c'] }, status([a, b])), /no cause with field "spec.c"/);
    fails(() => checkOutcome({ code: 400 }, status([])), /code: expected 400, got 422/);
    fails(() => checkOutcome({ reason: 'BadRequest' }, status([])), /reason: expected "BadRequest"/);
    fails(() => checkOutcome({ message: 'x is invalid' }, status([])), /message: expected "x is invalid"/);
    fails(() => checkOutcome({ messageContains: 'spec.b' }, status([])), /expected to contain "spec.b"/);
    fails(() => checkOutcome({ details: { name: 'y' } }, status([])), /details.name: expected "y"/);
    fails(() => checkOutcome({ reason: 'Invalid' }, { code: 422, body: 'not json', warnings: [], request: 'GET /' }), /expected a Status object/);
  });

  const obj = (body: JsonObject, warnings: string[] = []): StepOutcome => ({ code: 200, body, warnings, request: 'GET /test' });

  test('object subset, present, absent (null is not absent)', () => {
    const o = obj({ metadata: { name: 'n', uid: 'u' }, spec: { foo: 'd', bar: null, list: [1, { a: 1, b: 2 }] } });
    checkOutcome({ object: { metadata: { name: 'n' }, spec: { bar: null, list: [1, { a: 1 }] } }, present: ['metadata.uid', 'spec.bar', 'spec.list.1.b'], absent: ['spec.baz'] }, o);
    fails(() => checkOutcome({ object: { spec: { foo: 'x' } } }, o), /spec.foo: expected "x", got "d"/);
    fails(() => checkOutcome({ object: { spec: { baz: null } } }, o), /spec.baz: missing/);
    fails(() => checkOutcome({ object: { spec: { list: [1] } } }, o), /spec.list: expected 1 item/);
    fails(() => checkOutcome({ object: { spec: { foo: 1 } } }, obj({ spec: { foo: '1' } })), /expected 1, got "1"/);
    fails(() => checkOutcome({ present: ['metadata.resourceVersion'] }, o), /metadata.resourceVersion: expected to be present/);
    fails(() => checkOutcome({ absent: ['spec.bar'] }, o), /spec.bar: expected to be absent, got null/);
  });

  test('names (exact set), warnings (exact list)', () => {
    const list = obj({ kind: 'List', items: [{ metadata: { name: 'b' } }, { metadata: { name: 'a' } }] }, ['w1', 'w2']);
    checkOutcome({ names: ['a', 'b'], warnings: ['w1', 'w2'] }, list);
    fails(() => checkOutcome({ names: ['a'] }, list), /names: expected \["a"\]/);
    fails(() => checkOutcome({ names: ['a', 'b', 'c'] }, list), /names/);
    fails(() => checkOutcome({ names: [] }, obj({ kind: 'Status' })), /not a list/);
    fails(() => checkOutcome({ warnings: ['w1'] }, list), /warnings: expected \["w1"\]/);
    fails(() => checkOutcome({ warnings: [] }, list), /warnings: expected \[\]/);
  });

  test('Warning headers are split and unquoted as fetch joins them', () => {
    expect(parseWarningHeader('299 - "a, \\"quoted\\" text", 299 - "second"')).toEqual(['a, "quoted" text', 'second']);
    expect(parseWarningHeader(undefined)).toEqual([]);
  });

  test('columns and cells of a Table; resources of an APIResourceList', () => {
    const table = obj({
      kind: 'Table',
      columnDefinitions: [{ name: 'Name' }, { name: 'Spec' }, { name: 'Replicas' }, { name: 'Age' }],
      rows: [{ cells: ['my', '* * * * *', 1, '7s'] }],
    });
    checkOutcome({ columns: ['Name', 'Spec', 'Replicas', 'Age'], cells: [['my', '* * * * *', 1]] }, table);
    fails(() => checkOutcome({ columns: ['Name', 'Spec'] }, table), /columns: expected/);
    fails(() => checkOutcome({ cells: [['my', '* * * * *', '1']] }, table), /rows\[0\]\.cells\[2\]: expected "1", got 1/);
    fails(() => checkOutcome({ cells: [] }, table), /rows: expected 0, got 1/);
    const resources = obj({ kind: 'APIResourceList', resources: [{ name: 'crontabs', shortNames: ['ct'], categories: ['all'], namespaced: true }] });
    checkOutcome({ resources: [{ name: 'crontabs', shortNames: ['ct'], namespaced: true }] }, resources);
    fails(() => checkOutcome({ resources: [{ name: 'crontabs', categories: [] }] }, resources), /categories: expected 0 item/);
    fails(() => checkOutcome({ resources: [{ name: 'shirts' }] }, resources), /no resource named "shirts"/);
  });
});
