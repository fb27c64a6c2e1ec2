/**
 * The curl replay is proven by running it: a real shell parses the command and
 * a stand-in `curl` records the arguments it would get. The request must come
 * out byte for byte, with the key placeholders expanded by the shell and
 * nothing else expanded.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Exchange, RecordedRequest } from '../../src/core/exchange.ts';
import { quoteExpandingPlaceholders, toCurl } from '../../src/report/curl.ts';
import { fixtureRun, SECRET, TRICKY_REQUEST_BODY } from '../fixtures/run-result/fixture-run.ts';
import { captureCurl, hasBash, type CurlCall, type ShellMode } from './helpers/shell.ts';

const RESTRICTED_SECRET = 'dcrestricted_ALSO-NEVER-IN-A-REPORT';
const KEYS = { DIRECTORY_API_KEY: SECRET, DIRECTORY_RESTRICTED_API_KEY: RESTRICTED_SECRET };

function exchangeOf(request: Partial<RecordedRequest>): Exchange {
  return {
    operation: 'resources.list',
    request: {
      method: 'POST',
      url: 'http://127.0.0.1:8080/api/directory/resources.list',
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        authorization: 'Bearer $DIRECTORY_API_KEY',
      },
      body: '{}',
      ...request,
    },
    response: { status: 200, headers: {}, body: '[]', truncated: false },
    durationMs: 1,
    attempts: 1,
  };
}

/** What curl must receive for this request once the shell has expanded the placeholders. */
function expectedArgs(request: RecordedRequest): { args: string[]; stdin: string | undefined } {
  const expand = (text: string): string =>
    text
      .replace(/\$DIRECTORY_RESTRICTED_API_KEY/g, RESTRICTED_SECRET)
      .replace(/\$DIRECTORY_API_KEY(?![A-Za-z0-9_])/g, SECRET);
  const args = ['-sS', '-i', '-X', 'POST', request.url];
  const names = Object.keys(request.headers).map((n) => n.toLowerCase());
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.toLowerCase() === 'accept-encoding') args.push('--compressed');
    else args.push('-H', expand(value.trim() === '' ? `${name};` : `${name}: ${value}`));
  }
  if (!names.includes('accept')) args.push('-H', 'Accept:');
  if (!names.includes('content-type')) args.push('-H', 'Content-Type:');
  const binary = request.body.includes('\0');
  args.push(...(binary ? ['--data-binary', '@-'] : ['--data-raw', request.body]));
  return { args, stdin: binary ? request.body : undefined };
}

function decoded(call: CurlCall): { args: string[]; stdin: string | undefined } {
  return { args: call.args.map((b) => b.toString('utf8')), stdin: call.stdin?.toString('utf8') };
}

async function replays(request: RecordedRequest, mode: ShellMode = 'posix'): Promise<void> {
  const call = await captureCurl(toCurl(exchangeOf(request)), KEYS, mode);
  expect(decoded(call)).toEqual(expectedArgs(request));
}

describe('toCurl', () => {
  test('reads as a curl command with the key as a shell variable in double quotes and the body in single quotes', () => {
    const cmd = toCurl(fixtureRun().results[1]!.exchanges[1]!);
    expect(cmd.startsWith("curl -sS -i -X POST 'http://127.0.0.1:8080/api/directory/resources.list'")).toBe(true);
    expect(cmd).toContain('-H "authorization: Bearer $DIRECTORY_API_KEY"');
    expect(cmd).toContain(`--data-raw '{"kind_id":"1","note":"it'\\''s $HOME`);
    expect(cmd).not.toContain(SECRET);
  });

  test('the fixture exchanges replay byte for byte, keys expanded by the shell', async () => {
    for (const e of fixtureRun().results.flatMap((r) => r.exchanges)) await replays(e.request);
  });

  test('the restricted placeholder survives and expands too', async () => {
    const request = fixtureRun().results[1]!.exchanges[0]!.request;
    expect(toCurl(exchangeOf(request))).toContain('"authorization: Bearer $DIRECTORY_RESTRICTED_API_KEY"');
    const call = decoded(await captureCurl(toCurl(exchangeOf(request)), KEYS));
    expect(call.args).toContain(`authorization: Bearer ${RESTRICTED_SECRET}`);
  });

  test('a request without Content-Type replays without one (curl would add its own)', async () => {
    const request = exchangeOf({ headers: { authorization: 'Bearer $DIRECTORY_API_KEY' } }).request;
    expect(toCurl(exchangeOf(request))).toContain("-H 'Content-Type:'");
    await replays(request);
  });

  test('the Accept-Encoding the client sent becomes --compressed: the replay prints the answer decoded', async () => {
    const request = exchangeOf({
      headers: {
        accept: 'application/json',
        'accept-encoding': 'gzip, deflate, br',
        'content-type': 'application/json',
      },
    }).request;
    const command = toCurl(exchangeOf(request));
    expect(command).toContain('--compressed');
    expect(command).not.toContain('accept-encoding');
    await replays(request);
  });

  test('an empty header value is sent, not dropped', async () => {
    const request = exchangeOf({
      headers: { authorization: '', 'content-type': 'application/json', accept: '*/*' },
    }).request;
    expect(toCurl(exchangeOf(request))).toContain("-H 'authorization;'");
    await replays(request);
  });

  test('a header mixing a placeholder with shell-active characters expands the placeholder only', async () => {
    await replays(
      exchangeOf({
        headers: {
          authorization: 'Bearer $DIRECTORY_API_KEY',
          'x-note': `"$HOME" \`id\` \\ ! $DIRECTORY_API_KEY_X $DIRECTORY_API_KEY's`,
        },
      }).request,
    );
  });

  test('a body with NUL goes through printf and stdin, byte for byte', async () => {
    const request = exchangeOf({ body: '{"a":"x\u0000y\\0000z"}\u0000' }).request;
    const cmd = toCurl(exchangeOf(request));
    expect(cmd).not.toContain('\u0000');
    expect(cmd).toMatch(/^printf '%b' '.*' \| curl /);
    await replays(request);
  });

  test.skipIf(!hasBash)(
    'pasted into an interactive bash ("!" expands history there), the replay is the same',
    async () => {
      const request = exchangeOf({
        body: TRICKY_REQUEST_BODY,
        headers: { authorization: 'Bearer $DIRECTORY_API_KEY', 'x-note': 'wow! !! $DIRECTORY_API_KEY !x' },
      }).request;
      await replays(request, 'interactive-bash');
    },
  );

  test('any body, URL and header values replay exactly', async () => {
    const headerValue = fc.oneof(
      fc.string({ unit: 'binary-ascii' }).map((s) => s.replace(/[\0\r\n]/g, '')),
      fc.constantFrom(
        'Bearer $DIRECTORY_API_KEY',
        'Bearer $DIRECTORY_RESTRICTED_API_KEY',
        `x'$DIRECTORY_API_KEY"!`,
        '$DIRECTORY_API_KEYS',
      ),
    );
    const request = fc.record({
      url: fc
        .string({ unit: 'binary-ascii' })
        .map((s) => `http://127.0.0.1:8080/api/directory/${s.replace(/\0/g, '')}`),
      headers: fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/), headerValue, { maxKeys: 4 }),
      body: fc.string({ unit: 'binary' }),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        await replays({ method: 'POST', ...r });
      }),
      { numRuns: 60 },
    );
  });
});

describe('quoteExpandingPlaceholders', () => {
  test('text without a placeholder is single-quoted', () => {
    expect(quoteExpandingPlaceholders(`a "b" $c`)).toBe(`'a "b" $c'`);
  });

  test('a longer variable name is not a placeholder', () => {
    expect(quoteExpandingPlaceholders('$DIRECTORY_API_KEY_OTHER')).toBe(`'$DIRECTORY_API_KEY_OTHER'`);
  });
});
