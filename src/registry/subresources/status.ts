// The status subresource as the real apiserver builds it: a copy of the resource's store whose
// UpdateStrategy is the kind's StatusStrategy (`statusStore := *store; statusStore.UpdateStrategy =
// StatusStrategy`). Here that copy is a derived ResourceType run through the same generic registry,
// so `/status` writes get every rule of an update (preconditions, resourceVersion, dry-run, no-op
// detection, completing a deletion) with the status strategy's prepare and validate.
import type { ResourceType } from '../../apis/resource-type.ts';

const derived = new WeakMap<ResourceType, ResourceType>();

/**
 * The type `/status` updates and patches go through, or undefined when the resource has no status
 * subresource. One derived type per resource type, so registries cached per type are shared.
 */
export function statusTypeOf(type: ResourceType): ResourceType | undefined {
  const status = type.statusStrategy;
  if (!status) return undefined;
  let statusType = derived.get(type);
  if (!statusType) {
    const main = type.strategy;
    statusType = {
      ...type,
      // StatusREST.Update passes forceAllowCreate=false, and status strategies never create.
      allowCreateOnUpdate: false,
      subresource: 'status',
      strategy: {
        ...status,
        // The checks the status strategy inherits from the resource's strategy.
        validateTypeMeta: status.validateTypeMeta ?? main.validateTypeMeta,
        canCompleteDeletion: status.canCompleteDeletion ?? main.canCompleteDeletion,
        checkGracefulDelete: main.checkGracefulDelete,
        beforeDelete: main.beforeDelete,
      },
    };
    derived.set(type, statusType);
  }
  return statusType;
}
