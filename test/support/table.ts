// A list read as a meta.k8s.io/v1 Table over raw HTTP, the way kubectl get asks for one, for the
// printer tests: the column definitions as served, and each row's cells without the Age cell
// (a creation-time-relative string a test cannot pin).
export const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io';

export interface TableColumn {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

export interface PrintedTable {
  columns: TableColumn[];
  rows: unknown[][];
}

export async function fetchTable(url: string, path: string): Promise<PrintedTable> {
  const res = await fetch(url + path, { headers: { accept: TABLE_ACCEPT } });
  const t = (await res.json()) as { columnDefinitions: TableColumn[]; rows: { cells: unknown[] }[] };
  return { columns: t.columnDefinitions, rows: t.rows.map((r) => r.cells.filter((_, i) => t.columnDefinitions[i]!.name !== 'Age')) };
}

export const columnNames = (t: PrintedTable): string[] => t.columns.map((c) => c.name);

/** The same Table with only the column names, for tests that compare a whole table at once. */
export async function fetchTableNames(url: string, path: string): Promise<{ columns: string[]; rows: unknown[][] }> {
  const t = await fetchTable(url, path);
  return { columns: columnNames(t), rows: t.rows };
}
