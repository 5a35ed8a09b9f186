import { describe, expect, it } from 'vitest';
import { matchesRequest, requestAttributes } from './request-attributes.ts';

const attrs = (method: string, path: string) => requestAttributes(new Request(`https://c.kubefake.local${path}`, { method }));

describe('requestAttributes', () => {
  it('derives the verb as RequestInfoFactory does', () => {
    expect(attrs('GET', '/api/v1/namespaces/default/pods').verb).toBe('list');
    expect(attrs('GET', '/api/v1/namespaces/default/pods?watch=true').verb).toBe('watch');
    expect(attrs('GET', '/api/v1/namespaces/default/pods?watch=false').verb).toBe('list');
    expect(attrs('GET', '/api/v1/watch/namespaces/default/pods/p').verb).toBe('watch');
    expect(attrs('GET', '/api/v1/namespaces/default/pods/p').verb).toBe('get');
    expect(attrs('DELETE', '/api/v1/namespaces/default/pods').verb).toBe('deletecollection');
    expect(attrs('DELETE', '/api/v1/namespaces/default/pods/p').verb).toBe('delete');
    expect(attrs('PATCH', '/apis/apps/v1/namespaces/default/deployments/d/scale').verb).toBe('patch');
    expect(attrs('GET', '/openapi/v3')).toEqual({ verb: 'get', method: 'GET', path: '/openapi/v3', isResourceRequest: false, userAgent: undefined });
  });

  it('reads namespaces and their subresources', () => {
    // requestinfo.go: a namespace's own name is the request's namespace, subresources (finalize, status) included.
    expect(attrs('PUT', '/api/v1/namespaces/team/finalize')).toMatchObject({ resource: 'namespaces', name: 'team', subresource: 'finalize', namespace: 'team' });
    expect(attrs('GET', '/apis/apps/v1/namespaces/team/deployments/web/status')).toMatchObject({ group: 'apps', version: 'v1', namespace: 'team', resource: 'deployments', name: 'web', subresource: 'status' });
  });
});

describe('matchesRequest', () => {
  const status = attrs('PUT', '/apis/stable.example.com/v1/namespaces/default/crontabs/a/status');
  it('matches plural, plural.group and plural/subresource forms', () => {
    expect(matchesRequest(status, { resource: 'crontabs' })).toBe(true);
    expect(matchesRequest(status, { resource: 'crontabs.stable.example.com/status' })).toBe(true);
    expect(matchesRequest(status, { resource: 'crontabs/scale' })).toBe(false);
    expect(matchesRequest(status, { resource: 'crontabs.other.example.com' })).toBe(false);
    expect(matchesRequest(status, { verb: ['update', 'patch'], name: 'a', namespace: 'default', group: 'stable.example.com' })).toBe(true);
    expect(matchesRequest(status, { verb: 'patch' })).toBe(false);
  });
});
