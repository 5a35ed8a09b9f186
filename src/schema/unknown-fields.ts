// The texts fieldValidation=Strict/Warn reports for fields the server dropped (§9.2).

/** `unknown field "<path>"` for each path, in the order given. */
export function unknownFieldMessages(paths: readonly string[]): string[] {
  return paths.map((p) => `unknown field "${p}"`);
}
