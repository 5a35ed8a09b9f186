// Columns and cell helpers every built-in printer shares (printers.go's Name/Age columns,
// translateTimestampSince, layoutContainerCells' column pair).
import type { KubeObject } from '../../apis/object.ts';
import { ageSince } from './human-duration.ts';
import { obj, str } from './format.ts';
import { DOC, OBJECT_META_DOC } from './swagger-docs.ts';
import { column, type Cell, type ColumnDefinition, type PrintedRow } from './table-types.ts';

/** One kind's printer: its column definitions and how one object prints as a row. */
export interface BuiltinPrinter {
  columns: ColumnDefinition[];
  print(obj: KubeObject, now: Date): PrintedRow;
  /** The order a list's rows print in, where the list printer sorts (printFlowSchemaList). */
  order?(items: readonly KubeObject[]): readonly KubeObject[];
}

export const NAME = column('Name', 'string', OBJECT_META_DOC.name, { format: 'name' });
export const AGE = column('Age', 'string', OBJECT_META_DOC.creationTimestamp);
export const CONTAINERS = column('Containers', 'string', DOC.templateContainers, { priority: 1 });
export const IMAGES = column('Images', 'string', DOC.templateImages, { priority: 1 });

export const nameOf = (o: KubeObject): string => str(o.metadata?.name);
/** translateTimestampSince of a time field: `<unknown>` when unset. */
export const since = (timestamp: unknown, now: Date): string => ageSince(timestamp, now) ?? '<invalid>';
export const ageOf = (o: KubeObject, now: Date): string => since(o.metadata?.creationTimestamp, now);
export const row = (...cells: Cell[]): PrintedRow => ({ cells });
export const count = (v: unknown): number => Object.keys(obj(v)).length;
export const templateSpec = (o: KubeObject): unknown => obj(obj(obj(o.spec).template).spec);
