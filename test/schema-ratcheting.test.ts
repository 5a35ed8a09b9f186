// Validation ratcheting (CRDValidationRatcheting, GA): on update, a schema error inside a part of
// the object the update did not change is dropped, so tightening a CRD does not lock existing
// objects; the exceptions the CRD task page lists still fail. apiextensions-apiserver
// pkg/apiserver/validation/ratcheting.go, pkg/registry/customresource/strategy.go, and
// k8s.io/apiserver pkg/cel/common/equality.go for what "unchanged" means.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { at, GROUP, KIND, specSchema, widget, widgetCrd, type Schema } from './support/schema-crd.ts';
import { expectStatus } from './support/status.ts';

let cluster: FakeCluster;
let custom: k8s.CustomObjectsApi;
beforeEach(async () => {
  cluster = await createFakeCluster();
  custom = cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
});
afterEach(() => cluster.close());

type Widget = { metadata: k8s.V1ObjectMeta; spec: Record<string, unknown> };

/** Creates `spec` under `loose`, then switches the CRD to `strict`: the object is now invalid as stored. */
async function storedUnder(loose: Schema, strict: Schema, spec: Record<string, unknown>, name = 'w'): Promise<Widget> {
  await cluster.apply(widgetCrd(loose));
  await custom.createNamespacedCustomObject({ ...at, body: widget(name, spec) });
  await cluster.apply(widgetCrd(strict));
  return (await custom.getNamespacedCustomObject({ ...at, name })) as Widget;
}
const replace = (current: Widget, spec: Record<string, unknown>) =>
  custom.replaceNamespacedCustomObject({ ...at, name: current.metadata.name!, body: { ...widget(current.metadata.name!, spec), metadata: current.metadata } }) as Promise<Widget>;
const invalidMessage = (name: string, errors: string) => `${KIND}.${GROUP} "${name}" is invalid: ${errors}`;

const str = { type: 'string' };
const short = { type: 'string', maxLength: 3 };

describe('ratcheting', () => {
  it('an unchanged invalid field does not block an update of another field', async () => {
    const current = await storedUnder(specSchema({ name: str, note: str }), specSchema({ name: short, note: str }), { name: 'toolong', note: 'a' });
    const updated = await replace(current, { name: 'toolong', note: 'b' });
    expect(updated.spec).toEqual({ name: 'toolong', note: 'b' });
  });

  it('a changed field must be valid, even if it was invalid before', async () => {
    const current = await storedUnder(specSchema({ name: str }), specSchema({ name: short }), { name: 'toolong' });
    await expectStatus(replace(current, { name: 'stilltoolong' }), {
      code: 422,
      reason: 'Invalid',
      message: invalidMessage('w', 'spec.name: Too long: may not be more than 3 bytes'),
    });
  });

  it('a valid field cannot be made invalid', async () => {
    await cluster.apply(widgetCrd(specSchema({ name: short })));
    await custom.createNamespacedCustomObject({ ...at, body: widget('w', { name: 'ok' }) });
    const current = (await custom.getNamespacedCustomObject({ ...at, name: 'w' })) as Widget;
    await expectStatus(replace(current, { name: 'toolong' }), { code: 422, message: invalidMessage('w', 'spec.name: Too long: may not be more than 3 bytes') });
  });

  it('creates are never ratcheted', async () => {
    await storedUnder(specSchema({ name: str }), specSchema({ name: short }), { name: 'toolong' });
    await expectStatus(custom.createNamespacedCustomObject({ ...at, body: widget('other', { name: 'toolong' }) }), { code: 422 });
  });

  it('map values are compared by key', async () => {
    const loose = specSchema({ labels: { type: 'object', additionalProperties: str } });
    const strict = specSchema({ labels: { type: 'object', additionalProperties: short } });
    const current = await storedUnder(loose, strict, { labels: { old: 'toolong', keep: 'ok' } });
    const updated = await replace(current, { labels: { old: 'toolong', keep: 'new', added: 'abc' } });
    expect(updated.spec.labels).toEqual({ old: 'toolong', keep: 'new', added: 'abc' });
    await expectStatus(replace(updated, { labels: { old: 'toolong', added: 'abcd' } }), {
      code: 422,
      message: invalidMessage('w', 'spec.labels.added: Too long: may not be more than 3 bytes'),
    });
  });

  it('list-type=map items are matched by their keys, so reordering keeps them unchanged', async () => {
    const items = (value: Schema): Schema => ({
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      items: { type: 'object', required: ['name'], properties: { name: str, value } },
    });
    const current = await storedUnder(specSchema({ ports: items(str) }), specSchema({ ports: items(short) }), { ports: [{ name: 'a', value: 'toolong' }] });
    const updated = await replace(current, { ports: [{ name: 'b', value: 'ok' }, { name: 'a', value: 'toolong' }] });
    expect(updated.spec.ports).toEqual([{ name: 'b', value: 'ok' }, { name: 'a', value: 'toolong' }]);
  });

  it('atomic lists only ratchet as a whole: changing any item re-checks every item', async () => {
    const list = (item: Schema): Schema => ({ type: 'array', items: item });
    const current = await storedUnder(specSchema({ names: list(str) }), specSchema({ names: list(short) }), { names: ['toolong'] });
    // Unchanged list: fine.
    await replace(current, { names: ['toolong'] });
    const fresh = (await custom.getNamespacedCustomObject({ ...at, name: 'w' })) as Widget;
    await expectStatus(replace(fresh, { names: ['toolong', 'ok'] }), { code: 422, message: invalidMessage('w', 'spec.names[0]: Too long: may not be more than 3 bytes') });
  });
});

describe('what is not ratcheted', () => {
  it('validations inside allOf/anyOf/oneOf/not are not ratcheted when the node holding them changed', async () => {
    // The quantor's sub-validators get no ratcheting: spec.mode is unchanged, but spec changed, so
    // spec's allOf re-checks it. The same rule outside the allOf would ratchet (first test above).
    const strict = specSchema({ mode: str, other: str }, { allOf: [{ properties: { mode: { maxLength: 3 } } }] });
    const current = await storedUnder(specSchema({ mode: str, other: str }), strict, { mode: 'legacy', other: 'a' });
    const status = await expectStatus(replace(current, { mode: 'legacy', other: 'b' }), { code: 422, reason: 'Invalid' });
    const causes = (status.details as { causes: Array<{ field: string; message: string }> }).causes.map((c) => `${c.field}: ${c.message}`).sort();
    expect(causes).toEqual([
      '<nil>: Invalid value: "": "spec" must validate all the schemas (allOf). None validated',
      'spec.mode: Too long: may not be more than 3 bytes',
    ]);
  });

  it('not: an unchanged node holding it is ratcheted as a whole, a changed one is not', async () => {
    const strict = specSchema({ mode: str, other: str }, { not: { properties: { mode: { enum: ['legacy'] } } } });
    const current = await storedUnder(specSchema({ mode: str, other: str }), strict, { mode: 'legacy', other: 'a' });
    await expectStatus(replace(current, { mode: 'legacy', other: 'b' }), {
      code: 422,
      message: invalidMessage('w', '<nil>: Invalid value: "": "spec" must not validate the schema (not)'),
    });
    // Only metadata changes: spec is unchanged, so its errors (the not included) are dropped.
    const relabelled = await custom.replaceNamespacedCustomObject({
      ...at,
      name: 'w',
      body: { ...widget('w', { mode: 'legacy', other: 'a' }), metadata: { ...current.metadata, labels: { touched: 'yes' } } },
    });
    expect((relabelled as Widget).metadata.labels).toEqual({ touched: 'yes' });
  });

  it('a newly required field must be set once its parent changes', async () => {
    const current = await storedUnder(specSchema({ a: str, b: str }), specSchema({ a: str, b: str }, { required: ['b'] }), { a: 'x' });
    await expectStatus(replace(current, { a: 'y' }), { code: 422, message: invalidMessage('w', 'spec.b: Required value') });
    // An unchanged spec keeps passing (its Required error is ratcheted with the rest of it).
    expect((await replace(current, { a: 'x' })).spec).toEqual({ a: 'x' });
  });

  it('list-type duplicates: reported only when the old object had none (strategy.go), whatever changed', async () => {
    // The old object already breaks the new set rule, so the update is not checked for duplicates.
    const tags = (listType?: string): Schema => ({ type: 'array', items: str, ...(listType ? { 'x-kubernetes-list-type': listType } : {}) });
    const current = await storedUnder(specSchema({ tags: tags('atomic'), other: str }), specSchema({ tags: tags('set'), other: str }), { tags: ['a', 'a'], other: 'x' });
    expect((await replace(current, { tags: ['b', 'b'], other: 'y' })).spec.tags).toEqual(['b', 'b']);
    // An object without duplicates cannot gain any.
    await custom.createNamespacedCustomObject({ ...at, body: widget('clean', { tags: ['a'] }) });
    const clean = (await custom.getNamespacedCustomObject({ ...at, name: 'clean' })) as Widget;
    await expectStatus(replace(clean, { tags: ['a', 'a'] }), { code: 422, message: invalidMessage('clean', 'spec.tags[1]: Duplicate value: "a"') });
  });

  it('kind and apiVersion at the root are checked on every update', async () => {
    await cluster.apply(widgetCrd(specSchema({ a: str })));
    await custom.createNamespacedCustomObject({ ...at, body: widget('w', { a: 'x' }) });
    const current = (await custom.getNamespacedCustomObject({ ...at, name: 'w' })) as Widget;
    await expectStatus(custom.replaceNamespacedCustomObject({ ...at, name: 'w', body: { ...widget('w', { a: 'x' }), kind: 'Other', metadata: current.metadata } }), {
      code: 422,
      message: invalidMessage('w', `kind: Invalid value: "Other": must be ${KIND}`),
    });
  });
});
