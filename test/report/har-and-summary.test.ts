import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../../src/cli/main.ts';
import schema from '../fixtures/har-1.2.schema.json' with { type: 'json' };

let dir: string;
let out = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dc-har-'));
  const io = { out: (l: string) => (out += `${l}\n`), err: (l: string) => (out += `${l}\n`) };
  await main(
    ['run', '--fault', 'revoke-star-removes-role', '--section', '4.1', '--reports', dir, '--num-runs', '3'],
    io,
  );
}, 60_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('exchanges.har', () => {
  test('is HAR 1.2 with every exchange of the run, redacted', async () => {
    const text = await readFile(join(dir, 'exchanges.har'), 'utf8');
    const har = JSON.parse(text) as {
      log: { entries: Array<{ comment: string; request: { headers: unknown }; _shared?: true }> };
    };
    const validate = new Ajv2020({ strict: false }).compile(schema);
    expect(validate(har), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    const results = JSON.parse(await readFile(join(dir, 'results.json'), 'utf8')) as {
      results: Array<{ requestCount: number }>;
    };
    const requests = results.results.reduce((n, r) => n + r.requestCount, 0);
    // Every exchange (an exchange may hold retried attempts), not the transcripts the report keeps.
    expect(har.log.entries.length).toBeGreaterThan(50);
    // A read shared between rules is listed again for each rule that used it, marked: it was sent once.
    expect(har.log.entries.filter((e) => e._shared !== true).length).toBeLessThanOrEqual(requests);
    expect(text).toContain('Bearer $DIRECTORY_API_KEY');
    expect(text).not.toMatch(/Bearer dcfull_/);
  });

  test('every entry is tagged with the rule that sent it, and the steps that name themselves with theirs', async () => {
    const har = JSON.parse(await readFile(join(dir, 'exchanges.har'), 'utf8')) as {
      log: { entries: Array<{ _rule?: string; _step?: string; request: { url: string } }> };
    };
    const entries = har.log.entries;
    expect(entries.every((e) => typeof e._rule === 'string' && e._rule.startsWith('revoke-roles.'))).toBe(true);
    // The list-roles step names every read it makes.
    const listRoles = entries.filter((e) => e.request.url.endsWith('/resources.list-roles'));
    expect(listRoles.length).toBeGreaterThan(0);
    expect(listRoles.every((e) => typeof e._step === 'string' && e._step.length > 0)).toBe(true);
  });
});

describe('summary.md', () => {
  test('says the verdict, the figures, and each failure with its rule, clause and why', async () => {
    const md = await readFile(join(dir, 'summary.md'), 'utf8');
    expect(md).toMatch(/^## Directory conformance: ❌ not conformant/);
    expect(md).toMatch(/\| \d+\.\d% of MUST rules that ran \| \d+\.\d% \|/);
    expect(md).toMatch(
      /\| FAIL \| `revoke-roles\.star-leaves-no-team` \| §4\.1 rule 5 \| list-roles after: must still show/,
    );
  });
});
