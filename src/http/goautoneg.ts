// munnerz/goautoneg, which kube-apiserver's content negotiation (the Table/PartialObjectMetadata
// views) and kube-openapi's handler both parse Accept headers with.

export interface Clause {
  type: string;
  subtype: string;
  params: Record<string, string>;
  q: number;
}

/**
 * munnerz/goautoneg ParseAccept: case-sensitive, parameters untrimmed of quotes, q=0 clauses
 * kept, then sorted by q and then by specificity (its sort is stable for the few clauses of a header).
 */
export function parseGoautonegAccept(header: string): Clause[] {
  const clauses: Clause[] = [];
  for (const rawPart of header.split(',')) {
    const part = rawPart.replace(/^ +| +$/g, '');
    const [range = '', ...rawParams] = part.split(';');
    const sp = range.split('/');
    const type = sp[0]!.replace(/^ +| +$/g, '');
    let subtype: string;
    if (sp.length === 1 && type === '*') subtype = '*';
    else if (sp.length === 2) subtype = sp[1]!.replace(/^ +| +$/g, '');
    else continue;
    const params: Record<string, string> = {};
    let q = 1;
    for (const param of rawParams) {
      const eq = param.indexOf('=');
      if (eq < 0) continue;
      const token = param.slice(0, eq).replace(/^ +| +$/g, '');
      const value = param.slice(eq + 1);
      if (token === 'q') {
        // strconv.ParseFloat on the untrimmed text; a syntax error leaves 0.
        q = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value) ? Number(value) : 0;
      } else params[token] = value.replace(/^ +| +$/g, '');
    }
    clauses.push({ type, subtype, params, q });
  }
  // Insertion sort with goautoneg's Less (sort.Sort on short slices behaves so).
  const less = (a: Clause, b: Clause): boolean =>
    a.q > b.q || (a.type !== '*' && b.type === '*') || (a.subtype !== '*' && b.subtype === '*');
  for (let i = 1; i < clauses.length; i++) {
    for (let j = i; j > 0 && less(clauses[j]!, clauses[j - 1]!); j--) {
      [clauses[j - 1], clauses[j]] = [clauses[j]!, clauses[j - 1]!];
    }
  }
  return clauses;
}
