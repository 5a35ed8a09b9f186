// The built-in printers (builtin-printers.ts and the modules it imports) load on first use, not
// when kubefake is imported: only an `Accept: ...;as=Table` request needs them. Table rendering is
// synchronous, so the handler awaits loadBuiltinPrinters() once it has negotiated a Table view,
// before anything renders one. This module imports nothing of the printers themselves.
import type { BuiltinPrinter } from './printer-parts.ts';

let lookup: ((group: string, plural: string) => BuiltinPrinter | undefined) | undefined;
let loading: Promise<void> | undefined;

export function loadBuiltinPrinters(): Promise<void> {
  return (loading ??= import('./builtin-printers.ts').then((m) => {
    lookup = m.builtinPrinter;
  }));
}

/** The printer of a built-in resource, if it has one; the printers must have been loaded. */
export function builtinPrinter(group: string, plural: string): BuiltinPrinter | undefined {
  if (!lookup) throw new Error('kubefake internal error: a Table was rendered before the built-in printers were loaded');
  return lookup(group, plural);
}
