// How Go prints the JSON values a printer column finds: jsonpath PrintResults (fmt.Fprint for
// scalars, encoding/json for maps and slices), with the number formats of src/go/format-float.ts.
import { goJson } from '../errors/go-format.ts';
import { goNumber } from './format-float.ts';

/** jsonpath PrintResults of one value: the text a `string` printer column shows. */
export function printJsonPathValue(v: unknown): string {
  if (v === null || v === undefined) return '<no value>'; // template.PrintableValue of an invalid value
  if (typeof v === 'object') return goJson(v);
  // An integer past int64 was decoded as a float64 (1e+20), as apimachinery's util/json does.
  if (typeof v === 'number') return goNumber(v);
  return String(v);
}
