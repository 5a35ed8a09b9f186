// Validation modules a built-in kind loads on first use instead of with kubefake: `load` is the
// kind's ResourceType.loadValidation (the registry awaits it before validating a write), `get` is
// what its strategy calls, synchronously, once loaded. One import shared by concurrent first writes
// (concurrent import()s break Jest's ESM runtime, jestjs/jest#11434).
export interface ValidationOnDemand<T> {
  load(): Promise<void>;
  get(): T;
}

export function validationOnDemand<T>(what: string, importer: () => Promise<T>): ValidationOnDemand<T> {
  let value: T | undefined;
  let loading: Promise<T> | undefined;
  return {
    async load() {
      value ??= await (loading ??= importer());
    },
    get() {
      if (value === undefined) throw new Error(`kubefake internal error: ${what} reached validation before its validation was loaded`);
      return value;
    },
  };
}
