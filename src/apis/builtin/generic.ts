// The behaviour a built-in kind gets when kubefake has nothing hand-written for it: the generic
// registry's defaults (genericregistry.Store with a strategy that only resets status), its
// discovery data from the generated catalogue. Kinds with more go in their group's file.
import type { BuiltinResourceFacts } from '../../generated/builtin-catalogue.ts';
import type { ResourceType } from '../resource-type.ts';
import { keepFromStored } from './status-strategies.ts';
import { builtin, composeStrategy, generation, type ResourceDefinition, statusSubresource } from './shared.ts';

/**
 * The common strategy shape: PUT needs no resourceVersion and never creates, DELETE answers a
 * Status; where discovery lists a `status` subresource, create starts from an empty status and
 * main writes keep the stored one (`newObj.Status = oldObj.Status`), while `/status` writes keep
 * the stored spec (`newObj.Spec = oldObj.Spec`), as the StatusStrategies do.
 */
export function genericDefinition(facts: BuiltinResourceFacts): ResourceDefinition {
  const hasStatus = facts.subresources.some((s) => s.name === 'status');
  const def: ResourceDefinition = {
    kind: facts.kind,
    plural: facts.resource,
    namespaced: facts.namespaced,
    allowUnconditionalUpdate: true,
    allowCreateOnUpdate: false,
    returnDeletedObject: false,
  };
  if (hasStatus) {
    def.subresources = ['status'];
    def.strategy = statusSubresource();
    def.statusStrategy = keepFromStored('spec');
  }
  return def;
}

export function genericBuiltin(facts: BuiltinResourceFacts): ResourceType {
  return builtin(facts.group, facts.version, genericDefinition(facts));
}

/**
 * A kind whose strategy also stamps metadata.generation (1 on create, +1 when `compared` changes),
 * as most strategies of newer kinds do; `more` adds or replaces definition fields.
 */
export function generationBuiltin(facts: BuiltinResourceFacts, compared?: Parameters<typeof generation>[0], more: Partial<ResourceDefinition> = {}): ResourceType {
  const def = genericDefinition(facts);
  const strategy = composeStrategy(def.strategy ?? {}, generation(compared), more.strategy ?? {});
  return builtin(facts.group, facts.version, { ...def, ...more, strategy });
}
