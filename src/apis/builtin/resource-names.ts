// The resource-name predicates of pkg/apis/core/helper/helpers.go and component-helpers
// resource/helpers.go (v1.36) that pod defaulting, pod validation and quota share.
import { isQualifiedName } from '../../validation/names.ts';

/** helper.IsHugePageResourceName. */
export const isHugePageResourceName = (name: string): boolean => name.startsWith('hugepages-');

/** helper.IsNativeResource: no domain, or a kubernetes.io one. */
export const isNativeResource = (name: string): boolean => !name.includes('/') || name.includes('kubernetes.io/');

/**
 * helper.IsExtendedResourceName: a domain-qualified name outside kubernetes.io, not a quota
 * `requests.` name, that is still a qualified name once quota prefixes it with `requests.`.
 */
export const isExtendedResourceName = (name: string): boolean =>
  !isNativeResource(name) && !name.startsWith('requests.') && isQualifiedName(`requests.${name}`).length === 0;

/** resourcehelper.IsSupportedPodLevelResource: cpu, memory and any hugepages-<size>. */
export const isSupportedPodLevelResource = (name: string): boolean => name === 'cpu' || name === 'memory' || isHugePageResourceName(name);
