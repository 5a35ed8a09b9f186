// metav1.FormatLabelSelector: how a metav1.LabelSelector prints as selector text (kubectl's
// SELECTOR column, the status.selector of a scale subresource). Here rather than with the
// printers in http/table/ because the scale subresource (apis/) prints selectors too.
import { isPlainObject } from '../apis/object.ts';
import { compareGoStrings } from './go-strings.ts';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const obj = (v: unknown): Record<string, unknown> => (isPlainObject(v) ? v : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/**
 * metav1.LabelSelectorAsSelector(sel).String(): nil and empty selectors print "", requirements
 * are sorted by key, set values sorted; an unknown operator is an error, printed `<invalid>`.
 */
export function formatLabelSelector(selector: unknown): string {
  if (!isPlainObject(selector)) return '';
  const reqs: { key: string; text: string }[] = [];
  for (const [k, v] of Object.entries(obj(selector.matchLabels))) reqs.push({ key: k, text: `${k}=${str(v)}` });
  for (const e of arr(selector.matchExpressions)) {
    const expr = obj(e);
    const key = str(expr.key);
    const values = arr(expr.values).map(str).sort(compareGoStrings).join(',');
    switch (expr.operator) {
      case 'In':
        reqs.push({ key, text: `${key} in (${values})` });
        break;
      case 'NotIn':
        reqs.push({ key, text: `${key} notin (${values})` });
        break;
      case 'Exists':
        reqs.push({ key, text: key });
        break;
      case 'DoesNotExist':
        reqs.push({ key, text: `!${key}` });
        break;
      default:
        return '<invalid>';
    }
  }
  // Selector.Add sorts by key; for the few requirements a selector has Go's sort is stable.
  return reqs
    .sort((a, b) => compareGoStrings(a.key, b.key))
    .map((r) => r.text)
    .join(',');
}
