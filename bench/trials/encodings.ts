/**
 * Encodings of a key: keys of any printable characters, drawn by the seed,
 * echoed by a careless server in a drawn set of encodings (typed,
 * JSON-escaped, percent-encoded three ways in either case, hex, base64 and
 * base64url of a text holding the key at a drawn offset), in headers, error
 * bodies and a redirect's Location. No form of either key reaches any report
 * file or either stream: each is scanned by decoding (test/helpers/key-leaks.ts).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { startHostileProxy } from '../../src/hostile-server/hostile-proxy.ts';
import { KEY_ENCODING_NAMES } from '../../src/hostile-server/key-encodings.ts';
import { keyLeaks } from '../../test/helpers/key-leaks.ts';
import { cli, startTarget, type TrialOutcome } from './harness.ts';

/** Printable ASCII without whitespace: a bearer credential ends at the first space. */
const keyChars = fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c));
const key = (prefix: string): fc.Arbitrary<string> =>
  fc.string({ unit: keyChars, minLength: 6, maxLength: 30 }).map((k) => `${prefix}${k}`);
const drawn = fc.record({
  apiKey: key('dcfull_'),
  restrictedApiKey: key('dcrestricted_'),
  encodings: fc.subarray([...KEY_ENCODING_NAMES], { minLength: 1 }),
  before: fc.string({ unit: keyChars, maxLength: 5 }),
});

/** A read-only rule, one that is refused (an error body), one that changes a resource (the journal). */
const RULES = ['list.resource-shape', 'auth.unknown-key-rejected', 'activity-rates.assign-no-content'];

export async function encodingTrial(seed: number, scratch: string): Promise<TrialOutcome> {
  const [draw] = fc.sample(drawn, { seed, numRuns: 1 });
  if (draw === undefined) throw new Error('fast-check drew nothing');
  const { apiKey, restrictedApiKey, encodings, before } = draw;
  const target = await startTarget(scratch, { seed, apiKey, restrictedApiKey });
  const proxy = await startHostileProxy({
    mode: 'echo-encodings',
    upstream: target.server.url,
    every: 4,
    // Preflight passes (its reads of the kinds, the resources and each attribute name); later, every 4th
    // answer is a redirect whose Location holds the key.
    after: 16,
    echo: { encodings, before, after: '"}' },
  });
  try {
    const reports = join(target.dir, 'reports');
    const run = await cli([
      'run',
      '--base-url',
      proxy.url,
      '--profile',
      target.profilePath,
      '--api-key',
      apiKey,
      '--restricted-api-key',
      restrictedApiKey,
      '--allow-mutations',
      '--rate',
      '0',
      '--seed',
      String(seed),
      '--reports',
      reports,
      ...RULES.flatMap((r) => ['--rule', r]),
    ]);
    const texts: Record<string, string> = { output: run.out };
    for (const f of await readdir(reports).catch(() => [])) texts[f] = await readFile(join(reports, f), 'utf8');
    const leaks = Object.entries(texts).flatMap(([name, text]) =>
      [apiKey, restrictedApiKey].flatMap((k) => keyLeaks(text, k).map((l) => `${name}: ${l}`)),
    );
    const results = texts['results.json'] ?? '';
    return {
      held: leaks.length === 0 && results !== '',
      // The echoes reached the transcripts, as placeholders: the scan looked where a key would be.
      reached: results.includes('x-echo-') && results.includes('$DIRECTORY_API_KEY'),
      detail: `${encodings.length} encoding(s) (${encodings.join(', ')}), ${Object.keys(texts).length} outputs scanned${
        results === '' ? ': no results.json' : ''
      }${leaks.length > 0 ? `: ${leaks.slice(0, 3).join('; ')}` : ''}`,
    };
  } finally {
    await proxy.close();
    await target.close();
  }
}
