/**
 * Every file the tool reads back is checked against its schema
 * (src/schemas/files.ts): a bad one is a usage error (exit 2) in one line
 * naming the file and the JSON path of its first problem, never a cast that
 * lets it through, a stack trace, or a lock silently taken over.
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { UsageError } from '../../src/core/errors.ts';
import { checkedExpectations } from '../../src/gate/expectations.ts';
import { isRecord } from '../../src/rules/json-values.ts';
import { renderJson } from '../../src/report/json.ts';
import { matchesFileSchema } from '../../src/schemas/files.ts';
import { valueAt } from '../../src/schemas/index.ts';
import { lockTarget, resourceLockPaths } from '../../src/session/target-lock.ts';
import { fixtureRun } from '../fixtures/run-result/fixture-run.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dc-read-back-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function cli(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await main(args, { out: (l) => (out += `${l}\n`), err: (l) => (out += `${l}\n`) });
  return { code, out };
}

/** A JSON object at a pointer of `root`, to break in ways the types forbid. */
function recordAt(root: unknown, pointer: string): Record<string, unknown> {
  const value = valueAt(root, pointer);
  if (!isRecord(value)) throw new Error(`no object at ${pointer}`);
  return value;
}

/** A results.json as `run` writes it, changed by `edit`. */
function resultsJson(edit: (file: unknown) => void = () => undefined): string {
  const file: unknown = JSON.parse(renderJson(fixtureRun()));
  edit(file);
  return JSON.stringify(file);
}

/** The JSON path of the first exchange with a response in the fixture run's results.json. */
function firstAnsweredAt(): string {
  const file: unknown = JSON.parse(renderJson(fixtureRun()));
  for (let i = 0; valueAt(file, `/results/${i}`) !== undefined; i++)
    for (let j = 0; valueAt(file, `/results/${i}/exchanges/${j}`) !== undefined; j++)
      if (valueAt(file, `/results/${i}/exchanges/${j}/response`) !== undefined) return `/results/${i}/exchanges/${j}`;
  throw new Error('the fixture run has no answered exchange');
}

const ANSWERED = firstAnsweredAt();

const ENTRY = { rule: 'pagination.exact-multiple-empty-page', reason: 'vendor bug 12' };
const RUN_LINE = {
  event: 'run',
  at: '2026-01-01T00:00:00Z',
  baseUrl: 'http://127.0.0.1:9',
  serviceVersion: '26.06.25',
};

interface Case {
  name: string;
  file: string;
  text: string;
  args: (path: string) => string[];
  /** What the one line says after "error: <file>". */
  says: string;
}

const CASES: Case[] = [
  {
    name: 'results: a verdict the tool never writes (compare)',
    file: 'verdict.json',
    text: resultsJson((f) => (recordAt(f, '/results/0').verdict = 'MAYBE')),
    args: (p) => ['compare', p, p, '--reports', join(dir, 'cmp')],
    says: ': /results/0/verdict must be one of PASS, FAIL, ERROR, SKIP, OBSERVED, NOT-TESTED, FLAKY: MAYBE',
  },
  {
    name: 'results: another schema version (expectations update --from)',
    file: 'version.json',
    text: resultsJson((f) => (recordAt(f, '').schemaVersion = 2)),
    args: (p) => ['expectations', 'update', '--from', p, '--file', join(dir, 'never-written.json')],
    says: ': /schemaVersion must be 1: 2',
  },
  {
    name: 'results: an exchange with a response and an error (merge)',
    file: 'both.json',
    text: resultsJson((f) => (recordAt(f, ANSWERED).error = { code: 'DC_ERR_TIMEOUT', message: 'late' })),
    args: (p) => ['merge', p, '--reports', join(dir, 'merged')],
    says: `: ${ANSWERED} must not have "error" (an answered exchange has a response and no error)`,
  },
  {
    name: 'results: an exchange with neither (merge)',
    file: 'neither.json',
    text: resultsJson((f) => delete recordAt(f, ANSWERED).response),
    args: (p) => ['merge', p, '--reports', join(dir, 'merged')],
    says: `: ${ANSWERED} must have "error" (an exchange without a response has an error)`,
  },
  {
    name: 'results: a status that is not a number (merge)',
    file: 'status.json',
    text: resultsJson((f) => (recordAt(f, `${ANSWERED}/response`).status = '200')),
    args: (p) => ['merge', p, '--reports', join(dir, 'merged')],
    says: `: ${ANSWERED}/response/status must be number: 200`,
  },
  {
    name: 'expectations: a month 13',
    file: 'month-13.json',
    text: JSON.stringify({ expectations: [{ ...ENTRY, expires: '2027-13-31' }] }),
    args: (p) => ['run', '--rule', ENTRY.rule, '--expectations', p],
    says: ': /expectations/0/expires must be a real date (YYYY-MM-DD): 2027-13-31',
  },
  {
    name: 'expectations: a month 0',
    file: 'month-0.json',
    text: JSON.stringify({ expectations: [{ ...ENTRY, expires: '2027-00-10' }] }),
    args: (p) => ['run', '--rule', ENTRY.rule, '--expectations', p],
    says: ': /expectations/0/expires must be a real date (YYYY-MM-DD): 2027-00-10',
  },
  {
    name: 'expectations: 9999-99-99 (expectations update --file)',
    file: 'nines.json',
    text: JSON.stringify({ expectations: [ENTRY, { ...ENTRY, rule: 'list.kind-id-required', expires: '9999-99-99' }] }),
    args: (p) => ['expectations', 'update', '--from', join(dir, 'good.json'), '--file', p],
    says: ': /expectations/1/expires must be a real date (YYYY-MM-DD): 9999-99-99',
  },
  {
    name: 'expectations: a misspelt field',
    file: 'field.json',
    text: JSON.stringify({ expectations: [{ ...ENTRY, expire: '2027-01-01' }] }),
    args: (p) => ['run', '--rule', ENTRY.rule, '--expectations', p],
    says: ': /expectations/0 must not have "expire" (not a known field; did you mean "expires"?)',
  },
  {
    name: 'journal: a change without the state it replaced (restore)',
    file: 'journal.jsonl',
    text: [
      RUN_LINE,
      { event: 'changing', at: RUN_LINE.at, ruleId: 'teams.assign', resourceId: '7', state: { teams: [] }, undo: [] },
      { event: 'restored', at: RUN_LINE.at, ruleId: 'teams.assign', resourceId: '7' },
    ]
      .map((l) => JSON.stringify(l))
      .join('\n'),
    args: (p) => ['restore', p, '--api-key', 'k'],
    says: ': line 2: /state must have "resourceId"',
  },
  {
    name: 'journal: an event it does not know (restore)',
    file: 'event.jsonl',
    text: [RUN_LINE, { event: 'undone', at: RUN_LINE.at }].map((l) => JSON.stringify(l)).join('\n'),
    args: (p) => ['restore', p, '--api-key', 'k'],
    says: ': line 2: /event must name a journal line: run, changing, restored or irreversible: undone',
  },
  {
    name: 'journal: a line in the middle that is not JSON (restore)',
    file: 'cut.jsonl',
    text: `${JSON.stringify(RUN_LINE)}\n{"event": "chan\n${JSON.stringify(RUN_LINE)}`,
    args: (p) => ['restore', p, '--api-key', 'k'],
    says: ': line 2 is not JSON',
  },
  {
    name: 'profile: a kind without supportsRoles',
    file: 'profile.json',
    text: JSON.stringify({ kinds: [{ id: '1', name: 'Employee' }], roles: [], teams: [], mutableResources: [] }),
    args: (p) => [
      'run',
      '--base-url',
      'http://127.0.0.1:9',
      '--profile',
      p,
      '--api-key',
      'k',
      '--reports',
      join(dir, 'never'),
    ],
    says: ': /kinds/0 must have "supportsRoles"',
  },
];

describe('a file read back that does not match its schema is one line naming the file and the path', () => {
  beforeAll(async () => {
    await writeFile(join(dir, 'good.json'), resultsJson());
  });

  test.each(CASES)('$name', async ({ file, text, args, says }) => {
    const path = join(dir, file);
    await writeFile(path, text);
    const { code, out } = await cli(args(path));
    expect(code).toBe(2);
    expect(out.split('\n').filter((l) => l !== '')).toHaveLength(1);
    expect(out).toContain(`${path}${says}`);
    expect(out).not.toMatch(/internal error|RangeError|\n\s+at /);
  });

  test('an expectations object given to the API is checked the same way', () => {
    const check = () => checkedExpectations({ expectations: [{ ...ENTRY, expires: '2027-02-29' }] }, 'given');
    expect(check).toThrow(UsageError);
    expect(check).toThrow('given: /expectations/0/expires must be a real date (YYYY-MM-DD): 2027-02-29');
    expect(checkedExpectations({ expectations: [{ ...ENTRY, expires: '2028-02-29' }] }, 'given')).toEqual({
      expectations: [{ ...ENTRY, expires: '2028-02-29' }],
    });
  });

  test('a lock file that is not a lock of this tool is named, and no run takes it over', async () => {
    const locks = join(dir, 'locks');
    const [path = ''] = await resourceLockPaths('http://staging.example', '5', locks);
    await mkdir(locks);
    await writeFile(path, JSON.stringify({ pid: 'one', since: 'now', resource: '5', resources: ['5'] }));
    const error: unknown = await lockTarget('http://staging.example', ['5'], { wait: false, dir: locks }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UsageError);
    expect(String(error)).toContain(`lock file ${path}: /pid must be integer: one;`);
    expect(String(error)).not.toContain('\n');
    expect(await readdir(locks)).toEqual([basename(path)]);
  });
});

test('what the tool writes, it reads back: results.json of a run with answered and failed exchanges', () => {
  const written: unknown = JSON.parse(renderJson(fixtureRun()));
  expect(matchesFileSchema('RunRecord', written)).toBe(true);
  expect(matchesFileSchema('ResultsFile', written)).toBe(true);
});
