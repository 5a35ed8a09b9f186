import { describe, expect, it } from 'vitest';
import type { PrinterColumn } from '../../apis/resource-type.ts';
import { crdTable } from './crd-table.ts';
import { OBJECT_META_DOC } from './swagger-docs.ts';

const now = new Date('2025-01-10T12:00:00Z');
const cron = {
  apiVersion: 'stable.example.com/v1',
  kind: 'CronTab',
  metadata: { name: 'my-new-cron-object', creationTimestamp: '2025-01-10T11:59:53Z' },
  spec: { cronSpec: '* * * * *', image: 'my-awesome-cron-image', replicas: 1 },
};

// fixtures/crd-docs/printer-columns.yaml
const fixtureColumns: PrinterColumn[] = [
  { name: 'Spec', type: 'string', description: 'The cron spec defining the interval a CronJob is run', jsonPath: '.spec.cronSpec' },
  { name: 'Replicas', type: 'integer', description: 'The number of jobs launched by the CronJob', jsonPath: '.spec.replicas' },
  { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
];

describe('crdTable (apiextensions tableconvertor)', () => {
  it('prints the fixture columns: Name, Spec, Replicas, Age', () => {
    const t = crdTable(fixtureColumns);
    expect(t.columns).toEqual([
      { name: 'Name', type: 'string', format: 'name', description: OBJECT_META_DOC.name, priority: 0 },
      { name: 'Spec', type: 'string', format: '', description: 'The cron spec defining the interval a CronJob is run', priority: 0 },
      { name: 'Replicas', type: 'integer', format: '', description: 'The number of jobs launched by the CronJob', priority: 0 },
      { name: 'Age', type: 'date', format: '', description: 'Custom resource definition column (in JSONPath format): .metadata.creationTimestamp', priority: 0 },
    ]);
    expect(t.print(cron, now)).toEqual({ cells: ['my-new-cron-object', '* * * * *', 1, '7s'] });
  });

  it('adds Age when the version has no printer columns', () => {
    const t = crdTable(undefined);
    expect(t.columns.map((c) => [c.name, c.type, c.description])).toEqual([
      ['Name', 'string', OBJECT_META_DOC.name],
      ['Age', 'date', OBJECT_META_DOC.creationTimestamp],
    ]);
    expect(t.print(cron, now).cells).toEqual(['my-new-cron-object', '7s']);
  });

  it('converts by type: mismatches and missing values are null, strings print anything', () => {
    const cols: PrinterColumn[] = [
      { name: 'I', type: 'integer', jsonPath: '.spec.n', format: 'int32', priority: 1 },
      { name: 'N', type: 'number', jsonPath: '.spec.n' },
      { name: 'B', type: 'boolean', jsonPath: '.spec.b' },
      { name: 'S', type: 'string', jsonPath: '.spec.n' },
      { name: 'Bad', type: 'integer', jsonPath: '.spec.text' },
      { name: 'Missing', type: 'string', jsonPath: '.spec.nope' },
      { name: 'Null', type: 'string', jsonPath: '.spec.nothing' },
      { name: 'Map', type: 'string', jsonPath: '.spec.map' },
      { name: 'When', type: 'date', jsonPath: '.spec.text' },
      { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
    ];
    const t = crdTable(cols);
    expect(t.columns[1]).toMatchObject({ name: 'I', format: 'int32', priority: 1 });
    const o = {
      metadata: { name: 'x' },
      spec: { n: 2.75, b: true, text: 'soon', nothing: null, map: { z: 1, a: 'b' } },
      status: { conditions: [{ type: 'Ready', status: 'True' }] },
    };
    expect(t.print(o, now).cells).toEqual(['x', 2, 2.75, true, '2.75', null, null, '<no value>', '{"a":"b","z":1}', '<invalid>', 'True']);
  });

  it('keeps the columns before the first JSONPath the parser rejects', () => {
    const t = crdTable([
      { name: 'A', type: 'string', jsonPath: '.spec.cronSpec' },
      { name: 'B', type: 'string', jsonPath: '.spec[' },
      { name: 'C', type: 'string', jsonPath: '.spec.image' },
    ]);
    expect(t.columns.map((c) => c.name)).toEqual(['Name', 'A']);
    expect(t.print(cron, now).cells).toEqual(['my-new-cron-object', '* * * * *']);
  });
});
