// printComponentStatus (pkg/printers/internalversion/printers.go, v1.36): the Healthy condition's
// status as Healthy/Unhealthy (Unknown without one), its message and error.
import { arr, obj, str } from './format.ts';
import { NAME, nameOf, row, type BuiltinPrinter } from './printer-parts.ts';
import { column } from './table-types.ts';

export const componentStatuses: BuiltinPrinter = {
  columns: [
    NAME,
    column('Status', 'string', 'Status of the component conditions'),
    column('Message', 'string', 'Message of the component conditions'),
    column('Error', 'string', 'Error of the component conditions'),
  ],
  print(o) {
    const healthy = arr(o.conditions).map(obj).find((c) => c.type === 'Healthy');
    if (!healthy) return row(nameOf(o), 'Unknown', '', '');
    return row(nameOf(o), healthy.status === 'True' ? 'Healthy' : 'Unhealthy', str(healthy.message), str(healthy.error));
  },
};
