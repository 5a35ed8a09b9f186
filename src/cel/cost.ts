// The static cost estimate of a checked rule: a port of cel-go's checker/cost.go over the engine's
// AST, with the sizes Kubernetes feeds it (its sizeEstimator walks the DeclType by path: maxLength,
// maxItems and maxProperties, or what fits in a 3 MiB request). Macros are costed as cel-go expands
// them (`all` is a comprehension with `@result && p` as step and `@not_strictly_false(@result)` as
// condition), so the numbers match the apiserver's for the standard library. Library functions of
// Kubernetes are costed by their traversal of the receiver, as library/cost.go does for the common
// ones, and at 1 otherwise.
import type { DeclType } from './decl-type.ts';
import { FORMAT_TYPE, MAX_FORMAT_SIZE, MAX_NAME_FORMAT_REGEX_SIZE } from './library/format.ts';
import { QUANTITY_TYPE } from './library/quantity.ts';
import { MATCHES_FUNCTION } from './library/regex.ts';
import { SEMVER_TYPE } from './library/semver.ts';
import { SETS_NAMESPACE } from './library/sets.ts';

const MAX = 18446744073709551615; // math.MaxUint64 (as a double)
const STRING_TRAVERSAL = 0.1;
const REGEX_LENGTH = 0.25;
const LIST_CREATE = 10;
const MAP_CREATE = 30;

export interface Estimate {
  min: number;
  max: number;
}

const fixed = (n: number): Estimate => ({ min: n, max: n });
const sat = (n: number): number => (n >= MAX ? MAX : n);
const add = (a: Estimate, b: Estimate): Estimate => ({ min: sat(a.min + b.min), max: sat(a.max + b.max) });
const mul = (a: Estimate, b: Estimate): Estimate => ({ min: sat(a.min * b.min), max: sat(a.max * b.max) });
const factor = (a: Estimate, f: number): Estimate => ({ min: sat(Math.ceil(a.min * f)), max: sat(Math.ceil(a.max * f)) });
const union = (a: Estimate, b: Estimate): Estimate => ({ min: Math.min(a.min, b.min), max: Math.max(a.max, b.max) });
const UNKNOWN: Estimate = { min: 0, max: MAX };
/** ext/lists.go estimateAllocatingListCall: the result's size times a factor, the call and the list. */
function allocatingListCall(costFactor: number, size: Estimate): { cost: Estimate; size: Estimate } {
  return { cost: add(factor(size, costFactor), fixed(1 + LIST_CREATE)), size };
}

/** ext/lists.go estimateListSortCost's factor: 2 comparisons per pair, strings and bytes traversed too. */
const sortFactor = (elemType: unknown): number => {
  const name = (elemType as { name?: string } | undefined)?.name;
  return name === 'string' || name === 'bytes' ? 2 + STRING_TRAVERSAL : 2;
};

/** ext/lists.go nodeAsIntValue: an int literal's value (negative: 0), else the default. */
const literalInt = (n: AstNode, dflt: number): number => (n.op === 'value' && typeof n.args === 'bigint' ? (n.args < 0n ? 0 : Number(n.args)) : dflt);

/** A Go int64 converted to uint64, as split's literal limit is (a negative limit wraps). */
const asUint64 = (v: bigint): number => (v < 0n ? MAX : Number(v));

/** The size of replace()'s result (library/cost.go): longest and shortest possible outcomes. */
function replaceResultSize(sz: Estimate, toReplace: Estimate, replaceWith: Estimate): Estimate {
  let countMax: number, retainedMax = 0;
  if (toReplace.min === 0) {
    countMax = sz.max < MAX ? sz.max + 1 : sz.max;
    retainedMax = sz.max;
  } else if (replaceWith.max <= toReplace.min) {
    countMax = 0;
    retainedMax = sz.max;
  } else {
    countMax = Math.ceil(sz.max / toReplace.min);
  }
  let countMin: number, retainedMin = 0;
  if (toReplace.max === 0) {
    countMin = sz.min < MAX ? sz.min + 1 : sz.min;
    retainedMin = sz.min;
  } else if (toReplace.max <= replaceWith.min) {
    countMin = 0;
    retainedMin = sz.min;
  } else {
    countMin = Math.ceil(sz.min / toReplace.max);
  }
  return add(mul({ min: countMin, max: countMax }, replaceWith), { min: retainedMin, max: retainedMax });
}

interface AstNode {
  op: string;
  args: unknown;
  checkedType?: { kind: string; name: string; valueType?: unknown };
  meta: { alternate?: unknown; macro?: unknown };
}

interface Local {
  path: string[] | undefined;
  size: Estimate | undefined;
}

const isNode = (v: unknown): v is AstNode => typeof v === 'object' && v !== null && 'op' in v && 'meta' in v;
const SCALAR_KINDS = new Set(['bool', 'double', 'int', 'uint', 'google.protobuf.Duration', 'google.protobuf.Timestamp']);
const MACROS = new Set(['all', 'exists', 'exists_one', 'existsOne', 'map', 'filter', 'transformList', 'transformMap', 'transformMapEntry']);
// ext.TwoVarComprehensions: the quantifiers with (index|key, value) variables, and the transforms.
const TWO_VAR_QUANTIFIERS = new Set(['all', 'exists', 'exists_one', 'existsOne']);

/** cel.EstimateCost of a checked expression; `root` is the DeclType of `self` (and `oldSelf`). */
export function estimateCost(ast: unknown, root: DeclType): Estimate {
  return new Coster(root).cost(ast as AstNode);
}

class Coster {
  private readonly paths = new Map<AstNode, string[]>();
  private readonly sizes = new Map<AstNode, Estimate>();
  private readonly locals = new Map<string, Local[]>();
  private readonly root: DeclType;

  constructor(root: DeclType) {
    this.root = root;
  }

  cost(n: AstNode): Estimate {
    const args = n.args as unknown[];
    switch (n.op) {
      case 'value':
        return fixed(0);
      case 'id': {
        const local = this.peek(n.args as string);
        this.paths.set(n, local ? (local.path ?? []) : [n.args as string]);
        return fixed(1);
      }
      case '.': {
        // `net.IP` resolved to an identifier (qualified-names.ts): costed and sized as that identifier.
        const resolved = n.meta.alternate as AstNode | undefined;
        if (resolved?.op === 'id') {
          const cost = this.cost(resolved);
          this.paths.set(n, this.path(resolved));
          return cost;
        }
        const operand = args[0] as AstNode;
        let sum = this.cost(operand);
        const kind = operand.checkedType?.kind;
        if (kind === 'map' || kind === 'message' || kind === 'param') sum = add(sum, fixed(1));
        this.paths.set(n, [...this.path(operand), args[1] as string]);
        return sum;
      }
      // cel-go parses `x.?f` and `x[?i]` to calls (`_?._`, `_[?_]`): 1 plus the operands, and no
      // field path (so what follows is sized as cel-go sizes it). An index into an optional is the
      // `optional_*_index` overload, also without a path.
      case '.?':
        return add(this.cost(args[0] as AstNode), fixed(1));
      case '[]':
      case '[?]': {
        const [coll, index] = args as AstNode[];
        const sum = add(add(this.cost(coll!), this.cost(index!)), fixed(1));
        const container = coll!.checkedType?.kind;
        if (n.op === '[]' && container !== 'optional') this.paths.set(n, [...this.path(coll!), container === 'map' ? '@values' : '@items']);
        return sum;
      }
      case 'list': {
        let sum = fixed(LIST_CREATE);
        for (const e of args as AstNode[]) sum = add(sum, this.cost(e));
        return sum;
      }
      case 'map': {
        let sum = fixed(MAP_CREATE);
        for (const [k, v] of args as AstNode[][]) sum = add(add(sum, this.cost(k!)), this.cost(v!));
        return sum;
      }
      case '?:': {
        const [c, l, r] = args as AstNode[];
        const cost = add(this.cost(c!), union(this.cost(l!), this.cost(r!)));
        this.sizes.set(n, union(this.sizeOf(l!), this.sizeOf(r!)));
        return cost;
      }
      case '&&':
      case '||': {
        const l = this.cost(args[0] as AstNode);
        const r = this.cost(args[1] as AstNode);
        return { min: l.min, max: sat(l.max + r.max) };
      }
      case '-_': {
        // cel-go's grammar reads `-1` and `-1.5` as literals (`literal: MINUS? NUM_INT`), costing 0.
        const operand = n.args as AstNode;
        if (operand.op === 'value' && (typeof operand.args === 'bigint' || typeof operand.args === 'number')) return fixed(0);
        return add(this.cost(operand), fixed(1));
      }
      case '!_':
        return add(this.cost(n.args as AstNode), fixed(1));
      case 'call':
      case 'rcall':
        return this.costCall(n);
      default:
        if (Array.isArray(args) && args.length === 2 && isNode(args[0]) && isNode(args[1])) return this.costOperator(n, args[0], args[1]);
        return fixed(1);
    }
  }

  private costOperator(n: AstNode, l: AstNode, r: AstNode): Estimate {
    const argCost = add(this.cost(l), this.cost(r));
    const lt = l.checkedType?.name;
    const textual = lt === 'string' || lt === 'bytes';
    switch (n.op) {
      case '+': {
        const size = add(this.sizeOf(l), this.sizeOf(r));
        this.sizes.set(n, size);
        return add(textual ? factor(size, STRING_TRAVERSAL) : fixed(1), argCost);
      }
      case '==':
        // library/cost.go: IPs and CIDRs compare in O(1), URLs by their text (sized by the right operand).
        if (lt === 'net.IP' || lt === 'net.CIDR') return add(fixed(1), argCost);
        if (lt === 'kubernetes.URL') return add(factor({ min: 1, max: this.sizes.get(r)?.max ?? 1 }, STRING_TRAVERSAL), argCost);
        // Quantities and semvers compare in O(1); named formats by their name (at most MaxFormatSize).
        if (lt === r.checkedType?.name && (lt === QUANTITY_TYPE || lt === SEMVER_TYPE)) return add(fixed(1), argCost);
        if (lt === r.checkedType?.name && lt === FORMAT_TYPE) return add(factor({ min: 1, max: MAX_FORMAT_SIZE }, STRING_TRAVERSAL), argCost);
        return add(this.comparisonCost(l, r), argCost);
      case '!=':
        return add(this.comparisonCost(l, r), argCost);
      case '<':
      case '<=':
      case '>':
      case '>=':
        return add(textual ? this.comparisonCost(l, r) : fixed(1), argCost);
      case 'in':
        return add(r.checkedType?.kind === 'list' ? this.sizeOf(r) : fixed(1), argCost);
      default:
        return add(fixed(1), argCost);
    }
  }

  private comparisonCost(l: AstNode, r: AstNode): Estimate {
    const smallestMax = Math.min(this.sizeOf(l).max, this.sizeOf(r).max);
    return factor({ min: smallestMax > 0 ? 1 : 0, max: smallestMax }, STRING_TRAVERSAL);
  }

  private costCall(n: AstNode): Estimate {
    const receiverCall = n.op === 'rcall';
    const args = n.args as unknown[];
    const name = args[0] as string;
    const target = receiverCall ? (args[1] as AstNode) : undefined;
    const params = (receiverCall ? args[2] : args[1]) as AstNode[];
    if (n.meta.alternate !== undefined || n.meta.macro !== undefined) {
      // `ip.isCanonical(s)` resolved to a global call (qualified-names.ts): cost that call.
      if (receiverCall && (n.meta.alternate as AstNode | undefined)?.op === 'call') {
        const cost = this.costCall(n.meta.alternate as AstNode);
        this.copySize(n, n.meta.alternate as AstNode);
        return cost;
      }
      if (receiverCall && MACROS.has(name)) return this.costMacro(n, name, target!, params);
      // base.go sets PresenceTestHasCost(false): a presence test costs its operand only.
      if (name === 'has' && !receiverCall) return this.cost((params[0]!.args as unknown[])[0] as AstNode);
      if (name === 'bind' && receiverCall) return this.costBind(n, params);
      if ((name === 'optMap' || name === 'optFlatMap') && receiverCall) return this.costOptMap(name, target!, params);
      if (name === 'sortBy' && receiverCall) return this.costSortBy(target!, params);
    }
    if (!receiverCall && name === 'dyn' && params.length === 1) {
      const cost = add(fixed(1), this.cost(params[0]!));
      this.copySize(n, params[0]!);
      return cost;
    }
    let sum = fixed(0);
    for (const p of params) sum = add(sum, this.cost(p));
    // `sets.contains(a, b)` is a namespaced global function in cel-go: `sets` is no operand.
    if (target?.op === 'id' && target.checkedType?.name === SETS_NAMESPACE) return add(sum, this.functionCost(n, `sets.${name}`, undefined, params));
    if (target) sum = add(sum, this.cost(target));
    // url()'s result is sized as its string (cost.go ResultSize), for URL equality.
    if (!receiverCall && name === 'url' && params.length === 1) this.sizes.set(n, this.sizeOf(params[0]!));
    return add(sum, this.functionCost(n, name, target, params));
  }

  /**
   * The cost of a call without its operands, and the size of its result where the estimator knows
   * it: Kubernetes' library/cost.go EstimateCallCost first, then cel-go's own overload estimates
   * (checker/cost.go functionCost; ext.Sets' estimateSetsCost), else 1. Results that are sized
   * here (lowerAscii, split, join, …) bound what is done with them next, as in cel-go.
   */
  private functionCost(n: AstNode, name: string, target: AstNode | undefined, params: AstNode[]): Estimate {
    const est = this.libraryCall(name, target, params);
    if (est.size) this.sizes.set(n, est.size);
    return est.cost;
  }

  private libraryCall(name: string, target: AstNode | undefined, params: AstNode[]): { cost: Estimate; size?: Estimate } {
    const targetSize = target ? this.sizeOf(target) : undefined;
    const arg = (i: number): AstNode | undefined => params[i];
    switch (name) {
      case 'isSorted':
      case 'sum':
      case 'min':
      case 'max':
      case 'indexOf':
      case 'lastIndexOf': {
        if (!target || !targetSize) break;
        if (target.checkedType?.kind === 'list') {
          // 1 per element compared, plus a traversal of each element that is a string or bytes.
          let elCost = fixed(1);
          const elemType = (target.checkedType.valueType as { name?: string } | undefined)?.name;
          if (elemType === 'string' || elemType === 'bytes') elCost = add(elCost, factor(this.elementSize(target), STRING_TRAVERSAL));
          return { cost: mul(targetSize, elCost) };
        }
        return { cost: factor(targetSize, STRING_TRAVERSAL) };
      }
      case 'url':
      case 'jsonpatch.escapeKey':
        if (!target && params.length === 1) {
          const size = this.sizeOf(arg(0)!);
          return { cost: factor(size, STRING_TRAVERSAL), size };
        }
        break;
      case 'lowerAscii':
      case 'upperAscii':
      case 'substring':
      case 'trim':
        if (targetSize) return { cost: factor(targetSize, STRING_TRAVERSAL), size: targetSize };
        break;
      case 'replace':
        if (targetSize && params.length >= 2) return { cost: factor(targetSize, 2 * STRING_TRAVERSAL), size: replaceResultSize(targetSize, this.sizeOf(arg(0)!), this.sizeOf(arg(1)!)) };
        break;
      case 'split':
        if (targetSize) {
          // Worst case: a "" separator returns every character; a literal limit bounds the parts.
          const limit = arg(1)?.op === 'value' && typeof arg(1)!.args === 'bigint' ? asUint64(arg(1)!.args as bigint) : targetSize.max;
          return { cost: factor(targetSize, 2 * STRING_TRAVERSAL), size: { min: 0, max: limit } };
        }
        break;
      case 'join':
        if (target && targetSize) {
          let size = target.checkedType?.kind === 'list' ? mul(targetSize, this.elementSize(target)) : fixed(0);
          if (params.length > 0) {
            const separators = { min: targetSize.min > 0 ? targetSize.min - 1 : 0, max: targetSize.max > 0 ? targetSize.max - 1 : 0 };
            size = add(size, mul(this.sizeOf(arg(0)!), separators));
          }
          return { cost: factor(size, STRING_TRAVERSAL), size };
        }
        break;
      case MATCHES_FUNCTION:
      case 'matches':
      case 'find':
      case 'findAll': {
        const subject = targetSize ?? (params.length === 2 ? this.sizeOf(arg(0)!) : undefined);
        const pattern = params[target ? 0 : 1];
        if (!subject || !pattern) break;
        const cost = mul(factor(add(subject, fixed(1)), STRING_TRAVERSAL), factor(this.sizeOf(pattern), REGEX_LENGTH));
        return name === 'find' || name === 'findAll' ? { cost, size: { min: 0, max: subject.max } } : { cost };
      }
      // ext.Lists v3 (cel-go ext/lists.go): allocating list calls, sized by their result.
      case 'slice':
        if (target && targetSize && params.length === 2) {
          const start = literalInt(arg(0)!, 0);
          const end = literalInt(arg(1)!, targetSize.max);
          return allocatingListCall(1, fixed(end >= start ? end - start : MAX));
        }
        break;
      case 'lists.range':
        if (!target && params.length === 1) return allocatingListCall(1, fixed(literalInt(arg(0)!, MAX)));
        break;
      case 'reverse':
        if (target?.checkedType?.kind === 'list' && targetSize && params.length === 0) return allocatingListCall(1, targetSize);
        break;
      case 'flatten':
        if (target && targetSize && params.length <= 1) return allocatingListCall(params.length === 1 ? literalInt(arg(0)!, MAX) : 1, targetSize);
        break;
      case 'distinct':
        if (target && targetSize && params.length === 0) return allocatingListCall(2, mul(targetSize, targetSize));
        break;
      case 'sort':
        if (target?.checkedType?.kind === 'list' && targetSize && params.length === 0) return allocatingListCall(sortFactor(target.checkedType.valueType), mul(targetSize, targetSize));
        break;
      // cel-go's own estimates (checker/cost.go functionCost).
      case 'startsWith':
      case 'endsWith':
        if (target && params.length === 1) return { cost: factor(this.sizeOf(arg(0)!), STRING_TRAVERSAL) };
        break;
      case 'contains':
        if (targetSize && params.length === 1) return { cost: mul(factor(targetSize, STRING_TRAVERSAL), factor(this.sizeOf(arg(0)!), STRING_TRAVERSAL)) };
        break;
      // string_format traverses the format string; strings.quote may double it.
      case 'format':
        if (targetSize) return { cost: factor(targetSize, STRING_TRAVERSAL) };
        break;
      case 'strings.quote':
        if (!target && params.length === 1) {
          const size = this.sizeOf(arg(0)!);
          return { cost: factor(size, STRING_TRAVERSAL), size: { min: sat(size.min + 2), max: sat(size.max * 2 + 2) } };
        }
        break;
      // ext.Sets: every element of one list against every element of the other (twice for equivalent), plus the call.
      case 'sets.contains':
      case 'sets.intersects':
      case 'sets.equivalent':
        if (!target && params.length === 2) {
          const pairs = mul(this.sizeOf(arg(0)!), this.sizeOf(arg(1)!));
          return { cost: add(factor(pairs, name === 'sets.equivalent' ? 2 : 1), fixed(1)) };
        }
        break;
      // The url, ip and cidr libraries (library/cost.go): parsing traverses the string; accessors cost 1.
      case 'cidr':
      case 'isIP':
      case 'isCIDR':
        if (!target && params.length === 1) return { cost: factor(this.sizeOf(arg(0)!), STRING_TRAVERSAL) };
        break;
      case 'ip':
        if (target) return { cost: fixed(1) };
        if (params.length === 1) return { cost: factor(this.sizeOf(arg(0)!), STRING_TRAVERSAL) };
        break;
      // The quantity and semver libraries: parsing traverses the string; everything else costs 1.
      case 'quantity':
      case 'isQuantity':
      case 'semver':
      case 'isSemver':
        if (!target && params.length >= 1) return { cost: factor(this.sizeOf(arg(0)!), STRING_TRAVERSAL) };
        break;
      // <NamedFormat>.validate(s): a match of the largest named-format regex over s.
      case 'validate':
        if (target && params.length >= 1) return { cost: factor(factor(this.sizeOf(arg(0)!), STRING_TRAVERSAL), MAX_NAME_FORMAT_REGEX_SIZE * REGEX_LENGTH) };
        break;
      case 'ip.isCanonical':
        if (params.length === 1) return { cost: factor(this.sizeOf(arg(0)!), 2 * STRING_TRAVERSAL) };
        break;
      case 'containsIP':
      case 'containsCIDR': {
        if (!target || params.length !== 1) break;
        // Two 4- or 16-byte addresses compared; containsCIDR masks and compares once more (+1); a string is parsed first.
        const bytes = { min: 4, max: 16 };
        let cost = factor(add(bytes, bytes), STRING_TRAVERSAL);
        if (name === 'containsCIDR') cost = add(add(cost, factor(bytes, STRING_TRAVERSAL)), fixed(1));
        if (arg(0)!.checkedType?.name === 'string') cost = add(cost, factor(this.sizeOf(arg(0)!), STRING_TRAVERSAL));
        return { cost };
      }
    }
    return { cost: fixed(1) };
  }

  /** The size of a list's elements (library/cost.go listElementNode: the list's path plus `@items`). */
  private elementSize(list: AstNode): Estimate {
    const path = this.path(list);
    return (path.length > 0 ? this.estimateByPath([...path, '@items']) : undefined) ?? UNKNOWN;
  }

  /** The comprehensions cel-go expands the macros to, costed as cel-go costs them. */
  private costMacro(n: AstNode, name: string, range: AstNode, params: AstNode[]): Estimate {
    if (name.startsWith('transform') || (TWO_VAR_QUANTIFIERS.has(name) && params.length === 3)) return this.costTwoVarMacro(n, name, range, params);
    const rangeCost = this.cost(range);
    const container = range.checkedType?.kind;
    const iterVar = params[0]!.args as string;
    const rangePath = this.path(range);
    // Elements of a literal list have known sizes; everything else is sized by its schema path.
    const elemSize = range.op === 'list' && (range.args as AstNode[]).length > 0 ? (range.args as AstNode[]).map((e) => this.sizeOf(e)).reduce(union) : undefined;
    this.push(iterVar, { path: [...rangePath, container === 'map' ? '@keys' : '@items'], size: elemSize });
    const p = params[1] ? this.cost(params[1]) : fixed(0);
    const t = params[2] ? this.cost(params[2]) : undefined;
    this.pop(iterVar);
    let init = fixed(0);
    let loop: Estimate;
    let result = fixed(1);
    switch (name) {
      case 'all':
        loop = add(fixed(2), add(fixed(1), p));
        break;
      case 'exists':
        loop = add(fixed(3), add(fixed(1), p));
        break;
      case 'exists_one':
        loop = add(p, fixed(2));
        result = fixed(2);
        break;
      case 'filter':
        init = fixed(LIST_CREATE);
        loop = add(p, fixed(13));
        break;
      default: // map, with or without a filter
        init = fixed(LIST_CREATE);
        loop = t ? add(p, union(add(t, fixed(12)), fixed(1))) : add(p, fixed(12));
        break;
    }
    const rangeCnt = this.sizeOf(range);
    if (name === 'map' || name === 'filter') this.sizes.set(n, rangeCnt);
    return add(add(add(rangeCost, init), result), mul(rangeCnt, loop));
  }

  private costBind(n: AstNode, params: AstNode[]): Estimate {
    const [variable, init, body] = params;
    const initCost = this.cost(init!);
    this.push(variable!.args as string, { path: this.path(init!), size: this.computeSize(init!) });
    const bodyCost = this.cost(body!);
    this.pop(variable!.args as string);
    this.copySize(n, body!);
    return add(add(fixed(LIST_CREATE), initCost), bodyCost);
  }

  /**
   * cel-go's expansion of `t.optMap(v, e)`: `t.hasValue() ? optional.of(cel.bind(v, t.value(), e))
   * : optional.none()` (optFlatMap without `optional.of`); `v` has no field path (t.value() is a call).
   */
  private costOptMap(name: string, target: AstNode, params: AstNode[]): Estimate {
    const t = this.cost(target);
    const valueType = target.checkedType?.kind === 'optional' ? (target.checkedType.valueType as { name?: string } | undefined)?.name : undefined;
    const variable = params[0]!.args as string;
    this.push(variable, { path: [], size: valueType !== undefined && SCALAR_KINDS.has(valueType) ? fixed(1) : undefined });
    const e = this.cost(params[1]!);
    this.pop(variable);
    const bind = add(add(fixed(LIST_CREATE), add(t, fixed(1))), e);
    const present = name === 'optMap' ? add(fixed(1), bind) : bind;
    return add(add(t, fixed(1)), union(present, fixed(1)));
  }

  /**
   * cel-go ext/comprehensions.go: the two-variable macros expand as the one-variable ones do (the
   * quantifiers cost the same), the transforms build a list (`@result + [t]`) or a map
   * (`cel.@mapInsert(@result, k, t)`, or `(@result, entry)` for transformMapEntry). The first
   * variable is the index (`@indices`) or key (`@keys`), the second the element (`@items`) or value
   * (`@values`), as the coster's pushIterKey/pushIterValue place them.
   */
  private costTwoVarMacro(n: AstNode, name: string, range: AstNode, params: AstNode[]): Estimate {
    const rangeCost = this.cost(range);
    const isMap = range.checkedType?.kind === 'map';
    const rangePath = this.path(range);
    const [keyVar, valueVar] = [params[0]!.args as string, params[1]!.args as string];
    this.push(keyVar, { path: [...rangePath, isMap ? '@keys' : '@indices'], size: isMap ? undefined : fixed(1) });
    this.push(valueVar, { path: [...rangePath, isMap ? '@values' : '@items'], size: undefined });
    const body = params.slice(2).map((p) => this.cost(p));
    this.pop(valueVar);
    this.pop(keyVar);
    const rangeCnt = this.sizeOf(range);
    let init = fixed(0);
    let loop: Estimate;
    let result = fixed(1);
    if (TWO_VAR_QUANTIFIERS.has(name)) {
      const p = body[0]!;
      if (name === 'all') loop = add(fixed(3), p);
      else if (name === 'exists') loop = add(fixed(4), p);
      else {
        loop = add(p, fixed(2));
        result = fixed(2);
      }
    } else {
      const [filter, transform] = body.length === 2 ? body : [undefined, body[0]!];
      init = fixed(name === 'transformList' ? LIST_CREATE : MAP_CREATE);
      const insert = name === 'transformList' ? 12 : name === 'transformMap' ? 3 : 2;
      const step = add(transform!, fixed(insert));
      loop = filter ? add(filter, union(step, fixed(1))) : step;
      this.sizes.set(n, rangeCnt);
    }
    return add(add(add(rangeCost, init), result), mul(rangeCnt, loop));
  }

  /**
   * ext/lists.go sortByMacro expands `l.sortBy(e, key)` to a comprehension over `[]` whose
   * accumulator `@__sortBy_input__` holds `l` and whose result is
   * `@__sortBy_input__.@sortByAssociatedKeys(@__sortBy_input__.map(e, key))`. The accumulator has no
   * field path of its own, so the size estimator sizes it from the root (its first path element is
   * cut, as for any variable), and so the map over it and the keys list it makes.
   */
  private costSortBy(target: AstNode, params: AstNode[]): Estimate {
    const ACCU = '@__sortBy_input__';
    const targetCost = this.cost(target);
    const rangeCnt = this.estimateByPath([ACCU]) ?? UNKNOWN;
    const iterVar = params[0]!.args as string;
    this.push(iterVar, { path: [ACCU, '@items'], size: undefined });
    const keyCost = this.cost(params[1]!);
    this.pop(iterVar);
    const mapCost = add(fixed(1 + LIST_CREATE + 1), mul(rangeCnt, add(keyCost, fixed(12))));
    const sortCost = allocatingListCall(sortFactor(params[1]!.checkedType), mul(rangeCnt, rangeCnt)).cost;
    return add(add(add(fixed(LIST_CREATE), targetCost), fixed(1)), add(mapCost, sortCost));
  }

  private copySize(dst: AstNode, src: AstNode): void {
    const s = this.computeSize(src);
    if (s) this.sizes.set(dst, s);
  }

  private path(n: AstNode): string[] {
    if (n.op === 'id') {
      const local = this.peek(n.args as string);
      if (local) return local.path ?? [];
    }
    return this.paths.get(n) ?? [];
  }

  private sizeOf(n: AstNode): Estimate {
    return this.computeSize(n) ?? UNKNOWN;
  }

  private computeSize(n: AstNode): Estimate | undefined {
    const known = this.sizes.get(n);
    if (known) return known;
    if (n.op === 'value') {
      const v = n.args;
      if (typeof v === 'string') return fixed(Array.from(v).length);
      if (v instanceof Uint8Array) return fixed(v.length);
      return fixed(1);
    }
    if (n.op === 'list') return fixed((n.args as unknown[]).length);
    if (n.op === 'map') return fixed((n.args as unknown[]).length);
    const bySchema = this.estimateByPath(this.path(n));
    if (bySchema) return bySchema;
    const t = n.checkedType;
    if (t && (SCALAR_KINDS.has(t.name) || (t.kind === 'optional' && SCALAR_KINDS.has(String((t.valueType as { name?: string } | undefined)?.name))))) return fixed(1);
    if (n.op === 'id') return this.peek(n.args as string)?.size;
    return undefined;
  }

  /** The sizeEstimator of apiextensions: follow the path from self through the DeclType. */
  private estimateByPath(path: string[]): Estimate | undefined {
    // Go cuts off the first element whatever it is (self, oldSelf, or a variable whose range had no path).
    if (path.length === 0) return undefined;
    let node: DeclType | undefined = this.root;
    for (const name of path.slice(1)) {
      if (node === undefined) return undefined;
      if (name === '@items' || name === '@values') node = node.kind === 'list' || node.kind === 'map' ? node.elem : undefined;
      else if (name === '@keys') return node.kind === 'map' ? fixed(0) : undefined;
      else node = node.kind === 'object' ? node.fields.get(name)?.type : undefined;
    }
    return node ? { min: 0, max: node.maxElements } : undefined;
  }

  private push(name: string, local: Local): void {
    const stack = this.locals.get(name) ?? [];
    stack.push(local);
    this.locals.set(name, stack);
  }

  private pop(name: string): void {
    this.locals.get(name)?.pop();
  }

  private peek(name: string): Local | undefined {
    const stack = this.locals.get(name);
    return stack?.[stack.length - 1];
  }
}
