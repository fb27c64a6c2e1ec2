/** Edits (insert, delete, replace one character) between two words, case ignored. */
function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      const replace = (previous[j - 1] ?? 0) + (x[i - 1] === y[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, replace));
    }
    previous = current;
  }
  return previous[y.length] ?? 0;
}

/**
 * The known name closest to a mistyped one, when it is close enough to be a
 * typo (at most a third of its letters differ); none otherwise.
 */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const limit = Math.max(1, Math.floor(name.length / 3));
  let best: { name: string; edits: number } | undefined;
  for (const candidate of known) {
    const edits = distance(name, candidate);
    if (edits <= limit && (!best || edits < best.edits)) best = { name: candidate, edits };
  }
  return best?.name;
}
