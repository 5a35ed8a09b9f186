// The metav1 Table pieces (apimachinery/pkg/apis/meta/v1/types.go), in their JSON key order.

/** TableColumnDefinition: all five keys are always serialised. */
export interface ColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

/** A cell is whatever the printer put there: Go strings, int64, float64, bool or nil. */
export type Cell = string | number | boolean | null;

/** TableRowCondition (reason and message omitempty). */
export interface RowCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

/** What a printer produces for one object; the object itself is attached later per includeObject. */
export interface PrintedRow {
  cells: Cell[];
  conditions?: RowCondition[];
}

export function column(name: string, type: string, description: string, extra: { format?: string; priority?: number } = {}): ColumnDefinition {
  return { name, type, format: extra.format ?? '', description, priority: extra.priority ?? 0 };
}
