import { describe, expect, it } from 'vitest';
import { StatusError } from '../errors/status-error.ts';
import { fieldErrorMessage } from '../errors/field-error.ts';
import type { KubeObject } from './object.ts';
import { builtinScale, customResourceScale, scaleObject, validateCustomResourceScale } from './scale.ts';

const paths = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' };
const cr = (extra: Record<string, unknown>): KubeObject => ({ metadata: { name: 'a', namespace: 'ns', uid: 'u', resourceVersion: '7', creationTimestamp: 't' }, ...extra });

function thrown(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error('did not throw');
}

describe('scaleObject', () => {
  it('omits zero spec replicas and an empty selector, as Go serialises them', () => {
    expect(scaleObject(cr({}), { specReplicas: 0, statusReplicas: 0, selector: '' })).toEqual({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: { name: 'a', namespace: 'ns', uid: 'u', resourceVersion: '7', creationTimestamp: 't' },
      spec: {},
      status: { replicas: 0 },
    });
  });
});

describe('custom resource scale', () => {
  const scale = customResourceScale(paths, { groupVersion: 'example.com/v1', mappings: new Map() });

  it('reports unstructured accessor errors in Go words', () => {
    expect(thrown(() => scale.read(cr({ spec: { replicas: 'x' } }))).message).toBe('.spec.replicas accessor error: x is of the type string, expected int64');
    expect(thrown(() => scale.read(cr({ spec: { replicas: 1.5 } }))).message).toBe('.spec.replicas accessor error: 1.5 is of the type float64, expected int64');
    expect(thrown(() => scale.read(cr({ spec: 'flat' }))).message).toBe('.spec.replicas accessor error: flat is of the type string, expected map[string]interface{}');
    expect(thrown(() => scale.read(cr({ spec: { replicas: 1 }, status: { selector: 3 } }))).message).toBe('.status.selector accessor error: 3 is of the type int64, expected string');
  });

  it('marks a missing spec value so an update has to set it, and creates the path when it does', () => {
    const current = scale.current(cr({}));
    expect(current.spec).toEqual({ replicas: -2147483648 });
    expect(thrown(() => scale.write(cr({}), current)).message).toBe('the spec replicas field ".spec.replicas" cannot be empty');
    expect(scale.write(cr({}), { spec: { replicas: 2 } }).spec).toEqual({ replicas: 2 });
  });

  it('validates the scale paths with the CRD path as field', () => {
    const messages = validateCustomResourceScale(cr({ spec: { replicas: -1 }, status: { replicas: 3000000000, selector: 1 } }), paths, { spec: true, status: true }).map(fieldErrorMessage);
    expect(messages).toEqual([
      '.spec.replicas: Invalid value: -1: should be a non-negative integer',
      '.status.replicas: Invalid value: 3000000000: should be less than or equal to 2147483647',
      '.status.selector: Invalid value: "": .status.selector accessor error: 1 is of the type int64, expected string',
    ]);
  });
});

describe('built-in scale', () => {
  it('prints the selector as LabelSelectorAsSelector does', () => {
    const scale = builtinScale('apps', 'deployments', ['v1']);
    const deployment = cr({ spec: { replicas: 2, selector: { matchLabels: { b: '1', a: '2' }, matchExpressions: [{ key: 'c', operator: 'In', values: ['y', 'x'] }] } } });
    expect(scale.read(deployment).status).toEqual({ replicas: 0, selector: 'a=2,b=1,c in (x,y)' });
  });
});
