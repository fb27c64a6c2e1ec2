/** The trials' table, and its copy in docs/staging-safety.md between two markers. */
import type { TrialFamily } from './families.ts';

export const TRIALS_START = '<!-- trials:start -->';
export const TRIALS_END = '<!-- trials:end -->';

export interface FamilyTally {
  family: TrialFamily;
  tried: number;
  reached: number;
  held: number;
}

export function trialsTable(tallies: readonly FamilyTally[]): string {
  const cell = (text: string): string => text.replace(/\|/g, '\\|');
  return [
    '| trials | each tries | and holds when | tried | reached | held |',
    '|---|---|---|---|---|---|',
    ...tallies.map(
      (t) =>
        `| ${cell(t.family.name)} | ${cell(t.family.tries)} | ${cell(t.family.holds)} | ${t.tried} | ${t.reached} | ${t.held} |`,
    ),
  ].join('\n');
}

/** The page with `table` between the markers; an error when the markers are missing. */
export function withTrialsTable(readme: string, table: string): string {
  const start = readme.indexOf(TRIALS_START);
  const end = readme.indexOf(TRIALS_END);
  if (start < 0 || end < start) throw new Error(`the page has no ${TRIALS_START} … ${TRIALS_END} markers`);
  return `${readme.slice(0, start + TRIALS_START.length)}\n${table}\n${readme.slice(end)}`;
}
