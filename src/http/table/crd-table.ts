// The custom resource table convertor (apiextensions-apiserver tableconvertor.go), with the
// version's columns defaulted as helpers.go serveDefaultColumnsIfEmpty does.
import type { KubeObject } from '../../apis/object.ts';
import type { PrinterColumn } from '../../apis/resource-type.ts';
import { printJsonPathValue } from '../../go/print.ts';
import { ageSince } from './human-duration.ts';
import { JsonPath, JsonPathError } from '../../go/jsonpath.ts';
import { OBJECT_META_DOC } from './swagger-docs.ts';
import { column, type Cell, type ColumnDefinition, type PrintedRow } from './table-types.ts';

/** serveDefaultColumnsIfEmpty: a version without additionalPrinterColumns shows Age. */
const DEFAULT_COLUMNS: PrinterColumn[] = [{ name: 'Age', type: 'date', description: OBJECT_META_DOC.creationTimestamp, jsonPath: '.metadata.creationTimestamp' }];

export interface CrdTable {
  columns: ColumnDefinition[];
  print(obj: KubeObject, now: Date): PrintedRow;
}

/** tableconvertor.New: Name, then each printer column; its description or the JSONPath text. */
export function crdTable(printerColumns: readonly PrinterColumn[] | undefined): CrdTable {
  const defined = printerColumns && printerColumns.length > 0 ? printerColumns : DEFAULT_COLUMNS;
  // New stops at the first JSONPath its parser rejects (CRD validation only checks the leading
  // "."); the handler logs and serves the columns parsed so far.
  const cols: PrinterColumn[] = [];
  const paths: JsonPath[] = [];
  for (const c of defined) {
    try {
      paths.push(new JsonPath(`{${c.jsonPath}}`));
    } catch {
      break;
    }
    cols.push(c);
  }
  const columns = [
    column('Name', 'string', OBJECT_META_DOC.name, { format: 'name' }),
    ...cols.map((c) =>
      column(c.name, c.type, c.description || `Custom resource definition column (in JSONPath format): ${c.jsonPath}`, {
        format: c.format ?? '',
        priority: c.priority ?? 0,
      }),
    ),
  ];
  return {
    columns,
    print(o, now) {
      const cells: Cell[] = [typeof o.metadata?.name === 'string' ? o.metadata.name : ''];
      cols.forEach((c, i) => cells.push(cellFor(paths[i]!, c.type, o, now)));
      return { cells };
    },
  };
}

function cellFor(path: JsonPath, type: string, o: KubeObject, now: Date): Cell {
  let results: unknown[][];
  try {
    results = path.findResults(o);
  } catch (err) {
    if (err instanceof JsonPathError) return null;
    throw err;
  }
  const first = results[0];
  if (!first || first.length === 0) return null;
  // "as we only support simple JSON path, we can assume to have only one result"
  const value = first[0];
  if (type === 'string') return printJsonPathValue(value);
  return cellForJsonValue(type, value, now);
}

/** cellForJSONValue: a value of the wrong JSON type, or an unknown column type, gives null. */
export function cellForJsonValue(type: string, value: unknown, now: Date): Cell {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'string':
      return typeof value === 'string' ? value : null;
    case 'date':
      if (typeof value !== 'string') return null;
      // metav1.Time.UnmarshalQueryParameter: "" and "null" are the zero time, printed <unknown>.
      if (value === 'null') return '<unknown>';
      return ageSince(value, now) ?? '<invalid>';
  }
  return null;
}
