/**
 * A newcomer's mistakes, each answered the same way: exit 2, one line that
 * names what was wrong and where, a "did you mean" from the known names
 * (commands, flags, rule ids, sections, faults, variants, profile fields)
 * where one is near, and at most one more line, pointing at the command's
 * help, only where the command line's shape was wrong and no name is near.
 * Nothing here reaches a server: every mistake is refused before a request.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runConformance, type ConformanceOptions } from '../../src/api/index.ts';
import { main } from '../../src/cli/main.ts';
import { FAULT_NAMES } from '../../src/reference-server/faults.ts';
import { VARIANT_NAMES } from '../../src/reference-server/variants.ts';

let dir = '';
const at = (name: string): string => join(dir, name);
/** A port nothing listens on: a request sent there would fail the row with "cannot be reached". */
const NOWHERE = 'http://127.0.0.1:9';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dc-wrong-'));
  await writeFile(at('typo-profile.json'), JSON.stringify({ kinds: [], roles: [], teams: [], mutableResource: [] }));
  await writeFile(at('profile.json'), JSON.stringify({ kinds: [], roles: [], teams: [], mutableResources: [] }));
  await writeFile(at('not-json.json'), '{');
  await writeFile(at('typo-config.json'), '{"tmeout": 5}');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

interface Row {
  args: () => string[];
  env?: NodeJS.ProcessEnv;
  /** The whole output, line by line. */
  says: () => string[];
}

const FAULTS = FAULT_NAMES.join(', ');
/** JSON.parse's own words, which differ between Node versions. */
function parseError(text: string): string {
  try {
    JSON.parse(text);
    return '';
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}
const external = (...more: string[]): string[] => [
  'run',
  '--base-url',
  NOWHERE,
  '--profile',
  at('profile.json'),
  ...more,
];

const ROWS: Record<string, Row> = {
  // Commands
  'a command misspelt': { args: () => ['rnu'], says: () => ['error: unknown command "rnu" (did you mean run?)'] },
  'another command misspelt': {
    args: () => ['sevre'],
    says: () => ['error: unknown command "sevre" (did you mean serve?)'],
  },
  'a command begun': { args: () => ['comp'], says: () => ['error: unknown command "comp" (did you mean compare?)'] },
  'an unknown command': {
    args: () => ['frobnicate'],
    says: () => [
      'error: unknown command "frobnicate"; the commands: run, serve, init, rules, compare, merge, expectations, restore, judge, proxy, verify, help',
    ],
  },
  'a proxy with nowhere to forward': {
    args: () => ['proxy', '--port', '0'],
    says: () => ['error: proxy needs --upstream URL: the server to forward to'],
  },
  'a proxy upstream that is no http URL': {
    args: () => ['proxy', '--upstream', 'ftp://directory.example'],
    says: () => ['error: --upstream must be an http or https URL, not ftp://directory.example'],
  },
  // Flags
  'a flag misspelt': {
    args: () => ['run', '--tmeout', '5'],
    says: () => ['error: unknown option --tmeout (did you mean --timeout?)'],
  },
  'a flag of another command': {
    args: () => ['merge', '--reprts', 'x'],
    says: () => ['error: unknown option --reprts (did you mean --reports?)'],
  },
  'an unknown flag': {
    args: () => ['run', '--bogus'],
    says: () => ['error: unknown option --bogus', 'see `directory-conformance run --help`'],
  },
  'an unknown short flag': {
    args: () => ['rules', '-z'],
    says: () => ['error: unknown option -z', 'see `directory-conformance rules --help`'],
  },
  'a flag without its value': {
    args: () => ['run', '--fault'],
    says: () => ['error: --fault needs a value', 'see `directory-conformance run --help`'],
  },
  'a negative value after a space': {
    args: () => ['run', '--timeout', '-5'],
    says: () => [
      'error: --timeout needs a value; a value that starts with a dash is given as --timeout=-5, not --timeout -5',
    ],
  },
  'a value given to a switch': {
    args: () => ['run', '--quiet=yes'],
    says: () => ['error: --quiet is a switch and takes no value (leave out the =…)'],
  },
  'an argument run does not take': {
    args: () => ['run', 'extra'],
    says: () => [
      'error: unexpected argument "extra": this command takes only flags',
      'see `directory-conformance run --help`',
    ],
  },
  // Values
  'a timeout of 0': {
    args: () => ['run', '--timeout', '0'],
    says: () => [
      'error: --timeout must be an integer number of ms from 1 to 2147483647 (the longest timer Node keeps), got 0',
    ],
  },
  'a budget of 0 requests': {
    args: () => ['run', '--max-requests', '0'],
    says: () => [
      'error: --max-requests must be an integer from 1 to 9007199254740991 (leave it out for no budget), got 0',
    ],
  },
  'a seed that is not a number': {
    args: () => ['run', '--seed', 'abc'],
    says: () => ['error: --seed must be a 32-bit integer, from -2147483648 to 2147483647, got "abc"'],
  },
  'a seed beyond 32 bits': {
    args: () => ['run', '--seed', '4294967296'],
    says: () => ['error: --seed must be a 32-bit integer, from -2147483648 to 2147483647, got 4294967296'],
  },
  'no rule side by side': {
    args: () => ['run', '--concurrency', '0'],
    says: () => ['error: --concurrency must be >= 1, got 0'],
  },
  'a rate that is a word': {
    args: () => ['run', '--rate', 'fast'],
    says: () => ['error: --rate must be "auto" or an integer from 0 to 1000000, got "fast"'],
  },
  'a coverage above 100': {
    args: () => ['run', '--min-coverage', '101'],
    says: () => ['error: --min-coverage must be a percentage from 0 to 100 (80 or 80%), got 101'],
  },
  'a coverage that is a word': {
    args: () => ['run', '--min-coverage', 'all'],
    says: () => ['error: --min-coverage must be a percentage from 0 to 100 (80 or 80%), got "all"'],
  },
  'a level the spec does not use': {
    args: () => ['run', '--level', 'SHOULD'],
    says: () => ['error: --level must be one of MUST, INFERRED, OBSERVED, got "SHOULD"'],
  },
  'a shard past the count': {
    args: () => ['run', '--shard', '3/2'],
    says: () => ['error: --shard must be i/n with 1 <= i <= n, got "3/2"'],
  },
  'a shard that is not i/n': {
    args: () => ['run', '--shard', 'x'],
    says: () => ['error: --shard must be i/n with 1 <= i <= n, got "x"'],
  },
  'a directory too small': {
    args: () => ['run', '--resources', '5'],
    says: () => ['error: --resources must be >= 10, got 5'],
  },
  'a path without its seed': {
    args: () => ['run', '--path', '3:1'],
    says: () => ['error: --path replays a counterexample of one seed: give its --seed too (both are in the report)'],
  },
  'a replay path without its path': {
    args: () => ['run', '--replay-path', '1:2'],
    says: () => ['error: --replay-path goes with the --path (and --seed) of the same counterexample'],
  },
  // Selection
  'a rule id misspelt': {
    args: () => ['run', '--rule', 'pagnation.limit-respected'],
    says: () => [
      'error: --rule "pagnation.limit-respected" matches no rule (did you mean pagination.limit-respected?); the rules: `directory-conformance rules`',
    ],
  },
  'a rule prefix misspelt': {
    args: () => ['rules', '--rule', 'pagnation'],
    says: () => [
      'error: --rule "pagnation" matches no rule (did you mean pagination?); the rules: `directory-conformance rules`',
    ],
  },
  'a rule nothing is near': {
    args: () => ['run', '--rule', 'zzz.yyy'],
    says: () => ['error: --rule "zzz.yyy" matches no rule; the rules: `directory-conformance rules`'],
  },
  'a section the spec does not have': {
    args: () => ['run', '--section', '4.99'],
    says: () => ['error: --section "4.99" matches no rule (did you mean 4.9?)'],
  },
  // Faults and variants
  'a fault misspelt': {
    args: () => ['run', '--fault', 'revoke-star-remembred'],
    says: () => ['error: unknown fault "revoke-star-remembred" (did you mean revoke-star-remembered?)'],
  },
  'a fault nothing is near': {
    args: () => ['run', '--fault', 'no-such-fault'],
    says: () => [`error: unknown fault "no-such-fault"; the ${FAULT_NAMES.length} faults: ${FAULTS}`],
  },
  'a fault of serve, by its first word': {
    args: () => ['serve', '--fault', 'auth-nope'],
    says: () => [
      'error: unknown fault "auth-nope"; the faults starting with "auth-": auth-anonymous-accepted, auth-any-bearer-accepted',
    ],
  },
  'a variant misspelt': {
    args: () => ['run', '--variant', 'exclusiv-end'],
    says: () => ['error: unknown variant "exclusiv-end" (did you mean exclusive-end?)'],
  },
  'a variant nothing is near': {
    args: () => ['serve', '--variant', 'nope'],
    says: () => [`error: unknown variant "nope"; the ${VARIANT_NAMES.length} variants: ${VARIANT_NAMES.join(', ')}`],
  },
  'a fault against an external target': {
    args: () => external('--api-key', 'k', '--fault', 'malformed-json-500'),
    says: () => ['error: --fault and --variant apply to the embedded server only (omit --base-url)'],
  },
  // The target
  'a base URL of another scheme': {
    args: () => ['run', '--base-url', 'ftp://x'],
    says: () => ['error: --base-url must be an http(s) URL, got the scheme "ftp:"'],
  },
  'a base URL with a password': {
    args: () => ['run', '--base-url', 'http://user:pw@127.0.0.1:9'],
    says: () => [
      'error: --base-url must not carry a user or password: give the key in DIRECTORY_API_KEY (or --api-key) instead',
    ],
  },
  'a base URL without a profile': {
    args: () => ['run', '--base-url', NOWHERE],
    says: () => [
      'error: a target profile is required with a base URL: --profile, DIRECTORY_PROFILE or "profile" (see fixtures/example-profile.json)',
    ],
  },
  'no API key': {
    args: () => external(),
    says: () => [
      'error: no API key for the target: set DIRECTORY_API_KEY (or --api-key, "apiKey") to the key the target issued',
    ],
  },
  'an empty API key': {
    args: () => external(),
    env: { DIRECTORY_API_KEY: '' },
    says: () => ['error: the API key is empty (DIRECTORY_API_KEY): set it to the key the target issued'],
  },
  'a profile field misspelt': {
    args: () => ['run', '--base-url', NOWHERE, '--profile', at('typo-profile.json'), '--api-key', 'k'],
    says: () => [
      `error: the target profile ${at('typo-profile.json')}: / must not have "mutableResource" (not a known field; did you mean "mutableResources"?) (the format: fixtures/target-profile.schema.json)`,
    ],
  },
  'a base URL from the environment without a profile': {
    args: () => ['run'],
    env: { DIRECTORY_BASE_URL: NOWHERE, DIRECTORY_API_KEY: 'k' },
    says: () => [
      'error: a target profile is required with a base URL: --profile, DIRECTORY_PROFILE or "profile" (see fixtures/example-profile.json)',
    ],
  },
  // Files
  'a config file that is not there': {
    args: () => ['run', '--config', at('none.json')],
    says: () => [
      `error: cannot read the config file ${at('none.json')}: ENOENT: no such file or directory, open '${at('none.json')}'`,
    ],
  },
  'a config file that is not JSON': {
    args: () => ['run', '--config', at('not-json.json')],
    says: () => [`error: ${at('not-json.json')}: not JSON: ${parseError('{')}`],
  },
  'a config key misspelt': {
    args: () => ['run', '--config', at('typo-config.json')],
    says: () => [`error: ${at('typo-config.json')}: unknown option /tmeout (did you mean /requestTimeoutMs?)`],
  },
  'reports into a file': {
    args: () => ['run', '--reports', at('profile.json')],
    says: () => [`error: cannot write reports to "${at('profile.json')}": ${at('profile.json')} is not a folder`],
  },
  // The other commands
  'compare with one file': {
    args: () => ['compare', 'a.json'],
    says: () => ['error: compare needs two results files: OLD.json NEW.json'],
  },
  'merge with none': { args: () => ['merge'], says: () => ['error: merge needs at least one results file'] },
  'expectations without its command': {
    args: () => ['expectations', '--from', 'x.json'],
    says: () => [
      'error: expectations takes its command first: expectations update --from results.json --file expectations.json (got --from first)',
    ],
  },
  'expectations command begun': {
    args: () => ['expectations', 'upd'],
    says: () => ['error: unknown expectations command "upd" (did you mean update?)'],
  },
  'expectations update without --file': {
    args: () => ['expectations', 'update', '--from', 'x.json'],
    says: () => ['error: expectations update needs --from results.json and --file expectations.json'],
  },
  'restore without a journal': {
    args: () => ['restore'],
    says: () => ['error: restore takes one journal file (reports/journal.jsonl)'],
  },
  'serve on a port that is a word': {
    args: () => ['serve', '--port', 'abc'],
    says: () => ['error: --port must be an integer >= 0, got "abc"'],
  },
};

describe('every wrong invocation: exit 2, one line naming the mistake (and the help only where it helps)', () => {
  test('the table is long enough to mean something', () => {
    expect(Object.keys(ROWS).length).toBeGreaterThanOrEqual(40);
  });

  test.each(Object.entries(ROWS))('%s', async (_name, row) => {
    const lines: string[] = [];
    const code = await main(row.args(), { out: (l) => lines.push(l), err: (l) => lines.push(l) }, row.env ?? {});
    expect(lines).toEqual(row.says());
    expect(code).toBe(2);
  });
});

describe('the API refuses the same mistakes in one line', () => {
  test.each<[ConformanceOptions, string]>([
    [
      { maxRequests: 0 },
      'runConformance: maxRequests must be an integer from 1 to 9007199254740991 (leave it out for no budget), got 0',
    ],
    [{ path: '3:1' }, '--path replays a counterexample of one seed: give its --seed too (both are in the report)'],
    [
      { rules: ['pagnation.limit-respected'] },
      '--rule "pagnation.limit-respected" matches no rule (did you mean pagination.limit-respected?); the rules: `directory-conformance rules`',
    ],
    [
      { baseUrl: NOWHERE, profile: { kinds: [], roles: [], teams: [], mutableResources: [] } },
      'no API key for the target: set DIRECTORY_API_KEY (or --api-key, "apiKey") to the key the target issued',
    ],
  ])('%j', async (options, says) => {
    const error: unknown = await runConformance(options).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error instanceof Error ? error.message : '').toBe(says);
  });
});

describe('what the README promises is taken as written', () => {
  async function planned(args: string[]): Promise<{ code: number; rules: string[] }> {
    const lines: string[] = [];
    const code = await main(
      ['run', '--dry-run', ...args],
      { out: (l) => lines.push(l), err: (l) => lines.push(l) },
      {},
    );
    return { code, rules: lines.flatMap((l) => /^\s+\S.*? (\S+) \[/.exec(l)?.[1] ?? []) };
  }

  test('`--rule pagination` selects by prefix, as `--rule pagination.*` does', async () => {
    const byWord = await planned(['--rule', 'pagination']);
    expect(byWord.code).toBe(0);
    expect(byWord.rules).toContain('pagination.envelope');
    expect(byWord.rules.every((id) => id.startsWith('pagination.'))).toBe(true);
    expect(byWord.rules).toEqual((await planned(['--rule', 'pagination.*'])).rules);
  });

  test('`--level must` is the level MUST, whatever its case', async () => {
    const lower = await planned(['--level', 'must']);
    expect(lower.code).toBe(0);
    expect(lower.rules).toEqual((await planned(['--level', 'MUST'])).rules);
  });

  test('serve --profile-out names the file it wrote in the command it suggests', async () => {
    const { serveCommand } = await import('../../src/cli/serve-command.ts');
    const lines: string[] = [];
    const out = at('served-profile.json');
    const code = await serveCommand(
      ['--port', '0', '--profile-out', out],
      { out: (l) => lines.push(l), err: (l) => lines.push(l) },
      Promise.resolve(),
    );
    expect(code).toBe(0);
    expect(lines.some((l) => l.includes(`--profile ${out} --allow-mutations`))).toBe(true);
    expect(lines.join('\n')).not.toContain('--profile profile.json');
  });
});
