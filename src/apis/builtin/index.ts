// The built-in API types kubefake serves, in discovery order: core first, then the groups in the
// order the real /apis lists them (api/discovery/apis.json), resources sorted by name within a
// group as discovery sorts them. Each call builds fresh objects; pass one context per cluster so
// per-cluster state (Service IPs, NodePorts) is never shared.
import type { ResourceType } from '../resource-type.ts';
import { apiextensionsV1ResourceTypes } from './apiextensions-v1.ts';
import { appsV1ResourceTypes } from './apps-v1.ts';
import { batchV1ResourceTypes } from './batch-v1.ts';
import { type BuiltinContext, createBuiltinContext } from './context.ts';
import { coordinationV1ResourceTypes } from './coordination-v1.ts';
import { coreV1ResourceTypes } from './core-v1.ts';
import { eventsV1ResourceTypes } from './events-v1.ts';
import { rbacV1ResourceTypes } from './rbac-v1.ts';

export type { BuiltinContext, NodePortAllocator, ServiceIPAllocator } from './context.ts';
export { createBuiltinContext, createNodePortAllocator, createServiceIPAllocator, DEFAULT_NODE_PORT_RANGE, DEFAULT_SERVICE_CIDR } from './context.ts';

export function builtinResourceTypes(ctx: BuiltinContext = createBuiltinContext()): ResourceType[] {
  return [
    coreV1ResourceTypes(ctx),
    appsV1ResourceTypes(),
    eventsV1ResourceTypes(),
    batchV1ResourceTypes(),
    rbacV1ResourceTypes(),
    apiextensionsV1ResourceTypes(),
    coordinationV1ResourceTypes(),
  ].flatMap((group) => group.sort((a, b) => (a.plural < b.plural ? -1 : a.plural > b.plural ? 1 : 0)));
}
