/**
 * reproduce/<rule-id>.sh on built-in faults: the suite FAILs a rule on a
 * faulty reference server; the script it writes exits non-zero against that
 * server (the departure is still there) and zero against the reference
 * server (the same domain, no fault), with the keys given only through the
 * environment. curl must be there: missing, these tests fail under CI and
 * are skipped elsewhere, saying why.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { parseJsonText } from '../../src/core/json-text.ts';
import { embeddedTiming } from '../../src/core/timing.ts';
import type { RuleResult } from '../../src/core/types.ts';
import { CATCHES } from '../../src/mutation/fault-catches.ts';
import { startReferenceServer, type FaultName, type ReferenceServer } from '../../src/reference-server/index.ts';
import { writeReports } from '../../src/report/write-reports.ts';
import { loadCatalogue } from '../../src/runner/catalogue.ts';
import { runRulesOn } from '../helpers/rules-on.ts';
import { reachOfEveryFault, type FaultReach } from '../../src/mutation/fault-reach.ts';

const API_KEY = 'reproducer-test-key-0123456789';

/**
 * Every row of a table in the full proof (`npm run proof` runs this file too),
 * every third in `npm test`: each kind of reproducer is still tried there.
 */
function sampled<T>(rows: readonly T[]): readonly T[] {
  return inject('proof') === true ? rows : rows.filter((_, i) => i % 3 === 0);
}
const RESTRICTED_KEY = 'reproducer-test-restricted-0123456789';

function hasCurl(): boolean {
  try {
    execFileSync('which', ['curl'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const curl = hasCurl();

test('curl is installed where CI runs the reproducer tests', () => {
  // Skipping silently in CI would let the reproducers go untested.
  if (process.env.CI) expect(curl, 'curl is missing: install it (apt-get install curl)').toBe(true);
});

function start(faults: FaultName[] = [], resources?: number): Promise<ReferenceServer> {
  return startReferenceServer({
    faults,
    timing: embeddedTiming(),
    apiKey: API_KEY,
    restrictedApiKey: RESTRICTED_KEY,
    ...(resources !== undefined ? { resources } : {}),
  });
}

/** Runs one rule against the server and writes every report into `dir`: the FAIL's result and its script. */
async function failOn(
  server: ReferenceServer,
  rule: string,
  dir: string,
): Promise<{ result: RuleResult; script: string }> {
  const run = await runRulesOn(server, [rule]);
  const { reproducers } = await writeReports(run, dir);
  const result = run.results.find((r) => r.ruleId === rule);
  if (!result) throw new Error(`${rule} did not run`);
  const script = join(dir, 'reproduce', `${rule}.sh`);
  expect(reproducers).toContain(script);
  return { result, script };
}

/** Which rules' traffic reaches each fault (src/mutation/fault-reach.ts), measured once for the file. */
let reach: Promise<FaultReach> | undefined;

/**
 * Like failOn, with the rules the catch names beside its owner; when the
 * owner's own requests do not show the fault (only ordered walks, which
 * other rules make, show it: found there and charged to its owner), again
 * with the rules whose traffic reaches it, as the quick proof selects them:
 * derived, not listed.
 */
async function failOnWith(
  server: ReferenceServer,
  fault: FaultName,
  rule: string,
  dir: string,
): Promise<{ result: RuleResult; script: string }> {
  const c = CATCHES[fault];
  const named = [rule, ...(c.finder ? [c.finder] : []), ...(c.alsoFails ?? [])];
  let run = await runRulesOn(server, named);
  if (run.results.find((r) => r.ruleId === rule)?.verdict !== 'FAIL') {
    reach ??= loadCatalogue().then((catalogue) => reachOfEveryFault(catalogue));
    run = await runRulesOn(server, [...named, ...((await reach).get(fault) ?? [])]);
  }
  const { reproducers } = await writeReports(run, dir);
  const result = run.results.find((r) => r.ruleId === rule);
  if (!result) throw new Error(`${rule} did not run`);
  const script = join(dir, 'reproduce', `${rule}.sh`);
  expect(reproducers).toContain(script);
  return { result, script };
}

/** Every next_token the run's answers gave. */
function tokensGiven(result: RuleResult): string[] {
  return result.exchanges.flatMap((e) => {
    const body: unknown = e.response && !e.response.truncated ? parseJsonText(e.response.body) : undefined;
    if (typeof body !== 'object' || body === null || !('next_token' in body)) return [];
    return typeof body.next_token === 'string' ? [body.next_token] : [];
  });
}

/** The script's exit code and output, with the base URL and the keys in its environment only. */
function reproduce(script: string, server: ReferenceServer): Promise<{ code: number; out: string }> {
  return new Promise((done) => {
    execFile(
      'bash',
      [script],
      {
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          DIRECTORY_BASE_URL: server.url,
          DIRECTORY_API_KEY: server.apiKey,
          DIRECTORY_RESTRICTED_API_KEY: server.restrictedApiKey,
        },
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        done({ code, out: `${stdout}${stderr}` });
      },
    );
  });
}

describe.skipIf(!curl)('reproduce/<rule-id>.sh on built-in faults (needs curl)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dc-reproduce-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  // A model-based sequence's script replays its trace (the judge's replay told step by step) and judges
  // the failing step's answer; the others judge one answer. (A revocation sequence replays only on a
  // target in the state the sequence started from, which a fresh server is not: see below.)
  test.each(
    sampled([
      // A model-based sequence of rates, judged on the day that departs.
      ['rates-unassign-first-period-only', 'activity-rates.prop.model-sequences'],
      // A model-based sequence of team assignments, judged on the regrouping the last one sent, day by day.
      ['teams-regrouping-non-ascii-mangled', 'activity-rates.prop.model-sequences'],
      // One answer's status.
      ['malformed-date-500', 'errors.invalid-date-range-rejected'],
      // One answer's body at a JSON path.
      ['list-roles-team-ids-as-string', 'list-roles.association-shape'],
      // An error answer without a message: the request that had it, sent again, must carry one.
      ['errors-400-without-message', 'errors.message-present'],
      // A change refused only after the rule's earlier change (an external_id already used): sent after it.
      ['activity-rate-external-id-not-unique', 'activity-rates.external-id-unique'],
      // A departure one time in ten: the judged request sent as often as one in ten needs, each answer judged.
      ['invalid-limit-accepted-one-in-ten', 'errors.prop.invalid-limit-rejected'],
      // Answers compared: the team filter's answer against the unfiltered read, both sent again.
      ['show-teams-team-filter-ignored', 'show-teams.team-filter'],
      // The head filter's answer: only assignations with the head asked for, as the unfiltered read shows them.
      ['show-teams-head-filter-ignored', 'show-teams.head-filter'],
      // list-roles of several resources against the reads of each alone: all but the first resource dropped.
      ['list-roles-first-resource-only', 'list-roles.filters-respected'],
      // list-roles of one role: the role filter ignored, associations of other roles shown.
      ['list-roles-ignores-role-filter', 'list-roles.filters-respected'],
    ] as const),
  )(
    '%s: the script of %s exits 1 on the faulty server, 0 on the reference',
    async (fault, rule) => {
      const faulty = await start([fault]);
      const reference = await start();
      try {
        const { result, script } = await failOn(faulty, rule, join(dir, fault));
        expect(result.verdict).toBe('FAIL');
        const text = await readFile(script, 'utf8');
        expect(text).not.toContain(API_KEY);
        // The run's target is named in a comment; every request goes to $DIRECTORY_BASE_URL.
        expect(text.split('\n').filter((l) => !l.startsWith('#') && l.includes(faulty.url))).toEqual([]);
        const still = await reproduce(script, faulty);
        expect(still, still.out).toMatchObject({ code: 1 });
        expect(still.out).toContain('DEPARTS');
        const fixed = await reproduce(script, reference);
        expect(fixed, fixed.out).toMatchObject({ code: 0 });
      } finally {
        await Promise.all([faulty.close(), reference.close()]);
      }
    },
    120_000,
  );

  // A page named by its walk's words, where several walks have that page: the one whose request the words
  // describe exactly (attributes in their order, with_total_count false), of the kind the violation
  // expects, or any of walks of the same ids whose order alone differs (the check is of the set).
  test.each(
    sampled([
      ['list-total-count-always', 'list.total-count-only-when-asked'],
      ['list-attributes-ignored', 'list.attributes-returned'],
      ['list-includes-other-kinds', 'list.resources-of-the-kind'],
      ['list-ids-filter-ignored', 'list.ids-filter'],
      // A count asked for and not given, beside orders (only a pairwise row sends them): both fields must be there.
      ['list-total-count-dropped-beside-orders', 'list.total-count-of-filtered-set'],
    ] as const),
  )(
    '%s: the script of %s judges the page its walk names, exits 1 on a fresh faulty server, 0 on the reference',
    async (fault, rule) => {
      const used = await start([fault]);
      const fresh = await start([fault]);
      const reference = await start();
      try {
        const { result, script } = await failOnWith(used, fault, rule, join(dir, fault));
        expect(result.verdict).toBe('FAIL');
        const text = await readFile(script, 'utf8');
        expect(text).not.toContain(API_KEY);
        expect(text).not.toContain('not judged here: run the rule again');
        const still = await reproduce(script, fresh);
        expect(still, still.out).toMatchObject({ code: 1 });
        expect(still.out).toContain('DEPARTS');
        const fixed = await reproduce(script, reference);
        expect(fixed, fixed.out).toMatchObject({ code: 0 });
      } finally {
        await Promise.all([used.close(), fresh.close(), reference.close()]);
      }
    },
    120_000,
  );

  // A walk's FAIL (a resource returned again) shows only over pages linked by next_token, which are the
  // server's own: the script sends the walk's first page again and follows each live answer's token, never
  // the run's (a fresh server signs other tokens), and judges the pages as the walk judge did. A later
  // page's FAIL is sent after the pages before it, each with the token its live answer gives.
  test.each(
    sampled([
      // The last resource of each page comes again on the next: a repeat on every walk.
      ['pagination-repeats-last-item', 'pagination.each-resource-once'],
      // Later pages forget the orders: only ordered walks, which other rules make, repeat resources.
      ['pagination-later-pages-drop-orders', 'pagination.each-resource-once'],
      // Page 2 and on hold more than the limit: page 2 is sent after page 1, with the token page 1 gives live.
      ['pagination-later-pages-limit-exceeded', 'pagination.limit-respected'],
    ] as const),
  )(
    '%s: the walk script of %s follows the live tokens, exits 1 on a fresh faulty server, 0 on the reference',
    async (fault, rule) => {
      const used = await start([fault]);
      const fresh = await start([fault]);
      const reference = await start();
      try {
        const { result, script } = await failOnWith(used, fault, rule, join(dir, fault));
        expect(result.verdict).toBe('FAIL');
        const text = await readFile(script, 'utf8');
        expect(text).not.toContain(API_KEY);
        expect(text).not.toContain(RESTRICTED_KEY);
        expect(text).not.toContain('not judged here: run the rule again');
        // No token of the run is sent again: every next_token the script sends comes from a live answer.
        for (const token of tokensGiven(result)) expect(text).not.toContain(token);
        const still = await reproduce(script, fresh);
        expect(still, still.out).toMatchObject({ code: 1 });
        expect(still.out).toContain('DEPARTS');
        const fixed = await reproduce(script, reference);
        expect(fixed, fixed.out).toMatchObject({ code: 0 });
      } finally {
        await Promise.all([used.close(), fresh.close(), reference.close()]);
      }
    },
    120_000,
  );

  // Answers named otherwise than by a step: a read's value by its operation, resource and key (the redaction
  // rules), a pairwise row's answer by the row's step in parentheses (every record judged against the range
  // the row asked for), two pairwise reads of list-roles compared live, a filter beside another compared with
  // the live unfiltered read, associations of roles hidden from the restricted key.
  test.each(
    sampled([
      ['redaction-leaks-external-id', 'auth.restricted-fields-redacted'],
      ['redaction-wrong-marker', 'auth.redacted-marker-shape'],
      ['show-teams-range-ignored-beside-several-teams', 'show-teams.prop.pairwise-combinations'],
      ['show-teams-disabled-team-refused', 'show-teams.prop.pairwise-combinations'],
      ['list-roles-role-order-matters', 'list-roles.prop.pairwise-combinations'],
      // Two pairwise rows a record lies across the same way: one shows it, the other leaves it out.
      ['show-rates-end-overlap-dropped-on-month-start', 'show-activity-rates.prop.pairwise-combinations'],
      ['show-teams-team-ids-ignored-beside-head', 'show-teams.team-filter'],
      ['list-roles-restricted-sees-hidden', 'list-roles.restricted-sees-subset'],
      ['rates-average-rate-unrounded', 'show-activity-rates.average-rate-integer'],
    ] as const),
  )(
    '%s: the script of %s judges the answer its violation names, exits 1 on a fresh faulty server, 0 on the reference',
    async (fault, rule) => {
      const used = await start([fault]);
      const fresh = await start([fault]);
      const reference = await start();
      try {
        const { result, script } = await failOnWith(used, fault, rule, join(dir, fault));
        expect(result.verdict).toBe('FAIL');
        const text = await readFile(script, 'utf8');
        expect(text).not.toContain(API_KEY);
        expect(text).not.toContain(RESTRICTED_KEY);
        expect(text).not.toContain('not judged here: run the rule again');
        const still = await reproduce(script, fresh);
        expect(still, still.out).toMatchObject({ code: 1 });
        expect(still.out).toContain('DEPARTS');
        const fixed = await reproduce(script, reference);
        expect(fixed, fixed.out).toMatchObject({ code: 0 });
      } finally {
        await Promise.all([used.close(), fresh.close(), reference.close()]);
      }
    },
    120_000,
  );

  // A token the run altered from a server's (cut, added to, a character changed) is made again from the
  // live token by the same alteration: the run's token says nothing to another server. A token built by
  // hand (an offset in base64 JSON, which may share a server's token format) is sent as it was, and an
  // error answer to a request with a token is sent again after the request whose live answer gives it.
  test.each(
    sampled([
      ['pagination-token-mac-prefix-accepted', 'pagination.prop.tampered-token-422'],
      ['pagination-offset-token', 'pagination.hand-built-token-422'],
      ['pagination-422-without-message', 'errors.message-present'],
    ] as const),
  )(
    '%s: the script of %s sends its token live, exits 1 on a fresh faulty server, 0 on the reference',
    async (fault, rule) => {
      const used = await start([fault]);
      const fresh = await start([fault]);
      const reference = await start();
      try {
        const { result, script } = await failOnWith(used, fault, rule, join(dir, fault));
        expect(result.verdict).toBe('FAIL');
        const text = await readFile(script, 'utf8');
        expect(text).not.toContain(API_KEY);
        expect(text).not.toContain('not judged here: run the rule again');
        for (const token of tokensGiven(result)) expect(text).not.toContain(token);
        const still = await reproduce(script, fresh);
        expect(still, still.out).toMatchObject({ code: 1 });
        expect(still.out).toContain('DEPARTS');
        const fixed = await reproduce(script, reference);
        expect(fixed, fixed.out).toMatchObject({ code: 0 });
      } finally {
        await Promise.all([used.close(), fresh.close(), reference.close()]);
      }
    },
    120_000,
  );

  // A FAIL judged over whole walks: the script follows each walk with the live tokens and judges what it
  // collected against live answers only: an order over every page, walks of one query at two page sizes
  // against the same query with limit null, a collection's walk against its strict count and limit null.
  test.each(
    sampled([
      // Descending where ascending is asked: on page 1 already.
      ['list-orders-descending', 'list.orders-ascending'],
      // Pages after the first ignore the order.
      ['list-later-pages-unordered', 'list.orders-ascending'],
      // A cursor of the sort value alone: ties across a page boundary are lost, limit 1 and limit 3 differ.
      ['pagination-keyset-without-id', 'pagination.stable-with-orders'],
      // A cursor of the first of two orders: the walks at limits 2 and 3 miss some ties.
      ['pagination-keyset-first-order-only', 'list.several-orders-stable'],
      // The ids filter reads 100 ids at most: three counts of 100 for 150 ids the sample lists.
      ['list-ids-filter-capped-100', 'list.counts-agree'],
      // The walk stops after 1000 resources, where the count and limit null say 1700.
      ['pagination-stops-after-1000', 'list.counts-agree'],
      // Two filters at once, the text filter ignored: resources of the ids whose text does not start so.
      ['list-filters-first-only', 'list.filters-all-applied'],
      // The ids filter read as sorted: the walk of the ids reversed misses resources the sample lists.
      ['list-ids-filter-assumes-sorted', 'list.ids-filter'],
      // A property's drawn walk of one id at limit 1: the id must be listed once.
      ['list-ids-filter-after-paging', 'pagination.prop.any-limit-once'],
      // A pairwise row whose with_relations null filters: its walk against the read of its filters alone.
      ['list-with-relations-null-as-filter', 'list.prop.pairwise-combinations'],
    ] as const),
  )(
    '%s: the script of %s follows its walks live, exits 1 on a fresh faulty server, 0 on the reference',
    async (fault, rule) => {
      const resources = CATCHES[fault].resources;
      const used = await start([fault], resources);
      const fresh = await start([fault], resources);
      const reference = await start([], resources);
      try {
        const { result, script } = await failOnWith(used, fault, rule, join(dir, fault));
        expect(result.verdict).toBe('FAIL');
        const text = await readFile(script, 'utf8');
        expect(text).not.toContain(API_KEY);
        expect(text).not.toContain(RESTRICTED_KEY);
        expect(text).not.toContain('not judged here: run the rule again');
        for (const token of tokensGiven(result)) expect(text).not.toContain(token);
        const still = await reproduce(script, fresh);
        expect(still, still.out).toMatchObject({ code: 1 });
        expect(still.out).toContain('DEPARTS');
        const fixed = await reproduce(script, reference);
        expect(fixed, fixed.out).toMatchObject({ code: 0 });
      } finally {
        await Promise.all([used.close(), fresh.close(), reference.close()]);
      }
    },
    240_000,
  );

  // A write's effect read right after it: the write sent again, then the read, judged live (the write
  // changes the target; nothing is put back). An unassignment is judged only after a read showing what
  // it unassigns, a warned assignment only where the live answer is a warning.
  test.each(
    sampled([
      // The flags of an assignment ignored: the period over its range does not carry them.
      ['rates-assign-ignores-flags', 'activity-rates.assigned-rate-shown'],
      // A read right after the write that does not show it yet (stale until reads pause for a moment).
      ['rates-stale-read', 'activity-rates.assigned-rate-shown'],
      // A property's departing run: apprentice sent, not shown.
      ['rates-assign-ignores-apprentice', 'activity-rates.prop.assign-then-show'],
      // The new period laid over the old one without cutting it.
      ['activity-rate-overlap', 'activity-rates.no-overlap'],
      // An unassignment that changes nothing.
      ['activity-rate-unassign-noop', 'activity-rates.unassign-removes-coverage'],
      // A head assignment done with warning_aware true, not shown at once.
      ['teams-stale-read', 'assign-team.warning-aware-applies'],
      // An assignment warned of (warning_aware false) done anyway.
      ['assign-team-warning-applied', 'assign-team.warning-changes-nothing'],
      // No pattern sent: the rate put on Monday only, where the regime works five days.
      ['rates-default-pattern-monday-only', 'activity-rates.default-pattern-even'],
      // A pairwise row without a pattern: spread over five days whatever the regime works.
      ['rates-default-pattern-five-days', 'activity-rates.prop.pairwise-combinations'],
      // A pairwise row's pattern of several weeks shown with its first week only.
      ['rates-pattern-later-weeks-dropped', 'activity-rates.prop.pairwise-combinations'],
      // A pairwise row over exactly the range of the period the row before made: that row is sent first.
      ['rates-exact-range-updates-rate-only', 'activity-rates.prop.pairwise-combinations'],
      ['rates-exact-range-keeps-pattern', 'activity-rates.prop.pairwise-combinations'],
      // A pairwise row warned of, done anyway: its team must not be shown over its week.
      ['teams-warning-applied-without-contract-number', 'assign-team.prop.pairwise-combinations'],
      // A pairwise row refused (non-ASCII text): 2xx or a warning is due; the rows before it are sent first.
      ['teams-non-ascii-contract-number-refused', 'assign-team.prop.pairwise-combinations'],
      // A pairwise row's text shown otherwise than sent (external_id dropped where no regrouping is sent).
      ['teams-external-id-dropped-without-regrouping', 'assign-team.prop.pairwise-combinations'],
      // Assignments sent at once, both answered as done, one lost: the days only it covered, in any order.
      ['rates-concurrent-assignments-dropped', 'activity-rates.prop.concurrent-sequences'],
      // Head assignments sent at once: the days only one of them covered show its team, in any order.
      ['teams-lost-update', 'assign-team.prop.concurrent-other-teams-kept'],
      // Unassignment rows: the periods laid again, the rows before, the row; a day no row named lost its rate.
      ['rates-unassign-inside-removes-period', 'activity-rates.prop.unassign-pairwise-combinations'],
      // The same, a month's first day an unassignment covered still shown.
      ['rates-unassign-month-start-kept', 'activity-rates.prop.unassign-pairwise-combinations'],
      // An unassignment row over exactly the range of a laid period, which stays.
      ['rates-unassign-exact-range-kept', 'activity-rates.prop.unassign-pairwise-combinations'],
      // An unassignment row ending the day before a period, which loses its first day too.
      ['rates-unassign-trims-next-period', 'activity-rates.prop.unassign-pairwise-combinations'],
    ] as const),
  )(
    '%s: the script of %s writes again and judges the read after it, exits 1 on a fresh faulty server, 0 on the reference',
    async (fault, rule) => {
      const used = await start([fault]);
      const fresh = await start([fault]);
      const reference = await start();
      try {
        const { result, script } = await failOnWith(used, fault, rule, join(dir, fault));
        expect(result.verdict).toBe('FAIL');
        const text = await readFile(script, 'utf8');
        expect(text).not.toContain(API_KEY);
        expect(text).not.toContain('not judged here: run the rule again');
        const still = await reproduce(script, fresh);
        expect(still, still.out).toMatchObject({ code: 1 });
        expect(still.out).toContain('DEPARTS');
        const fixed = await reproduce(script, reference);
        expect(fixed, fixed.out).toMatchObject({ code: 0 });
      } finally {
        await Promise.all([used.close(), fresh.close(), reference.close()]);
      }
    },
    120_000,
  );

  // A revocation's FAIL is judged over several answers: the roles read first, the revocations (sent at
  // once where the run sent them so), the roles read after. The script reads the roles first and goes on
  // only when they are those the run started from: on a fresh server (the same domain) it judges, and
  // after the run on the same server, whose roles the run revoked for good, it cannot tell (exit 3).
  test.each(
    sampled([
      // An example: one revocation narrowing a list, judged on the roles read after it.
      ['revoke-first-team-only', 'revoke-roles.narrows-explicit-list'],
      // A property of revocations sent at once: two 204s, one lost.
      ['revoke-lost-update', 'revoke-roles.prop.concurrent-sequences'],
      // Revocations of what the resource does not hold: the roles read after must be those read before.
      ['revoke-absent-team-clears-list', 'revoke-roles.absent-role-no-change'],
      // A property's failing run, replayed from the first read: the second revocation must change nothing.
      ['revoke-star-twice-removes-role', 'revoke-roles.prop.idempotent'],
      // A kind-defining role revoked: refused or accepted, it must still be there (the reference refuses).
      ['revoke-defining-role-removed', 'revoke-roles.defining-role-kept'],
      // A pairwise row in the middle of a long run (kept whole, the only evidence there will be): the resource's
      // first read, every row before that named it, the row, the read after.
      ['revoke-mixed-absent-team-ignored', 'revoke-roles.prop.pairwise-combinations'],
    ] as const),
  )(
    '%s: the script of %s exits 1 on a fresh faulty server, 0 on the reference, 3 where the roles moved on',
    async (fault, rule) => {
      const used = await start([fault]);
      const fresh = await start([fault]);
      const reference = await start();
      try {
        const { result, script } = await failOn(used, rule, join(dir, fault));
        expect(result.verdict).toBe('FAIL');
        const text = await readFile(script, 'utf8');
        // Not the script of a FAIL it cannot judge, which stops at once.
        expect(text).not.toContain('not judged here: run the rule again');
        const still = await reproduce(script, fresh);
        expect(still, still.out).toMatchObject({ code: 1 });
        expect(still.out).toContain('DEPARTS');
        const fixed = await reproduce(script, reference);
        expect(fixed, fixed.out).toMatchObject({ code: 0 });
        // The run revoked the roles it started from: the same script on the same server cannot say.
        const after = await reproduce(script, used);
        expect(after, after.out).toMatchObject({ code: 3 });
        expect(after.out).toContain('other roles than the run started from');
        expect(after.out).not.toContain('conforms');
      } finally {
        await Promise.all([used.close(), fresh.close(), reference.close()]);
      }
    },
    120_000,
  );

  // A model-based sequence of revocations starts from roles earlier runs of the property left: its script
  // reads them first (the read just before the sequence), and where the roles moved on since (the same
  // server after the run) it sends no revocation and exits 3, never 0.
  test('revoke-first-role-only: the sequence script of revoke-roles.prop.model-sequences cannot tell after the run', async () => {
    const used = await start(['revoke-first-role-only']);
    try {
      const { result, script } = await failOn(used, 'revoke-roles.prop.model-sequences', join(dir, 'sequence'));
      expect(result.verdict).toBe('FAIL');
      expect(result.trace?.at(-1)?.check?.kind).toBe('role-teams');
      const after = await reproduce(script, used);
      expect(after, after.out).toMatchObject({ code: 3 });
      expect(after.out).toContain('other roles than the run started from');
      // Nothing but the first read was judged: no revocation went out from the wrong state.
      expect(after.out).toContain('CANNOT TELL: request 1');
      expect(after.out).not.toContain('request 2');
    } finally {
      await used.close();
    }
  }, 120_000);
});
