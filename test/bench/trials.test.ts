/**
 * The README's trials table (`npm run trials`, bench/trials.ts): it sits
 * between its markers, names every family with what the family tries and
 * when it holds as the script says them, and its counts add up. One trial of
 * each family runs here as a smoke test (seed 1, a few seconds each); the
 * full script is a benchmark-like run, never part of `npm test`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TRIAL_FAMILIES } from '../../bench/trials/families.ts';
import { TRIALS_END, TRIALS_START, trialsTable, withTrialsTable } from '../../bench/trials/table.ts';

// The table sits in the staging-safety page, whose promises the trials try.
const README = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'staging-safety.md'), 'utf8');

/** The README's table rows, by family name: the three texts and the three counts. */
function readmeRows(): Map<string, string[]> {
  const start = README.indexOf(TRIALS_START);
  const end = README.indexOf(TRIALS_END);
  expect(start, `the README has ${TRIALS_START}`).toBeGreaterThan(-1);
  expect(end, `the README has ${TRIALS_END} after ${TRIALS_START}`).toBeGreaterThan(start);
  const rows = README.slice(start + TRIALS_START.length, end)
    .trim()
    .split('\n')
    .slice(2)
    .map((line) =>
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim()),
    );
  return new Map(rows.map((cells) => [cells[0] ?? '', cells.slice(1)]));
}

test('the README has the trials table between its markers, one row per family as the script names it', () => {
  const rows = readmeRows();
  expect([...rows.keys()]).toEqual(TRIAL_FAMILIES.map((f) => f.name));
  // The texts are the script's (the table was written by it), the counts add up.
  const fresh = trialsTable(TRIAL_FAMILIES.map((family) => ({ family, tried: 0, reached: 0, held: 0 })));
  for (const family of TRIAL_FAMILIES) {
    const [tries, holds, tried, reached, held] = rows.get(family.name) ?? [];
    expect(fresh).toContain(`| ${family.name} | ${tries} | ${holds} |`);
    expect(Number(tried)).toBeGreaterThan(0);
    expect(Number(reached)).toBeLessThanOrEqual(Number(tried));
    expect(Number(held)).toBeLessThanOrEqual(Number(tried));
  }
});

test('--write replaces what lies between the markers and nothing else; without markers it refuses', () => {
  const readme = `# x\n\nbefore\n${TRIALS_START}\nold table\n${TRIALS_END}\nafter\n`;
  expect(withTrialsTable(readme, '| new |')).toBe(`# x\n\nbefore\n${TRIALS_START}\n| new |\n${TRIALS_END}\nafter\n`);
  expect(() => withTrialsTable('# no markers\n', '| new |')).toThrow(/no <!-- trials:start -->/);
});

describe('one trial of each family holds (and reaches what it tries)', () => {
  let scratch: string;
  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'dc-trials-smoke-'));
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });
  for (const family of TRIAL_FAMILIES) {
    test(
      family.name,
      async () => {
        const outcome = await family.trial(1, scratch);
        expect(outcome.held, outcome.detail).toBe(true);
        // Whether a break lands in a restoration depends on the order in which rules running side by side
        // send their requests; every other family's seed 1 reaches what it tries every time.
        if (family.name !== 'dropped restores') expect(outcome.reached, outcome.detail).toBe(true);
      },
      // A bound, not a goal: a trial runs the whole catalogue through a misbehaving network.
      150_000,
    );
  }
});
