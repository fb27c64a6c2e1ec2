/**
 * Edits between two words, case ignored: insert, delete or replace one
 * character, or swap two neighbours (`rnu` is one edit from `run`).
 */
function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let before: number[] = [];
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      const replace = (previous[j - 1] ?? 0) + (x[i - 1] === y[j - 1] ? 0 : 1);
      let best = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, replace);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1])
        best = Math.min(best, (before[j - 2] ?? 0) + 1);
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[y.length] ?? 0;
}

/**
 * The known name closest to a mistyped one, when it is close enough to be a
 * typo (at most a third of its letters differ), or the one known name it
 * begins (`upd` for `update`); none otherwise.
 */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const limit = Math.max(1, Math.floor(name.length / 3));
  let best: { name: string; edits: number } | undefined;
  for (const candidate of known) {
    const edits = distance(name, candidate);
    if (edits <= limit && (!best || edits < best.edits)) best = { name: candidate, edits };
  }
  if (best) return best.name;
  const begun = name.length >= 2 ? known.filter((k) => k.toLowerCase().startsWith(name.toLowerCase())) : [];
  return begun.length === 1 ? begun[0] : undefined;
}
