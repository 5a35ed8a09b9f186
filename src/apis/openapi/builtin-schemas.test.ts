import { describe, expect, it } from 'vitest';
import { OPENAPI_DEFINITIONS, OPENAPI_V2_DEFINITIONS } from '../../generated/openapi-definitions.generated.ts';
import { builtinResourceTypes } from '../builtin/index.ts';
import { builtinKindSchemas, generatedKindSchemas } from './builtin-schemas.ts';
import type { Json } from './names.ts';

const props = (name: string): Record<string, Json> => (OPENAPI_DEFINITIONS[name] as { properties: Record<string, Json> }).properties;
const CORE = 'io.k8s.api.core.v1';

describe('OpenAPI definitions generated from the Go types', () => {
  it('carries the strategic-merge and list markers of core.v1.Container (ports by containerPort, env by name)', () => {
    const container = props(`${CORE}.Container`);
    expect(container.ports).toMatchObject({
      type: 'array',
      items: { allOf: [{ $ref: `#/components/schemas/${CORE}.ContainerPort` }], default: {} },
      'x-kubernetes-patch-strategy': 'merge',
      'x-kubernetes-patch-merge-key': 'containerPort',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
    });
    expect(container.env).toMatchObject({
      'x-kubernetes-patch-strategy': 'merge',
      'x-kubernetes-patch-merge-key': 'name',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
    });
    // A list without patch tags gets none: args is replaced whole.
    expect(container.args).toEqual({ description: expect.any(String), type: 'array', items: { type: 'string', default: '' }, 'x-kubernetes-list-type': 'atomic' });
    expect(props(`${CORE}.PodSpec`).containers).toMatchObject({ 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge' });
  });

  it('marks required what has neither omitempty nor +optional, and gives non-pointer fields their zero defaults', () => {
    expect(OPENAPI_DEFINITIONS[`${CORE}.Container`]!.required).toEqual(['name']);
    expect(OPENAPI_DEFINITIONS[`${CORE}.ContainerPort`]!.required).toEqual(['containerPort']);
    expect(props(`${CORE}.ContainerPort`).containerPort).toMatchObject({ type: 'integer', format: 'int32', default: 0 });
    // `+default="TCP"` wins over the zero value.
    expect(props(`${CORE}.ContainerPort`).protocol).toMatchObject({ type: 'string', default: 'TCP' });
    // A pointer is optional and has no default.
    expect(props('io.k8s.api.apps.v1.DeploymentSpec').replicas).toEqual({ description: expect.any(String), type: 'integer', format: 'int32' });
  });

  it('describes the special types as openapi-gen does: Quantity, IntOrString, Time, []byte', () => {
    expect(OPENAPI_DEFINITIONS['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toMatchObject({ format: 'int-or-string', oneOf: [{ type: 'integer' }, { type: 'string' }] });
    expect(OPENAPI_V2_DEFINITIONS['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toMatchObject({ format: 'int-or-string', type: 'string' });
    expect(OPENAPI_DEFINITIONS['io.k8s.apimachinery.pkg.api.resource.Quantity']).toMatchObject({ oneOf: [{ type: 'string' }, { type: 'number' }] });
    expect(props('io.k8s.api.policy.v1.PodDisruptionBudgetSpec').minAvailable).toMatchObject({
      allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.util.intstr.IntOrString' }],
    });
    expect(props(`${CORE}.ResourceRequirements`).limits).toMatchObject({
      type: 'object',
      additionalProperties: { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity' },
    });
    expect(props(`${CORE}.Secret`).data).toMatchObject({ type: 'object', additionalProperties: { type: 'string', format: 'byte' } });
    expect(props('io.k8s.api.batch.v1.JobStatus').startTime).toMatchObject({ allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Time' }] });
  });

  it('lists the values of +enum string types with their descriptions, as kube-openapi enum.go does', () => {
    expect(props(`${CORE}.PortStatus`).protocol).toEqual({
      default: '',
      description:
        'Protocol is the protocol of the service port of which status is recorded here The supported values are: "TCP", "UDP", "SCTP"\n\nPossible enum values:\n - `"SCTP"` is the SCTP protocol.\n - `"TCP"` is the TCP protocol.\n - `"UDP"` is the UDP protocol.',
      enum: ['SCTP', 'TCP', 'UDP'],
      type: 'string',
    });
    // A string type without +enum gets no values.
    expect(props('io.k8s.api.networking.v1.HTTPIngressPath').pathType).not.toHaveProperty('enum');
  });

  it('keeps paragraphs and drops markers and TODOs in descriptions, as generateDescription does', () => {
    const policy = props('io.k8s.api.policy.v1.PodDisruptionBudgetSpec').unhealthyPodEvictionPolicy!.description as string;
    expect(policy).toContain('\n\nValid policies are IfHealthyBudget and AlwaysAllow.');
    for (const def of Object.values(OPENAPI_DEFINITIONS)) {
      for (const prop of Object.values((def.properties ?? {}) as Record<string, Json>)) expect(String(prop.description ?? '')).not.toMatch(/^\+|\n\+[a-z]/);
    }
  });

  it('names the GVK on kinds and covers every served built-in kind but the create-only review lists', () => {
    expect(OPENAPI_DEFINITIONS['io.k8s.api.networking.v1.Ingress']!['x-kubernetes-group-version-kind']).toEqual([{ group: 'networking.k8s.io', kind: 'Ingress', version: 'v1' }]);
    for (const type of builtinResourceTypes()) expect(builtinKindSchemas(type).complete, `${type.group}/${type.version}/${type.kind}`).toBe(true);
    expect(generatedKindSchemas('authentication.k8s.io', 'v1', 'TokenReviewList')).toBeUndefined();
  });

  it('brings every definition a kind refers to, and the swagger 2.0 forms on request', () => {
    const pdb = generatedKindSchemas('policy', 'v1', 'PodDisruptionBudget')!;
    expect(Object.keys(pdb)).toEqual(expect.arrayContaining(['io.k8s.api.policy.v1.PodDisruptionBudget', 'io.k8s.api.policy.v1.PodDisruptionBudgetSpec', 'io.k8s.apimachinery.pkg.util.intstr.IntOrString']));
    expect(pdb['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toHaveProperty('oneOf');
    expect(generatedKindSchemas('policy', 'v1', 'PodDisruptionBudget', true)!['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toMatchObject({ type: 'string' });
  });
});
