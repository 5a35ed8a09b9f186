// The status subresource as the real apiserver builds it: a copy of the resource's store whose
// UpdateStrategy is the kind's StatusStrategy (`statusStore := *store; statusStore.UpdateStrategy =
// StatusStrategy`). Here that copy is a derived ResourceType run through the same generic registry,
// so `/status` writes get every rule of an update (preconditions, resourceVersion, dry-run, no-op
// detection, completing a deletion) with the status strategy's prepare and validate.
import type { ResourceType, Strategy } from '../../apis/resource-type.ts';
import { derivedType } from './derived-type.ts';

/**
 * The type `/status` updates and patches go through, or undefined when the resource has no status
 * subresource. One derived type per resource type, so registries cached per type are shared.
 */
export function statusTypeOf(type: ResourceType): ResourceType | undefined {
  return type.statusStrategy ? subresourceTypeOf(type, 'status', type.statusStrategy) : undefined;
}

/**
 * The type an update-only subresource with a strategy of its own goes through (`namespaces/
 * finalize`: FinalizeREST's store copy with namespaceFinalizeStrategy), or undefined.
 */
export function updateSubresourceTypeOf(type: ResourceType, subresource: string): ResourceType | undefined {
  const strategy = type.updateSubresources?.[subresource];
  return strategy ? subresourceTypeOf(type, subresource, strategy) : undefined;
}

function subresourceTypeOf(type: ResourceType, subresource: string, strategy: Strategy): ResourceType {
  return derivedType(type, subresource, () => {
    const main = type.strategy;
    return {
      ...type,
      // StatusREST.Update passes forceAllowCreate=false, and status strategies never create.
      allowCreateOnUpdate: false,
      subresource,
      strategy: {
        ...strategy,
        // The checks the subresource's strategy inherits from the resource's strategy.
        validateTypeMeta: strategy.validateTypeMeta ?? main.validateTypeMeta,
        canCompleteDeletion: strategy.canCompleteDeletion ?? main.canCompleteDeletion,
        checkGracefulDelete: main.checkGracefulDelete,
        beforeDelete: main.beforeDelete,
      },
    };
  });
}
