// A CRD around one openAPIV3Schema, installed through the real client, for the schema-engine
// behaviour tests: `Widget` in `schema.example.com`, namespaced, served at v1.
import * as k8s from '@kubernetes/client-node';
import type { FakeCluster } from '../../src/index.ts';

export const GROUP = 'schema.example.com';
export const VERSION = 'v1';
export const PLURAL = 'widgets';
export const KIND = 'Widget';
export const CRD_NAME = `${PLURAL}.${GROUP}`;

export type Schema = Record<string, unknown>;

/** The CRD manifest: one version `v1` (or the versions given) with the schema. */
export function widgetCrd(schema: Schema, versions?: Array<{ name: string; served: boolean; storage: boolean; schema: Schema }>) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: CRD_NAME },
    spec: {
      group: GROUP,
      scope: 'Namespaced',
      names: { plural: PLURAL, singular: 'widget', kind: KIND },
      versions: (versions ?? [{ name: VERSION, served: true, storage: true, schema }]).map((v) => ({
        name: v.name,
        served: v.served,
        storage: v.storage,
        schema: { openAPIV3Schema: v.schema },
      })),
    },
  };
}

/** A root schema with `spec` holding the given properties (and extra keywords on `spec`). */
export function specSchema(properties: Record<string, Schema>, specExtra: Schema = {}): Schema {
  return { type: 'object', properties: { spec: { type: 'object', properties, ...specExtra } } };
}

/** Installs the CRD (waits until Established) and answers a CustomObjectsApi client. */
export async function installWidgets(cluster: FakeCluster, schema: Schema): Promise<k8s.CustomObjectsApi> {
  await cluster.apply(widgetCrd(schema));
  return cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
}

export const widget = (name: string, spec: unknown, extra: Record<string, unknown> = {}) => ({
  apiVersion: `${GROUP}/${VERSION}`,
  kind: KIND,
  metadata: { name },
  spec,
  ...extra,
});

/** Parameters of CustomObjectsApi calls on widgets in `default`. */
export const at = { group: GROUP, version: VERSION, namespace: 'default', plural: PLURAL };

/** The path of the widgets collection, for raw requests client-node cannot express. */
export const COLLECTION_PATH = `/apis/${GROUP}/${VERSION}/namespaces/default/${PLURAL}`;
