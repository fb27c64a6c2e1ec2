/**
 * Spec sections in reading order: "§4.9" before "§4.10", and "§5" after both.
 * A plain code-unit comparison breaks ties, so the order never depends on the
 * machine's locale.
 */
export function compareSections(a: string, b: string): number {
  const pa = numbersOf(a);
  const pb = numbersOf(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i += 1) {
    const x = pa[i];
    const y = pb[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (x !== y) return x - y;
  }
  return compareText(a, b);
}

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function numbersOf(section: string): number[] {
  return (section.match(/\d+/g) ?? []).map(Number);
}
