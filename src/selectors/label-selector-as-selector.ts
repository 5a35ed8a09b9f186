// metav1.LabelSelectorAsSelector (apimachinery/pkg/apis/meta/v1/helpers.go, v0.36): a
// metav1.LabelSelector as JSON holds it, turned into a selector requirement by requirement, with
// NewRequirement's checks and texts. A nil selector selects nothing; an empty one everything.
import { isPlainObject } from '../apis/object.ts';
import { goQuote } from '../errors/go-format.ts';
import { labelSelectorFrom, type LabelOperator, type LabelSelector } from './label-selector.ts';
import { newRequirement } from './label-requirement.ts';
import { SelectorParseError } from './selector-error.ts';

const OPERATORS: Record<string, LabelOperator> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

/** labels.Nothing(): matches no set of labels, and is not "empty". */
const NOTHING: LabelSelector = { requirements: [], empty: false, matches: () => false, toString: () => '' };

/** Throws SelectorParseError with Go's text where LabelSelectorAsSelector returns an error. */
export function labelSelectorAsSelector(selector: unknown): LabelSelector {
  if (!isPlainObject(selector)) return NOTHING;
  const matchLabels = isPlainObject(selector.matchLabels) ? selector.matchLabels : {};
  const expressions = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];
  const requirements = Object.entries(matchLabels).map(([k, v]) => newRequirement(k, '=', [typeof v === 'string' ? v : String(v)]));
  for (const e of expressions) {
    const expr = isPlainObject(e) ? e : {};
    const operator = OPERATORS[String(expr.operator)];
    if (!operator) throw new SelectorParseError(`${goQuote(String(expr.operator ?? ''))} is not a valid label selector operator`);
    const values = Array.isArray(expr.values) ? expr.values.map((v) => (typeof v === 'string' ? v : String(v))) : [];
    requirements.push(newRequirement(typeof expr.key === 'string' ? expr.key : '', operator, values));
  }
  return labelSelectorFrom(requirements);
}

/** The selector, or undefined where LabelSelectorAsSelector fails. */
export function tryLabelSelectorAsSelector(selector: unknown): LabelSelector | undefined {
  try {
    return labelSelectorAsSelector(selector);
  } catch (err) {
    if (err instanceof SelectorParseError) return undefined;
    throw err;
  }
}
