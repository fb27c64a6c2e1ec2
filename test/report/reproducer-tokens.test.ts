/**
 * The page tokens a reproducer sends: the script's `follow` puts the live
 * answer's next_token in the next request, altered as the run altered the
 * one it was given, so the altered token differs from the live one as the
 * run's differed from its own (run with node on answers written by hand).
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FOLLOW_TOKEN } from '../../src/report/reproducer-judge.ts';

describe("the script's follow, with an alteration", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dc-follow-'));
    await writeFile(join(dir, '1.body'), JSON.stringify({ data: [{ id: 'a' }], next_token: 'live-token-AbCd' }));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** The next_token of the body follow prints, or its exit code when it prints none. */
  function follow(alteration?: object): string | number {
    const body = JSON.stringify({ pagination: { limit: 2, next_token: null } });
    try {
      const args = ['-e', FOLLOW_TOKEN, dir, '1', body, ...(alteration ? [JSON.stringify(alteration)] : [])];
      const out: unknown = JSON.parse(execFileSync('node', args, { encoding: 'utf8', stdio: 'pipe' }));
      const pagination = typeof out === 'object' && out !== null && 'pagination' in out ? out.pagination : undefined;
      return typeof pagination === 'object' && pagination !== null && 'next_token' in pagination
        ? String(pagination.next_token)
        : -1;
    } catch (e) {
      return typeof e === 'object' && e !== null && 'status' in e && typeof e.status === 'number' ? e.status : -1;
    }
  }

  test('the live token as given, with characters added, cut from its end, or one changed', () => {
    expect(follow()).toBe('live-token-AbCd');
    expect(follow({ append: 'AAAA' })).toBe('live-token-AbCdAAAA');
    expect(follow({ drop: 3 })).toBe('live-token-A');
    expect(follow({ change: 11, to: 'Z' })).toBe('live-token-ZbCd');
    // The live token already holds the character the run's was changed to: another, so it still differs.
    expect(follow({ change: 11, to: 'A' })).toBe('live-token-BbCd');
    // Too short for the alteration: the script cannot tell.
    expect(follow({ drop: 40 })).toBe(3);
    expect(follow({ change: 40, to: 'A' })).toBe(3);
  });
});
