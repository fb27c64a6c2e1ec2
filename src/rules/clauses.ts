/**
 * The behaviours of the spec, listed apart from the rules that check them (as
 * the Kubernetes conformance manifest does), so an unchecked clause shows up.
 * Clauses are read from docs/spec.md: every numbered rule of §4.x and every
 * section of §2, §4, §5, §7, §8 and §9.
 */
import type { Rule } from './types.ts';

/** Clauses no rule can check through the specified operations, with the reason. */
export const UNCHECKABLE: Readonly<Record<string, string>> = {
  '§4.2 rule 2':
    'Work and vacation balances belong to the Balances operations, which the spec does not show: the recalculation cannot be observed.',
};

const SECTIONS_WITHOUT_BEHAVIOUR = new Set(['§1', '§3', '§6']);

/** Every clause of the spec that a rule must cite: "§4.9 rule 4", "§2.3", "§5"… */
export function specClauses(specText: string): string[] {
  const clauses: string[] = [];
  let section: string | undefined;
  for (const line of specText.split('\n')) {
    const heading = /^#{2,3} (\d+(?:\.\d+)?)[ .]/.exec(line);
    if (heading) {
      section = `§${heading[1]}`;
      const hasSubsections = /^## /.test(line) && ['§2', '§4'].includes(section);
      if (!hasSubsections && !SECTIONS_WITHOUT_BEHAVIOUR.has(section)) clauses.push(section);
      continue;
    }
    const numbered = /^(\d+)\. /.exec(line);
    if (numbered && section?.startsWith('§4.')) clauses.push(`${section} rule ${numbered[1]}`);
  }
  return clauses;
}

/** The clauses a rule cites: "§4.9 rules 1-3; §7" → §4.9, §4.9 rule 1..3, §7. */
export function citedClauses(clause: string): string[] {
  const out: string[] = [];
  for (const part of clause.split(';')) {
    const m = /§(\d+(?:\.\d+)?)(?:\s+rules?\s+(\d+)(?:\s*-\s*(\d+))?)?/.exec(part);
    if (!m) continue;
    const section = `§${m[1]}`;
    out.push(section);
    if (m[2]) {
      const from = Number(m[2]);
      const to = m[3] ? Number(m[3]) : from;
      for (let n = from; n <= to; n++) out.push(`${section} rule ${n}`);
    }
  }
  return out;
}

export interface ClauseCoverage {
  clause: string;
  rules: string[];
  uncheckable?: string;
}

export function clauseCoverage(specText: string, rules: readonly Rule[]): ClauseCoverage[] {
  const byClause = new Map<string, string[]>();
  for (const r of rules) {
    for (const c of citedClauses(r.clause)) byClause.set(c, [...(byClause.get(c) ?? []), r.id]);
  }
  return specClauses(specText).map((clause) => ({
    clause,
    rules: byClause.get(clause) ?? [],
    ...(UNCHECKABLE[clause] ? { uncheckable: UNCHECKABLE[clause] } : {}),
  }));
}
