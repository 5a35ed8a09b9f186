// storage.k8s.io/v1: discovery data from the generated catalogue; StorageClass's strategy from
// pkg/registry/storage/storageclass/strategy.go (no status, no generation), its defaults from
// pkg/apis/storage/v1/defaults.go and its validation in storage-validation.ts. The other kinds
// keep the generic behaviour.
import type { ResourceType } from '../resource-type.ts';
import { genericDefinition } from './generic.ts';
import { builtin, builtinFacts, composeStrategy, defaulting } from './shared.ts';
import { defaultStorageClass, validateStorageClass, validateStorageClassUpdate } from './storage-validation.ts';

export function storageV1ResourceTypes(): ResourceType[] {
  const def = genericDefinition(builtinFacts('storage.k8s.io', 'v1', 'storageclasses'));
  return [
    builtin('storage.k8s.io', 'v1', {
      ...def,
      strategy: composeStrategy(def.strategy ?? {}, defaulting(defaultStorageClass), { validate: validateStorageClass, validateUpdate: validateStorageClassUpdate }),
    }),
  ];
}
