// Label key and value syntax for selectors: the same checks metadata validation uses.
export { isQualifiedName as isLabelKey, isValidLabelValue as isLabelValue } from '../validation/names.ts';
