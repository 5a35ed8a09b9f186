// One label selector term: labels.Requirement with NewRequirement's validation, Matches and String.
import { aggregateMessages, fieldError, fieldErrorMessage, type FieldError } from '../errors/field-error.ts';
import { compareGoStrings, parseInt64 } from './go-strings.ts';
import { isLabelKey, isLabelValue } from './label-syntax.ts';
import { SelectorParseError } from './selector-error.ts';

/** selection.Operator values, spelled as Go spells them (`gt`/`lt` appear in parser messages). */
export type LabelOperator = '!' | '=' | '==' | 'in' | '!=' | 'notin' | 'exists' | 'gt' | 'lt';

/** The order of labels.binaryOperators; the parser lists them in "expected:" messages. */
export const BINARY_OPERATORS: readonly LabelOperator[] = ['in', 'notin', '=', '==', '!=', 'gt', 'lt'];
const VALID_OPERATORS: readonly LabelOperator[] = [...BINARY_OPERATORS, 'exists', '!'];

export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  /** For `in`/`notin` the parser passes a sorted, de-duplicated set. */
  readonly values: readonly string[];
}

// The apiserver parses with a nil field.Path, so the parser's own key check prints `<nil>` and
// NewRequirement's children print bare (`key`, `values[0][app]`).
export const PARSER_KEY_PATH = '<nil>';

/** validateLabelKey: one field error whose detail joins the problems with "; ". */
export function labelKeyError(key: string, path: string): FieldError | undefined {
  const errs = isLabelKey(key);
  return errs.length ? fieldError.invalid(path, key, errs.join('; ')) : undefined;
}

/** NewRequirement: builds the requirement or throws the aggregated field.ErrorList text. */
export function newRequirement(key: string, operator: LabelOperator, values: readonly string[]): LabelRequirement {
  const errs: FieldError[] = [];
  const keyErr = labelKeyError(key, 'key');
  if (keyErr) errs.push(keyErr);
  switch (operator) {
    case 'in':
    case 'notin':
      if (values.length === 0) errs.push(fieldError.invalid('values', values, "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case '=':
    case '==':
    case '!=':
      if (values.length !== 1) errs.push(fieldError.invalid('values', values, 'exact-match compatibility requires one single value'));
      break;
    case 'exists':
    case '!':
      if (values.length !== 0) errs.push(fieldError.invalid('values', values, 'values set must be empty for exists and does not exist'));
      break;
    case 'gt':
    case 'lt':
      if (values.length !== 1) errs.push(fieldError.invalid('values', values, "for 'Gt', 'Lt' operators, exactly one value is required"));
      values.forEach((v, i) => {
        if (parseInt64(v) === undefined) errs.push(fieldError.invalid(`values[${i}]`, v, "for 'Gt', 'Lt' operators, the value must be an integer"));
      });
      break;
    default:
      errs.push(fieldError.notSupported('operator', operator, VALID_OPERATORS));
  }
  values.forEach((v, i) => {
    const problems = isLabelValue(v);
    if (problems.length) errs.push(fieldError.invalid(`values[${i}][${key}]`, v, problems.join('; ')));
  });
  if (errs.length) throw new SelectorParseError(aggregateMessages(errs.map(fieldErrorMessage)));
  return { key, operator, values: [...values] };
}

const lookup = (labels: Record<string, string> | undefined, key: string): string | undefined =>
  labels && Object.hasOwn(labels, key) ? labels[key] : undefined;

/** Requirement.Matches: `!=` and `notin` also match a missing key; gt/lt need integer labels. */
export function requirementMatches(r: LabelRequirement, labels: Record<string, string> | undefined): boolean {
  const val = lookup(labels, r.key);
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return val !== undefined && r.values.includes(val);
    case 'notin':
    case '!=':
      return val === undefined || !r.values.includes(val);
    case 'exists':
      return val !== undefined;
    case '!':
      return val === undefined;
    case 'gt':
    case 'lt': {
      if (val === undefined || r.values.length !== 1) return false;
      const have = parseInt64(val);
      const want = parseInt64(r.values[0]!);
      if (have === undefined || want === undefined) return false;
      return r.operator === 'gt' ? have > want : have < want;
    }
    default:
      return false;
  }
}

const OPERATOR_TEXT: Record<LabelOperator, string> = {
  '=': '=',
  '==': '==',
  '!=': '!=',
  in: ' in ',
  notin: ' notin ',
  gt: '>',
  lt: '<',
  exists: '',
  '!': '',
};

/** Requirement.String: `!k`, `k`, `k=v`, `k in (a,b)` with values in sorted order. */
export function requirementString(r: LabelRequirement): string {
  const head = (r.operator === '!' ? '!' : '') + r.key + OPERATOR_TEXT[r.operator];
  if (r.operator === 'exists' || r.operator === '!') return head;
  const values = r.values.length === 1 ? r.values[0]! : [...r.values].sort(compareGoStrings).join(',');
  return r.operator === 'in' || r.operator === 'notin' ? `${head}(${values})` : head + values;
}
