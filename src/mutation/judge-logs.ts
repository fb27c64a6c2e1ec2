/**
 * Recorded logs for the judges' own tests: each driven rule's exchanges
 * against the reference server, and against each fault the rule must catch,
 * as its judge read them. A fault whose departure only another rule's
 * requests show (its catch names that rule, the `finder`) is recorded from
 * the finder's exchanges instead: the owner's judge, a judge of traffic,
 * must find it there. `npm run judge-logs` records them into
 * test/fixtures/judge-logs/; the tests judge them with no network, so a
 * judge is proven on real traffic: quiet on the conformant server's, and
 * finding each fault's departure at its declared place (in the traffic of
 * the rule that showed it, when only another rule's requests do).
 */
import { readdir, readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseJsonText } from '../core/json-text.ts';
import { packagePath } from '../core/package-root.ts';
import { observedFromExchange, type Observed } from '../rules/judges/observed.ts';
import { violationsOf } from '../rules/judges/judgement.ts';
import type { RuleGroup } from '../rules/types.ts';
import { allRules } from '../runner/catalogue.ts';
import { checkedFile, type FileType } from '../schemas/files.ts';
import { FAULT_NAMES, type FaultName } from '../reference-server/faults.ts';
import { CATCHES } from './fault-catches.ts';
import { MUTATION_OPTIONS, runAgainstReference } from './run-mutations.ts';

export type JudgeLog = FileType<'JudgeLog'>;
type Stored = JudgeLog['clean'][number];

/** Where the recorded logs live: one file per rule. */
export function judgeLogsDir(): string {
  return packagePath('test', 'fixtures', 'judge-logs');
}

function stored(o: Observed): Stored {
  const { operation, step, request, status, text, earlierStatuses, credential, at } = o;
  return {
    operation,
    step,
    request,
    status,
    text,
    earlierStatuses: [...earlierStatuses],
    credential,
    ...(at ? { at: { ...at } } : {}),
  };
}

/** A stored exchange as a judge reads it: the body parsed from its text. */
export function observedOf(e: Stored): Observed {
  return { ...e, request: e.request, body: parseJsonText(e.text) };
}

function only(groups: readonly RuleGroup[], ids: ReadonlySet<string>): RuleGroup[] {
  return groups.map((g) => ({ ...g, rules: g.rules.filter((r) => ids.has(r.id)) })).filter((g) => g.rules.length > 0);
}

/**
 * Each rule's evidence of a run: the first judged with a departure when there
 * is one (a fault's run: a property's failing run, not the runs before it),
 * otherwise the first judged (a FAIL is driven twice to confirm it: the first
 * is kept).
 */
async function logsOf(
  groups: readonly RuleGroup[],
  ids: ReadonlySet<string>,
  faults: FaultName[],
  resources?: number,
): Promise<Map<string, { log: Stored[]; departs: boolean }>> {
  const logs = new Map<string, { log: Stored[]; departs: boolean }>();
  await runAgainstReference(
    faults,
    only(groups, ids),
    {
      ...MUTATION_OPTIONS,
      onJudged(ruleId, evidence, judgement) {
        const departs = violationsOf(judgement).length > 0;
        const kept = logs.get(ruleId);
        if (!kept || (departs && !kept.departs)) logs.set(ruleId, { log: evidence.map(stored), departs });
      },
    },
    resources,
  );
  return logs;
}

/**
 * The exchanges of the rule whose requests showed `fault`'s departure from
 * `owner`'s clause, when the owner's own requests do not show it (repeats
 * only under explicit orders, which other rules' walks send): the catalogue
 * run under the fault, and the traffic of the first rule the engine charged
 * the owner from. The owner's judge reads any rule's walks, so it is proven
 * on that traffic.
 */
async function finderLog(
  groups: readonly RuleGroup[],
  owner: string,
  fault: FaultName,
  resources?: number,
): Promise<Stored[] | undefined> {
  const traffic = new Map<string, Stored[]>();
  const run = await runAgainstReference(
    [fault],
    groups,
    {
      ...MUTATION_OPTIONS,
      onExchange(ruleId, e) {
        // A body cut for the report cannot be judged whole.
        if (!e.response || e.response.truncated) return;
        const log = traffic.get(ruleId) ?? [];
        log.push(stored(observedFromExchange(e)));
        traffic.set(ruleId, log);
      },
    },
    resources,
  );
  const finder = run.results.find((r) => r.ruleId === owner)?.violations.find((v) => v.foundBy)?.foundBy;
  return finder === undefined ? undefined : traffic.get(finder);
}

/**
 * The exchanges `finder`, run alone against `fault`, made and read until its
 * verdict was given (driven again afterwards to confirm what it found, it is
 * not kept twice), as recorded: whichever form the finder is written in, its
 * traffic is what it sent. A recorded body cut short cannot be judged: the
 * recording stops with an error rather than keep one.
 */
async function finderLogOf(
  groups: readonly RuleGroup[],
  finder: string,
  fault: FaultName,
  resources?: number,
): Promise<Stored[]> {
  const log: Stored[] = [];
  const cut: string[] = [];
  let ended = false;
  await runAgainstReference(
    [fault],
    only(groups, new Set([finder])),
    {
      ...MUTATION_OPTIONS,
      onExchange(ruleId, e) {
        if (ruleId !== finder || ended || !e.response) return;
        if (e.response.truncated) cut.push(e.step ?? e.operation);
        else log.push(stored(observedFromExchange(e)));
      },
      onRuleEnd(result) {
        if (result.ruleId === finder) ended = true;
      },
    },
    resources,
  );
  if (cut.length > 0) throw new Error(`${finder} against ${fault}: recorded bodies cut short (${cut.join(', ')})`);
  return log;
}

/** Records every driven rule's clean log and the log of each fault it owns (its finder's, when it names one). */
export async function recordJudgeLogs(groups: readonly RuleGroup[]): Promise<JudgeLog[]> {
  const rules = allRules(groups);
  const ids = new Set(rules.map((r) => r.id));
  const clean = await logsOf(groups, ids, []);
  const files = new Map<string, JudgeLog>(
    rules.map((r) => [r.id, { rule: r.id, clean: clean.get(r.id)?.log ?? [], faults: {} }]),
  );
  for (const fault of FAULT_NAMES) {
    const { rule: owner, finder, resources } = CATCHES[fault];
    const file = files.get(owner);
    if (!file) continue;
    if (finder) {
      file.faults[fault] = await finderLogOf(groups, finder, fault, resources);
      file.foundBy = { ...file.foundBy, [fault]: finder };
      continue;
    }
    // A fault that needs a larger directory to show (a cap at 1,000) is recorded against one.
    const own = (await logsOf(groups, new Set([owner]), [fault], resources)).get(owner);
    const log = own?.departs ? own.log : ((await finderLog(groups, owner, fault, resources)) ?? own?.log);
    if (log) file.faults[fault] = log;
  }
  return [...files.values()];
}

export async function writeJudgeLogs(logs: readonly JudgeLog[]): Promise<void> {
  const dir = judgeLogsDir();
  await mkdir(dir, { recursive: true });
  for (const log of logs) await writeFile(join(dir, `${log.rule}.json`), `${JSON.stringify(log, null, 1)}\n`);
}

/** Every recorded log, validated as it is read back. */
export async function readJudgeLogs(): Promise<JudgeLog[]> {
  const dir = judgeLogsDir();
  const names = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort();
  return Promise.all(
    names.map(async (n) => checkedFile('JudgeLog', parseJsonText(await readFile(join(dir, n), 'utf8')), join(dir, n))),
  );
}
