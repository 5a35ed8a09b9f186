// The built-in API types kubefake serves: every resource of the generated catalogue
// (src/generated/builtin-catalogue.ts, what a default kube-apiserver serves), in its discovery
// order: core first, then the groups in the order the real /apis lists them, resources by name.
// Kinds with hand-written behaviour (one file per API group) take it from there; the rest get the
// generic behaviour (generic.ts). Pass one context per cluster so per-cluster state (Service IPs, NodePorts)
// is never shared.
import { BUILTIN_RESOURCES } from '../../generated/builtin-catalogue.ts';
import type { ResourceType } from '../resource-type.ts';
import { admissionregistrationV1ResourceTypes } from './admissionregistration-v1.ts';
import { apiextensionsV1ResourceTypes } from './apiextensions-v1.ts';
import { appsV1ResourceTypes } from './apps-v1.ts';
import { authenticationV1ResourceTypes } from './authentication-v1.ts';
import { authorizationV1ResourceTypes } from './authorization-v1.ts';
import { autoscalingResourceTypes } from './autoscaling.ts';
import { batchV1ResourceTypes } from './batch-v1.ts';
import { certificatesV1ResourceTypes } from './certificates-v1.ts';
import { type BuiltinContext, createBuiltinContext } from './context.ts';
import { coordinationV1ResourceTypes } from './coordination-v1.ts';
import { coreV1ResourceTypes } from './core-v1.ts';
import { discoveryV1ResourceTypes } from './discovery-v1.ts';
import { eventsV1ResourceTypes } from './events-v1.ts';
import { flowcontrolV1ResourceTypes } from './flowcontrol-v1.ts';
import { genericBuiltin } from './generic.ts';
import { networkingV1ResourceTypes } from './networking-v1.ts';
import { policyV1ResourceTypes } from './policy-v1.ts';
import { rbacV1ResourceTypes } from './rbac-v1.ts';
import { resourceV1ResourceTypes } from './resource-v1.ts';
import { storageV1ResourceTypes } from './storage-v1.ts';

export type { BuiltinContext, NodePortAllocator, ServiceIPAllocator } from './context.ts';
export { createBuiltinContext, createNodePortAllocator, createServiceIPAllocator, DEFAULT_NODE_PORT_RANGE, DEFAULT_SERVICE_CIDR } from './context.ts';

const keyOf = (t: { group: string; version: string }, plural: string) => `${t.group}/${t.version}/${plural}`;

// The types of every group but core v1 and certificates hold no per-cluster state: they are built
// once per process and shared by every cluster (types are never changed once built). Core v1's pods
// and services take the cluster's context (clock, Service IP and NodePort allocators) and the CSR
// approval stamps the cluster's clock, so those are built per call.
let shared: { handWritten: Map<string, ResourceType>; generic: Map<string, ResourceType> } | undefined;

function sharedTypes(): NonNullable<typeof shared> {
  if (shared) return shared;
  const handWritten = new Map<string, ResourceType>();
  for (const type of [
    ...appsV1ResourceTypes(),
    ...eventsV1ResourceTypes(),
    ...authenticationV1ResourceTypes(),
    ...authorizationV1ResourceTypes(),
    ...autoscalingResourceTypes(),
    ...batchV1ResourceTypes(),
    ...networkingV1ResourceTypes(),
    ...policyV1ResourceTypes(),
    ...rbacV1ResourceTypes(),
    ...admissionregistrationV1ResourceTypes(),
    ...apiextensionsV1ResourceTypes(),
    ...coordinationV1ResourceTypes(),
    ...discoveryV1ResourceTypes(),
    ...resourceV1ResourceTypes(),
    ...flowcontrolV1ResourceTypes(),
    ...storageV1ResourceTypes(),
  ]) {
    handWritten.set(keyOf(type, type.plural), type);
  }
  return (shared = { handWritten, generic: new Map() });
}

export function builtinResourceTypes(ctx: BuiltinContext = createBuiltinContext()): ResourceType[] {
  const { handWritten, generic } = sharedTypes();
  const perCluster = new Map<string, ResourceType>();
  for (const type of [...coreV1ResourceTypes(ctx), ...certificatesV1ResourceTypes(ctx)]) perCluster.set(keyOf(type, type.plural), type);
  return BUILTIN_RESOURCES.map((facts) => {
    const key = keyOf(facts, facts.resource);
    const type = perCluster.get(key) ?? handWritten.get(key) ?? generic.get(key);
    if (type) return type;
    const built = genericBuiltin(facts);
    generic.set(key, built);
    return built;
  });
}
