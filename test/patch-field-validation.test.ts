// fieldValidation on JSON and merge patches of a custom resource (upstream vectors 21 and 22,
// field_validation_test.go testFieldValidationPatchCRD). The bodies carry duplicate keys, which a
// client's JSON serialiser cannot produce, so they are sent as raw requests.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { warningTexts } from './support/warnings.ts';

let cluster: FakeCluster;
beforeEach(async () => {
  cluster = await createFakeCluster();
  await cluster.apply({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'tests.schema.example.com' },
    spec: {
      group: 'schema.example.com',
      scope: 'Cluster',
      names: { plural: 'tests', singular: 'test', kind: 'Test' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: {
                    cronSpec: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' },
                    knownField1: { type: 'string' },
                    embeddedObj: {
                      'x-kubernetes-embedded-resource': true,
                      type: 'object',
                      properties: { apiversion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' } },
                    },
                    ports: {
                      type: 'array',
                      'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
                      'x-kubernetes-list-type': 'map',
                      items: {
                        type: 'object',
                        required: ['containerPort', 'protocol'],
                        properties: {
                          containerPort: { format: 'int32', type: 'integer' },
                          hostIP: { type: 'string' },
                          hostPort: { format: 'int32', type: 'integer' },
                          name: { type: 'string' },
                          protocol: { type: 'string' },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      ],
    },
  });
});
afterEach(() => cluster.close());

const patchYAMLBody = (name: string) =>
  `apiVersion: schema.example.com/v1\nkind: Test\nmetadata:\n  name: ${name}\n  finalizers:\n  - test/finalizer\nspec:\n  cronSpec: "* * * * */5"\n  ports:\n  - name: x\n    containerPort: 80\n    protocol: TCP`;

const mergePatchBody = `{
  "spec": {
    "unknown1": "val1",
    "unknownDupe": "valDupe",
    "unknownDupe": "valDupe2",
    "knownField1": "val1",
    "knownField1": "val2",
    "ports": [{ "name": "portName", "containerPort": 8080, "protocol": "TCP", "hostPort": 8081, "hostPort": 8082, "unknownNested": "val" }]
  }
}`;

const jsonPatchBody = `[
  {"op": "add", "path": "/spec/unknown1", "value": "val1", "foo": "bar"},
  {"op": "add", "path": "/spec/unknown2", "path": "/spec/unknown3", "value": "val2"},
  {"op": "add", "path": "/spec/unknownDupe", "value": "valDupe"},
  {"op": "add", "path": "/spec/unknownDupe", "value": "valDupe2"},
  {"op": "add", "path": "/spec/knownField1", "value": "val1"},
  {"op": "add", "path": "/spec/knownField1", "value": "val2"},
  {"op": "add", "path": "/spec/ports/0/name", "value": "portName"},
  {"op": "add", "path": "/spec/ports/0/containerPort", "value": 8080},
  {"op": "add", "path": "/spec/ports/0/protocol", "value": "TCP"},
  {"op": "add", "path": "/spec/ports/0/hostPort", "value": 8081},
  {"op": "add", "path": "/spec/ports/0/hostPort", "value": 8082},
  {"op": "add", "path": "/spec/ports/0/unknownNested", "value": "val"}
]`;

async function send(name: string, contentType: string, body: string, query: string): Promise<Response> {
  return cluster.handle(
    new Request(`${cluster.url}/apis/schema.example.com/v1/tests/${name}?${query}`, { method: 'PATCH', headers: { 'content-type': contentType }, body }),
  );
}

/** Creates the object with server-side apply, as the upstream test does, then patches it. */
async function createThenPatch(name: string, contentType: string, body: string, fieldValidation?: string): Promise<Response> {
  const created = await send(name, 'application/apply-patch+yaml', patchYAMLBody(name), 'fieldManager=apply_test');
  expect(created.status, await created.clone().text()).toBe(201);
  return send(name, contentType, body, fieldValidation ? `fieldValidation=${fieldValidation}` : '');
}

const MERGE_ISSUES = [
  'duplicate field "spec.unknownDupe"',
  'duplicate field "spec.knownField1"',
  'duplicate field "spec.ports[0].hostPort"',
  'unknown field "spec.ports[0].unknownNested"',
  'unknown field "spec.unknown1"',
  'unknown field "spec.unknownDupe"',
];
const JSON_PATCH_ISSUES = [
  'json patch unknown field "[0].foo"',
  'json patch duplicate field "[1].path"',
  'unknown field "spec.ports[0].unknownNested"',
  'unknown field "spec.unknown1"',
  'unknown field "spec.unknown3"',
  'unknown field "spec.unknownDupe"',
];

describe('fieldValidation on patches of a custom resource', () => {
  it('merge patch, Strict: 422 listing duplicates then unknown fields (vector 21)', async () => {
    const res = await createThenPatch('merge-strict', 'application/merge-patch+json', mergePatchBody, 'Strict');
    expect(res.status).toBe(422);
    const status = (await res.json()) as { message: string; reason: string };
    expect(status.reason).toBe('Invalid');
    expect(status.message.startsWith(' "" is invalid: patch: Invalid value: ')).toBe(true);
    expect(status.message.endsWith(`strict decoding error: ${MERGE_ISSUES.join(', ')}`)).toBe(true);
  });

  it('merge patch, Warn and unset: 200 with one warning per issue', async () => {
    for (const [name, mode] of [['merge-warn', 'Warn'], ['merge-unset', undefined]] as const) {
      const res = await createThenPatch(name, 'application/merge-patch+json', mergePatchBody, mode);
      expect(res.status).toBe(200);
      expect(warningTexts(res.headers.get('warning'))).toEqual(MERGE_ISSUES);
    }
    const ignored = await createThenPatch('merge-ignore', 'application/merge-patch+json', mergePatchBody, 'Ignore');
    expect(ignored.status).toBe(200);
    expect(ignored.headers.get('warning')).toBeNull();
  });

  it('JSON patch, Warn: the patch body’s own issues first (vector 22)', async () => {
    const res = await createThenPatch('json-warn', 'application/json-patch+json', jsonPatchBody, 'Warn');
    expect(res.status).toBe(200);
    expect(warningTexts(res.headers.get('warning'))).toEqual(JSON_PATCH_ISSUES);
  });

  it('JSON patch, Strict: 422', async () => {
    const res = await createThenPatch('json-strict', 'application/json-patch+json', jsonPatchBody, 'Strict');
    expect(res.status).toBe(422);
    expect(((await res.json()) as { message: string }).message.endsWith(`strict decoding error: ${JSON_PATCH_ISSUES.join(', ')}`)).toBe(true);
  });
});
