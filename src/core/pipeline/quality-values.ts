/**
 * The weights a content-negotiation header gives its entries (`Accept`, `Accept-Encoding`: RFC
 * 9110 §12.4.2), by lower-cased name, each clamped to [0, 1]; 1 when an entry names no `q`. An
 * entry whose `q` is no number is left out; a name given twice keeps its last weight.
 */
export function qualityValues(header: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [rawName = '', ...params] = part.split(';');
    const name = rawName.trim().toLowerCase();
    if (!name) continue;
    let weight = 1;
    for (const param of params) {
      const [key, value] = param.split('=').map((s) => s.trim());
      if (key?.toLowerCase() === 'q') weight = Number(value);
    }
    if (Number.isFinite(weight)) weights.set(name, Math.min(Math.max(weight, 0), 1));
  }
  return weights;
}
