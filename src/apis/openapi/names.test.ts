import { describe, expect, it } from 'vitest';
import { articleFor, definitionName, groupVersionNaming, gvKey, toValidOperationId } from './names.ts';

describe('OpenAPI names', () => {
  it('names custom resource definitions with the group reversed (util.ToRESTFriendlyName)', () => {
    expect(definitionName({ group: 'stable.example.com', version: 'v1', unstructured: true }, 'CronTab')).toBe('com.example.stable.v1.CronTab');
    expect(definitionName({ group: 'local', version: 'v1alpha1', unstructured: true }, 'Thing')).toBe('local.v1alpha1.Thing');
  });

  it('names built-in definitions after their Go package', () => {
    expect(definitionName({ group: '', version: 'v1', unstructured: false }, 'ConfigMap')).toBe('io.k8s.api.core.v1.ConfigMap');
    expect(definitionName({ group: 'apps', version: 'v1', unstructured: false }, 'Deployment')).toBe('io.k8s.api.apps.v1.Deployment');
    expect(definitionName({ group: 'rbac.authorization.k8s.io', version: 'v1', unstructured: false }, 'Role')).toBe('io.k8s.api.rbac.v1.Role');
    expect(definitionName({ group: 'coordination.k8s.io', version: 'v1', unstructured: false }, 'Lease')).toBe('io.k8s.api.coordination.v1.Lease');
    expect(definitionName({ group: 'apiextensions.k8s.io', version: 'v1', unstructured: false }, 'CustomResourceDefinition')).toBe(
      'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition',
    );
  });

  it('builds operation-id infixes and tags as GetOperationIDAndTags does', () => {
    expect(groupVersionNaming('', 'v1')).toEqual({ infix: 'CoreV1', tag: 'core_v1' });
    expect(groupVersionNaming('rbac.authorization.k8s.io', 'v1')).toEqual({ infix: 'RbacAuthorizationV1', tag: 'rbacAuthorization_v1' });
    expect(groupVersionNaming('stable.example.com', 'v1beta1')).toEqual({ infix: 'StableExampleComV1beta1', tag: 'stableExampleCom_v1beta1' });
    expect(toValidOperationId('1abc-def', true)).toBe('AbcDef');
  });

  it('keys group versions without a leading slash and picks articles like GetArticleForNoun', () => {
    expect(gvKey('', 'v1')).toBe('api/v1');
    expect(gvKey('apps', 'v1')).toBe('apis/apps/v1');
    expect(articleFor('Event')).toBe(' an ');
    expect(articleFor('Endpoints')).toBe(' ');
    expect(articleFor('Ingress')).toBe(' an ');
    expect(articleFor('CronTab')).toBe(' a ');
  });
});
