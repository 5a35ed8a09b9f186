// The `Widget` custom resource of group `example.com` (namespaced, `widgets`) the admission, patch and
// deletion tests install: only its versions differ from test to test.

/** The CRD manifest with these `spec.versions` entries (name, served, storage, schema, ...) as given (their type kept, for tests that edit a copy). */
export function exampleWidgetsCrd<V extends object>(versions: V[]) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget' }, versions },
  };
}
