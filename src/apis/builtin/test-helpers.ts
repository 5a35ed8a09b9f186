// Test helpers: run a type's strategy the way the generic registry does (prepare, validate, then
// finish the write as committed when validation passed).
// A type with `loadValidation` needs it awaited first, as the registry does before a write.
import type { FieldError } from '../../errors/field-error.ts';
import { fieldErrorMessage } from '../../errors/field-error.ts';
import type { KubeObject } from '../object.ts';
import { type BuiltinContext, createBuiltinContext } from './context.ts';
import { builtinResourceTypes } from './index.ts';
import type { ResourceType } from '../resource-type.ts';

export function typesFor(ctx: BuiltinContext = createBuiltinContext({ now: () => new Date('2026-01-02T03:04:05.678Z') })) {
  const types = builtinResourceTypes(ctx);
  return (group: string, plural: string): ResourceType => {
    const t = types.find((x) => x.group === group && x.plural === plural);
    if (!t) throw new Error(`no type ${group}/${plural}`);
    return t;
  };
}

export function create(type: ResourceType, obj: KubeObject): { obj: KubeObject; errors: string[]; warnings: string[] } {
  const copy = structuredClone(obj);
  copy.metadata = { uid: 'uid-1', ...(copy.metadata ?? {}) };
  type.strategy.prepareForCreate?.(copy);
  type.strategy.beginCreate?.(copy);
  const errors = messages(type.strategy.validate?.(copy) ?? []);
  type.strategy.finishWrite?.(copy, errors.length === 0);
  return { obj: copy, errors, warnings: type.strategy.warnings?.(copy) ?? [] };
}

export function update(type: ResourceType, obj: KubeObject, old: KubeObject): { obj: KubeObject; errors: string[]; warnings: string[] } {
  const copy = structuredClone(obj);
  // The registry carries generation and uid over before the strategy runs.
  copy.metadata = { ...(copy.metadata ?? {}), uid: old.metadata?.uid ?? 'uid-1' };
  if (old.metadata?.generation !== undefined) copy.metadata.generation = old.metadata.generation;
  type.strategy.prepareForUpdate?.(copy, old);
  type.strategy.beginUpdate?.(copy, old);
  const errors = messages(type.strategy.validateUpdate?.(copy, old) ?? []);
  type.strategy.finishWrite?.(copy, errors.length === 0);
  return { obj: copy, errors, warnings: type.strategy.warnings?.(copy, old) ?? [] };
}

export const messages = (errs: FieldError[]): string[] => errs.map(fieldErrorMessage);
