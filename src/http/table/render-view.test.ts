import { beforeAll, describe, expect, it } from 'vitest';
import type { ResourceType } from '../../apis/resource-type.ts';
import { StatusError } from '../../errors/status-error.ts';
import { renderView } from './render-view.ts';
import { OBJECT_META_DOC } from './swagger-docs.ts';
import { loadBuiltinPrinters } from './printers-on-demand.ts';

beforeAll(() => loadBuiltinPrinters());

const now = new Date('2025-01-10T12:00:00Z');
const type = (t: Partial<ResourceType>): ResourceType => ({ group: '', version: 'v1', unstructured: false, ...t }) as ResourceType;
const configMaps = type({ kind: 'ConfigMap', plural: 'configmaps' });
const roles = type({ group: 'rbac.authorization.k8s.io', kind: 'Role', plural: 'roles' });
const cronTabs = type({ group: 'stable.example.com', kind: 'CronTab', plural: 'crontabs', unstructured: true });

const cm = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { resourceVersion: '12', name: 'cm', namespace: 'default', uid: 'u1', creationTimestamp: '2025-01-10T11:00:00Z', managedFields: [{ manager: 'm' }] },
  data: { a: 'b' },
};
const partial = {
  kind: 'PartialObjectMetadata',
  apiVersion: 'meta.k8s.io/v1',
  metadata: { name: 'cm', namespace: 'default', uid: 'u1', resourceVersion: '12', creationTimestamp: '2025-01-10T11:00:00Z', managedFields: [{ manager: 'm' }] },
};
const q = (s = '') => new URLSearchParams(s);
const table = { kind: 'Table', version: 'v1' } as const;

function statusOf(fn: () => unknown) {
  try {
    fn();
  } catch (err) {
    if (err instanceof StatusError) return err.status;
    throw err;
  }
  throw new Error('no error');
}

describe('renderView: Table', () => {
  it('renders one object with its resourceVersion and a PartialObjectMetadata row object', () => {
    expect(renderView(table, configMaps, { object: cm }, q(), now)).toEqual({
      kind: 'Table',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { resourceVersion: '12' },
      columnDefinitions: [
        { name: 'Name', type: 'string', format: 'name', description: OBJECT_META_DOC.name, priority: 0 },
        { name: 'Data', type: 'string', format: '', description: expect.stringContaining('Data contains the configuration data.'), priority: 0 },
        { name: 'Age', type: 'string', format: '', description: OBJECT_META_DOC.creationTimestamp, priority: 0 },
      ],
      rows: [{ cells: ['cm', 1, '60m'], object: partial }],
    });
  });

  it('carries list metadata and honours includeObject', () => {
    const list = { metadata: { resourceVersion: '20', continue: 'tok', remainingItemCount: 4 }, items: [cm] };
    const none = renderView({ kind: 'Table', version: 'v1beta1' }, configMaps, { list }, q('includeObject=None'), now);
    expect(none).toMatchObject({ apiVersion: 'meta.k8s.io/v1beta1', metadata: { resourceVersion: '20', continue: 'tok', remainingItemCount: 4 }, rows: [{ object: null }] });
    expect(renderView(table, configMaps, { list }, q('includeObject=Object'), now)).toMatchObject({ rows: [{ object: cm }] });
    const beta = renderView({ kind: 'Table', version: 'v1beta1' }, configMaps, { list }, q('includeObject=Metadata'), now);
    expect(beta).toMatchObject({ rows: [{ object: { ...partial, apiVersion: 'meta.k8s.io/v1beta1' } }] });
  });

  it('rejects an unknown includeObject with the apiserver’s 400', () => {
    expect(statusOf(() => renderView(table, configMaps, { object: cm }, q('includeObject=All'), now))).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: `Unable to convert to Table as requested: includeObject: Invalid value: "All": must be 'Metadata', 'Object', 'None', or empty`,
    });
  });

  it('uses the default table (Name, Created At) for kinds without a printer; empty lists have null rows', () => {
    const role = { metadata: { name: 'r', resourceVersion: '3', creationTimestamp: '2025-01-10T11:00:00Z' } };
    expect(renderView(table, roles, { list: { metadata: { resourceVersion: '9' }, items: [role] } }, q(), now)).toMatchObject({
      columnDefinitions: [
        { name: 'Name', type: 'string', format: 'name', description: OBJECT_META_DOC.name, priority: 0 },
        { name: 'Created At', type: 'date', format: '', description: OBJECT_META_DOC.creationTimestamp, priority: 0 },
      ],
      rows: [{ cells: ['r', '2025-01-10T11:00:00Z'] }],
    });
    expect(renderView(table, roles, { list: { metadata: { resourceVersion: '9' }, items: [] } }, q(), now)).toMatchObject({ rows: null });
    expect(renderView(table, configMaps, { list: { metadata: { resourceVersion: '9' }, items: [] } }, q(), now)).toMatchObject({ rows: [] });
  });

  it('prints custom resources with the CRD columns', () => {
    const ct = { ...cronTabs, printerColumns: [{ name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec' }] };
    const obj = { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'c', resourceVersion: '5', creationTimestamp: '2025-01-10T11:00:00Z' }, spec: { cronSpec: '* * * * *' } };
    const list = { metadata: { continue: '', resourceVersion: '5' }, items: [obj] };
    expect(renderView(table, ct, { list }, q(), now)).toMatchObject({ metadata: { resourceVersion: '5' }, rows: [{ cells: ['c', '* * * * *'] }] });
  });
});

describe('renderView: PartialObjectMetadata', () => {
  const pom = { kind: 'PartialObjectMetadata', version: 'v1', list: false } as const;
  const pomList = { kind: 'PartialObjectMetadata', version: 'v1', list: true } as const;

  it('reduces an object and a list to metadata', () => {
    expect(renderView(pom, configMaps, { object: cm }, q())).toEqual(partial);
    expect(renderView(pomList, configMaps, { list: { metadata: { resourceVersion: '20' }, items: [cm] } }, q())).toEqual({
      kind: 'PartialObjectMetadataList',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { resourceVersion: '20' },
      items: [partial],
    });
    expect(renderView(pomList, configMaps, { list: { metadata: { resourceVersion: '20' }, items: [] } }, q())).toMatchObject({ items: null });
  });

  it('answers 406 when the single/list form does not fit', () => {
    expect(statusOf(() => renderView(pom, configMaps, { list: { items: [] } }, q()))).toMatchObject({
      code: 406,
      reason: 'NotAcceptable',
      message: 'you requested PartialObjectMetadata, but the requested object is a list (*core.ConfigMapList)',
    });
    expect(statusOf(() => renderView(pomList, configMaps, { object: cm }, q()))).toMatchObject({
      code: 406,
      message: 'you requested PartialObjectMetadataList, but the requested object is not a list (*core.ConfigMap)',
    });
    expect(statusOf(() => renderView(pom, cronTabs, { list: { items: [] } }, q()))).toMatchObject({ code: 406, message: expect.stringContaining('(*unstructured.UnstructuredList)') });
    expect(statusOf(() => renderView(pomList, cronTabs, { object: cm }, q()))).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'content is not a list', code: 500 });
  });
});
