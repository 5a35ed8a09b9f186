// A body that makes very many errors gets a 422 with every cause, not a 500 (the cause list once
// overflowed the stack). Moved from decode-hardening.test.ts: it sends raw fetch to cluster.url,
// which goes the same way on both Vitest projects, so it runs once (test/support/msw-project.ts).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { widgetCrd } from './support/schema-crd.ts';

let cluster: FakeCluster;

beforeEach(async () => {
  cluster = await createFakeCluster();
});
afterEach(() => cluster.close());

describe('bodies that make very many errors', () => {
  it('answers 422 with every cause for 150k wrong-typed items (the cause list overflowed the stack: 500)', async () => {
    const crd = widgetCrd({ type: 'object', properties: { spec: { type: 'object', properties: { l: { type: 'array', items: { type: 'string' } } } } } });
    await cluster.apply({ ...crd, metadata: { name: 'gadgets.schema.example.com' }, spec: { ...crd.spec, names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' } } });
    const body = JSON.stringify({ apiVersion: 'schema.example.com/v1', kind: 'Gadget', metadata: { name: 'g' }, spec: { l: Array(150_000).fill(1) } });
    const res = await fetch(`${cluster.url}/apis/schema.example.com/v1/namespaces/default/gadgets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(res.status).toBe(422);
    const causes = ((await res.json()) as { details: { causes: Array<{ field: string; message: string }> } }).details.causes;
    expect(causes).toHaveLength(150_000);
    expect(causes[149_999]).toEqual({ reason: 'FieldValueTypeInvalid', field: 'spec.l[149999]', message: 'Invalid value: "integer": spec.l[149999] in body must be of type string: "integer"' });
  });
});
