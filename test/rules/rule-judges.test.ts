/**
 * Every rule written as a driver and a judge has its judge proven on recorded
 * traffic, with no network: the log its driver made against the conformant
 * reference server is judged clean, and the log it made against each fault it
 * owns shows that fault's departure at the declared place. A fault only
 * another rule's requests show (its catch names that rule, the finder) is
 * proven on the finder's log: the owner's judge finds it in traffic its own
 * driver did not send. The logs are recorded by `npm run judge-logs`
 * (src/mutation/judge-logs.ts).
 */
import { describe, expect, test } from 'vitest';
import { CATCHES } from '../../src/mutation/fault-catches.ts';
import { observedOf, readJudgeLogs } from '../../src/mutation/judge-logs.ts';
import { FAULT_NAMES } from '../../src/reference-server/faults.ts';
import { startReferenceServer } from '../../src/reference-server/index.ts';
import { judgeLog } from '../../src/rules/judges/fold.ts';
import { violationsOf } from '../../src/rules/judges/judgement.ts';
import { allRules, loadCatalogue } from '../../src/runner/catalogue.ts';

const catalogue = await loadCatalogue();
const rules = allRules(catalogue);
const logs = await readJudgeLogs();
// The profile the logs were recorded with: the reference server's, which a judge may read.
const server = await startReferenceServer({ seed: 7, resources: 120 });
const profile = server.profile;
await server.close();

describe('every driven rule has recorded logs', () => {
  test('one file per driven rule, and no file of a rule that is gone', () => {
    expect(logs.map((l) => l.rule).sort()).toEqual(rules.map((r) => r.id).sort());
  });

  test("every fault a driven rule owns has its log (record them with 'npm run judge-logs')", () => {
    const owned = FAULT_NAMES.filter((f) => rules.some((r) => r.id === CATCHES[f].rule));
    const recorded = logs.flatMap((l) => Object.keys(l.faults));
    expect(recorded.sort()).toEqual([...owned].sort());
  });

  test("a fault whose catch names a finder is recorded from the finder's traffic, and no other", () => {
    const found = Object.fromEntries(logs.flatMap((l) => Object.entries(l.foundBy ?? {})));
    const named = Object.fromEntries(
      FAULT_NAMES.flatMap((f) => {
        const { rule, finder } = CATCHES[f];
        return finder && rules.some((r) => r.id === rule) ? [[f, finder]] : [];
      }),
    );
    expect(found).toEqual(named);
  });
});

describe('each judge on its recorded logs', () => {
  for (const log of logs) {
    const rule = rules.find((r) => r.id === log.rule);
    if (!rule?.judge) continue;
    const judge = rule.judge;
    test(`${log.rule}: the conformant server's traffic is judged clean`, () => {
      const judgement = judgeLog(judge, log.clean.map(observedOf), profile);
      expect(judgement).toEqual([]);
    });
    for (const [fault, exchanges] of Object.entries(log.faults)) {
      const where = FAULT_NAMES.find((f) => f === fault);
      const declared = where ? CATCHES[where].where : undefined;
      const finder = log.foundBy?.[fault];
      const traffic = finder ? `${fault}'s traffic, as ${finder} sent it,` : `${fault}'s traffic`;
      test(`${log.rule}: ${traffic} shows the departure at "${String(declared)}"`, () => {
        const violations = violationsOf(judgeLog(judge, exchanges.map(observedOf), profile));
        expect(
          violations.map((v) => v.where).some((w) => declared?.shownBy(w)),
          JSON.stringify(violations),
        ).toBe(true);
      });
      const explain = rule.explain;
      if (explain) {
        test(`${log.rule}: ${fault}'s trace ends at the step that departs, as the judge saw it`, () => {
          const steps = explain(exchanges.map(observedOf), profile);
          // Only the last step departs: the replay stops where the judge does.
          expect(steps.slice(0, -1).filter((s) => s.difference)).toEqual([]);
          const last = steps.at(-1);
          const departure = violationsOf(judgeLog(judge, exchanges.map(observedOf), profile))[0]?.where ?? '';
          // A read after a step that departs is the last step's difference; a command's own refused
          // answer stops the sequence before any state is compared.
          if (/ after /.test(departure)) {
            expect(last?.difference, departure).toBeDefined();
            // A reproducer's check, where one judges that kind of state, names an exchange of the step.
            const check = last?.check;
            if (check) expect(check.exchange).toBeLessThan(last.evidence.length);
          } else expect(last?.difference).toBeUndefined();
        });
      }
    }
  }
});
