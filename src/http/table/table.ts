// metav1.Table for one object or a list: the resource's convertor (built-in printer, CRD columns
// or rest.DefaultTableConvertor) followed by handlers/response.go asTable, which fills each row's
// `object` according to includeObject.
import type { KubeObject, ListMeta } from '../../apis/object.ts';
import type { ResourceType } from '../../apis/resource-type.ts';
import { builtinPrinter } from './printers-on-demand.ts';
import { crdTable } from './crd-table.ts';
import { parseRfc3339 } from './human-duration.ts';
import { listMetaOf, partialObjectMetadata, type MetaVersion } from './partial-metadata.ts';
import { OBJECT_META_DOC } from './swagger-docs.ts';
import { column, type ColumnDefinition, type PrintedRow } from './table-types.ts';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export interface TableOptions {
  /** Set for a list: its resourceVersion/continue/remainingItemCount become the table's metadata. */
  list?: ListMeta;
  /** What each row's `object` holds; empty (undefined) means Metadata. */
  includeObject?: IncludeObject;
  /** meta.k8s.io version of the Table (and of the row PartialObjectMetadata). */
  version?: MetaVersion;
  /** The clock ages are computed against. */
  now: Date;
}

interface Convertor {
  columns: ColumnDefinition[];
  print(obj: KubeObject, now: Date): PrintedRow;
  /** rest.DefaultTableConvertor starts from a nil Rows slice: an empty list prints `"rows":null`. */
  nilRowsWhenEmpty?: boolean;
  order?(items: readonly KubeObject[]): readonly KubeObject[];
}

const DEFAULT_CONVERTOR: Convertor = {
  columns: [column('Name', 'string', OBJECT_META_DOC.name, { format: 'name' }), column('Created At', 'date', OBJECT_META_DOC.creationTimestamp)],
  print: (o) => ({ cells: [typeof o.metadata?.name === 'string' ? o.metadata.name : '', goRfc3339(o.metadata?.creationTimestamp)] }),
  nilRowsWhenEmpty: true,
};

function convertorFor(type: ResourceType): Convertor {
  if (type.unstructured) return crdTable(type.printerColumns);
  return builtinPrinter(type.group, type.plural) ?? DEFAULT_CONVERTOR;
}

/** The columns a Table of this resource has (the same for every row). */
export function tableColumns(type: ResourceType): ColumnDefinition[] {
  return convertorFor(type).columns;
}

/**
 * A Table of `items`: one row each. Without `options.list` it is the Table of a single object,
 * whose metadata carries only that object's resourceVersion.
 */
export function toTable(type: ResourceType, items: readonly KubeObject[], options: TableOptions): Record<string, unknown> {
  const version = options.version ?? 'v1';
  const convertor = convertorFor(type);
  const metadata = options.list ? listMetaOf(options.list) : listMetaOf({ resourceVersion: items[0]?.metadata?.resourceVersion });
  const rows =
    items.length === 0 && convertor.nilRowsWhenEmpty
      ? null
      : (convertor.order ? convertor.order(items) : items).map((item) => {
          const printed = convertor.print(item, options.now);
          const row: Record<string, unknown> = { cells: printed.cells };
          if (printed.conditions) row.conditions = printed.conditions;
          // RawExtension.MarshalJSON writes null for a missing object: the key never disappears.
          row.object = rowObject(item, options.includeObject, version);
          return row;
        });
  return { kind: 'Table', apiVersion: `meta.k8s.io/${version}`, metadata, columnDefinitions: convertor.columns, rows };
}

function rowObject(item: KubeObject, include: IncludeObject | undefined, version: MetaVersion): unknown {
  switch (include) {
    case 'None':
      return null;
    case 'Object':
      return item;
    default:
      return partialObjectMetadata(item, version);
  }
}

/** time.Time.UTC().Format(time.RFC3339): whole seconds, `Z`; the zero time when unset. */
function goRfc3339(value: unknown): string {
  const ms = parseRfc3339(value);
  if (ms === undefined) return '0001-01-01T00:00:00Z';
  const d = new Date(Math.floor(ms / 1000) * 1000);
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}Z`;
}
