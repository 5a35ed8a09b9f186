import { describe, expect, it } from 'vitest';
import { negotiateView } from './negotiate.ts';

describe('negotiateView', () => {
  it('serves the plain object for no Accept, JSON and YAML', () => {
    expect(negotiateView(null)).toEqual({ format: 'json', view: undefined });
    expect(negotiateView('application/json')).toEqual({ format: 'json', view: undefined });
    expect(negotiateView('application/yaml')).toEqual({ format: 'yaml', view: undefined });
    expect(negotiateView('*/*')).toEqual({ format: 'json', view: undefined });
  });

  it('picks a Table in v1 or v1beta1, also from kubectl’s list with fallbacks', () => {
    expect(negotiateView('application/json;as=Table;v=v1;g=meta.k8s.io')).toEqual({ format: 'json', view: { kind: 'Table', version: 'v1' } });
    expect(negotiateView('application/json;as=Table;v=v1beta1;g=meta.k8s.io')).toEqual({ format: 'json', view: { kind: 'Table', version: 'v1beta1' } });
    expect(negotiateView('application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json')).toEqual({
      format: 'json',
      view: { kind: 'Table', version: 'v1' },
    });
    expect(negotiateView('application/yaml;as=Table;v=v1;g=meta.k8s.io')).toEqual({ format: 'yaml', view: { kind: 'Table', version: 'v1' } });
  });

  it('skips clauses it cannot serve and falls back, or gives up', () => {
    expect(negotiateView('application/json;as=Table;v=v1alpha1;g=meta.k8s.io')).toBeUndefined();
    expect(negotiateView('application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io')).toBeUndefined();
    expect(negotiateView('application/json;as=Table;v=v1')).toBeUndefined(); // no g: not meta.k8s.io
    expect(negotiateView('application/json;as=Widget;v=v1;g=meta.k8s.io,application/json')).toEqual({ format: 'json', view: undefined });
    expect(negotiateView('application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io')).toEqual({
      format: 'json',
      view: { kind: 'Table', version: 'v1beta1' },
    });
  });

  it('orders clauses by q', () => {
    expect(negotiateView('application/json;q=0.5,application/json;as=Table;v=v1;g=meta.k8s.io')).toEqual({ format: 'json', view: { kind: 'Table', version: 'v1' } });
  });

  it('picks PartialObjectMetadata and PartialObjectMetadataList', () => {
    expect(negotiateView('application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1')).toEqual({
      format: 'json',
      view: { kind: 'PartialObjectMetadata', version: 'v1', list: false },
    });
    expect(
      negotiateView('application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json'),
    ).toEqual({ format: 'json', view: { kind: 'PartialObjectMetadata', version: 'v1', list: true } });
  });
});
