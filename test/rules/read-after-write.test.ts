/**
 * A write's effect held to both reads of it (judgeEveryRead): the read right
 * after the write and the read a moment later each stand in turn where the
 * judge looks, and whichever departs says how: stale for a moment, or an
 * effect that did not last. Pure: judged on hand-built logs.
 */
import { describe, expect, test } from 'vitest';
import { noEvidence, type Judgement } from '../../src/rules/judges/judgement.ts';
import type { Observed } from '../../src/rules/judges/observed.ts';
import { judgeEveryRead, later } from '../../src/rules/judges/read-after-write.ts';

const AFTER = 'list-roles after';

function read(step: string, teams: string[], at?: Observed['at']): Observed {
  const body = [{ resource_id: '1', role_id: '2', is_assigned: true, team_ids: teams }];
  return {
    ...(at ? { at } : {}),
    operation: 'resources.list-roles',
    step,
    request: { resource_ids: ['1'] },
    status: 200,
    body,
    text: JSON.stringify(body),
    earlierStatuses: [],
    credential: 'main',
  };
}

const revocation: Observed = {
  operation: 'resources.revoke-roles',
  step: 'revoking `*`',
  request: { resource_ids: ['1'], role_ids: ['2'], team_ids: '*' },
  status: 204,
  body: undefined,
  text: '',
  earlierStatuses: [],
  credential: 'main',
};

/** The judge of one read: the role must be held on no team after revoking `*`. */
function noTeam(log: readonly Observed[]): Judgement {
  const after = log.find((o) => o.step === AFTER);
  if (!after) return noEvidence('no read after');
  const teams = after.text.includes('"team_ids":[]') ? [] : after.text;
  return teams.length === 0 ? [] : [{ where: `${AFTER}.team_ids`, message: 'must be empty', actual: teams }];
}

describe('judgeEveryRead', () => {
  test('both reads show the effect: clean', () => {
    expect(judgeEveryRead([revocation, read(AFTER, []), read(later(AFTER), [])], noTeam)).toEqual([]);
  });

  test('the read right after the write is stale, the one a moment later is not: a departure, said as stale for as long as measured', () => {
    // The write answered at 1000, the stale read sent 2 ms after, the read a moment later answered 507 ms after.
    const log = [
      { ...revocation, at: { sent: 990, answered: 1000 } },
      read(AFTER, ['7'], { sent: 1002, answered: 1004 }),
      read(later(AFTER), [], { sent: 1505, answered: 1507 }),
    ];
    expect(judgeEveryRead(log, noTeam)).toMatchObject([
      {
        where: `${AFTER}.team_ids`,
        message: expect.stringContaining(
          `a read a moment later did (stale for 507 ms at most as measured, from the write's answer to the ` +
            "answer of the first read that showed it; the read that did not was sent 2 ms after the write's answer)",
        ),
      },
    ]);
  });

  test('a stale read in a record without times is said as stale, for a time not known', () => {
    const violations = judgeEveryRead([revocation, read(AFTER, ['7']), read(later(AFTER), [])], noTeam);
    expect(violations).toMatchObject([
      { message: expect.stringContaining('stale for a moment: the record holds no times to say how long') },
    ]);
  });

  test('the effect shows at once and is gone a moment later: a departure at the later read', () => {
    const violations = judgeEveryRead([revocation, read(AFTER, []), read(later(AFTER), ['7'])], noTeam);
    expect(violations).toMatchObject([
      { where: `${later(AFTER)}.team_ids`, message: expect.stringContaining('and keep showing it') },
    ]);
  });

  test('neither read shows it: the departure of the read right after the write, as the judge says it', () => {
    expect(judgeEveryRead([revocation, read(AFTER, ['7']), read(later(AFTER), ['7'])], noTeam)).toEqual([
      { where: `${AFTER}.team_ids`, message: 'must be empty', actual: JSON.stringify(read(AFTER, ['7']).body) },
    ]);
  });

  test('a log without a read a moment later is judged as it is', () => {
    expect(judgeEveryRead([revocation, read(AFTER, ['7'])], noTeam)).toEqual(noTeam([revocation, read(AFTER, ['7'])]));
    expect(judgeEveryRead([revocation], noTeam)).toEqual(noEvidence('no read after'));
  });
});
