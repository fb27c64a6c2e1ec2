/**
 * The retry policy is one object: the README's table is made from it, and
 * what it says about each class of requests is what the client does
 * (retries.test.ts, judged-requests.test.ts).
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import {
  GATEWAY_STATUSES,
  REQUEST_CLASSES,
  RETRY_POLICY,
  repeats,
  requestClass,
  retryPolicyTable,
} from '../../src/client/retry-policy.ts';

describe('the retry policy', () => {
  test("the docs' table is the policy's", async () => {
    const readme = await readFile(new URL('../../docs/reading-results.md', import.meta.url), 'utf8');
    const section = /<!-- retry-policy:start -->\n([\s\S]*?)\n<!-- retry-policy:end -->/.exec(readme)?.[1];
    // On a difference: paste retryPolicyTable()'s output between the markers of docs/reading-results.md.
    expect(section).toBe(retryPolicyTable());
  });

  test('the table names every class and every attempt count', () => {
    const table = retryPolicyTable();
    for (const name of REQUEST_CLASSES) expect(table).toContain(`| ${RETRY_POLICY.classes[name].requests} |`);
    const judgedRead = table.split('\n').find((row) => row.startsWith('| judged reads'));
    expect(judgedRead).toBe(`| ${RETRY_POLICY.classes['judged read'].requests} | 5 | 3 | 3 | 3 | 2 | — |`);
  });

  test("a request's class is its operation's, judged or restoring when the caller says so", () => {
    expect(requestClass('resources.list', undefined)).toBe('read');
    expect(requestClass('resources.assign-team', undefined)).toBe('mutation');
    expect(requestClass('resources.list', 'judged')).toBe('judged read');
    expect(requestClass('resources.revoke-roles', 'judged')).toBe('judged mutation');
    expect(requestClass('resources.assign-team', 'restore')).toBe('restore');
  });

  test('one set of gateway statuses: the rule that repeats them, and the assertions read it', () => {
    expect(RETRY_POLICY.rules['gateway answer'].statuses).toBe(GATEWAY_STATUSES);
    expect(GATEWAY_STATUSES).toEqual([502, 503, 504]);
  });

  test('what each rule repeats', () => {
    const { rules } = RETRY_POLICY;
    expect(repeats(rules['server error'], { status: 500 })).toBe(true);
    expect(repeats(rules['server error'], { status: 599 })).toBe(true);
    expect(repeats(rules['server error'], { status: 429 })).toBe(false);
    expect(repeats(rules['gateway answer'], { status: 500 })).toBe(false);
    expect(repeats(rules['rate limited'], { status: 429 })).toBe(true);
    const reset = { error: 'DC_ERR_NETWORK', causes: ['UND_ERR_SOCKET', 'ECONNRESET'] };
    expect(repeats(rules['dropped connection'], reset)).toBe(true);
    expect(repeats(rules['dropped connection'], { error: 'DC_ERR_NETWORK', causes: ['ENOTFOUND'] })).toBe(false);
    expect(repeats(rules['dropped connection'], { error: 'DC_ERR_TIMEOUT', causes: [] })).toBe(false);
    expect(repeats(rules['network failure or timeout'], { error: 'DC_ERR_TIMEOUT', causes: [] })).toBe(true);
    expect(repeats(rules['network failure or timeout'], { error: 'DC_ERR_BODY_TOO_LARGE', causes: [] })).toBe(false);
  });

  test('every class repeats a 429 (it was not processed); reads and judged requests repeat a 500, once', () => {
    for (const name of REQUEST_CLASSES) {
      expect(RETRY_POLICY.classes[name].rules).toContain('rate limited');
      const repeatsA500 = name === 'read' || name.startsWith('judged');
      expect(RETRY_POLICY.classes[name].rules.includes('server error')).toBe(repeatsA500);
    }
    expect(RETRY_POLICY.rules['server error'].attempts).toBe(2);
  });

  test('a body cut short has its own rule: every class but plain mutations repeats it', () => {
    const { rules } = RETRY_POLICY;
    expect(repeats(rules['body cut short'], { error: 'DC_ERR_BODY_CUT', causes: [] })).toBe(true);
    expect(repeats(rules['body cut short'], { error: 'DC_ERR_NETWORK', causes: ['UND_ERR_SOCKET'] })).toBe(false);
    expect(repeats(rules['dropped connection'], { error: 'DC_ERR_BODY_CUT', causes: [] })).toBe(false);
    for (const name of REQUEST_CLASSES)
      expect(RETRY_POLICY.classes[name].rules.includes('body cut short')).toBe(name !== 'mutation');
  });
});
