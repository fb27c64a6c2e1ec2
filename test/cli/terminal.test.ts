import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { colourEnabled, cursorControlEnabled, painter } from '../../src/cli/terminal.ts';
import { startReferenceServer } from '../../src/reference-server/index.ts';
import { classname } from '../../src/report/junit.ts';

const exec = promisify(execFile);
const ESC = '\x1b[';

describe('terminal conventions', () => {
  test.each([
    [true, {}, true],
    [false, {}, false],
    [true, { TERM: 'dumb' }, false],
    [true, { NO_COLOR: '1' }, false],
    [true, { NO_COLOR: '' }, true],
    [false, { FORCE_COLOR: '1' }, true],
    [false, { FORCE_COLOR: '0' }, false],
    [true, { FORCE_COLOR: 'false' }, false],
    [false, { FORCE_COLOR: '1', NO_COLOR: '1' }, false],
  ] as const)('colour on a terminal %s with %o: %s', (isTTY, env, expected) => {
    expect(colourEnabled({ isTTY, env })).toBe(expected);
  });

  test('cursor control only on a terminal whose TERM is not dumb', () => {
    expect(cursorControlEnabled({ isTTY: true, env: {} })).toBe(true);
    expect(cursorControlEnabled({ isTTY: true, env: { TERM: 'dumb' } })).toBe(false);
    expect(cursorControlEnabled({ isTTY: false, env: { FORCE_COLOR: '1' } })).toBe(false);
    expect(painter(false)('FAIL', 'fail')).toBe('FAIL');
    expect(painter(true)('FAIL', 'fail')).toBe(`${ESC}31mFAIL${ESC}0m`);
  });

  async function cli(env: NodeJS.ProcessEnv): Promise<string> {
    const { stdout } = await exec(
      process.execPath,
      ['bin/directory-conformance.mjs', 'run', '--rule', 'list.kind-id-required', '--reports', '.tmp/terminal-test'],
      { env: { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, ...env } },
    );
    return stdout;
  }

  test('piped output has no escape codes; FORCE_COLOR colours it; NO_COLOR wins', async () => {
    expect(await cli({})).not.toContain(ESC);
    expect(await cli({ FORCE_COLOR: '1' })).toContain(`${ESC}32mCONFORMANT${ESC}0m`);
    expect(await cli({ FORCE_COLOR: '1', NO_COLOR: '1' })).not.toContain(ESC);
  }, 30_000);

  test('serve --list names the faults and the variants; run --help and serve --help point at it', async () => {
    let out = '';
    await main(['serve', '--list'], { out: (l) => (out += `${l}\n`), err: () => undefined });
    expect(out).toMatch(/^ {2}revoke-star-removes-role {2}\(§4\.1[^)]*\) \S/m);
    expect(out).toMatch(/^ {2}exclusive-end {2}\S/m);
    for (const command of ['run', 'serve']) {
      let help = '';
      await main([command, '--help'], { out: (l) => (help += `${l}\n`), err: () => undefined });
      expect(help, command).not.toContain('revoke-star-removes-role');
      expect(help.split('\n').length, command).toBeLessThanOrEqual(81);
    }
  });

  test('serve takes fixed keys', async () => {
    const server = await startReferenceServer({
      apiKey: 'fixed-key-123456',
      restrictedApiKey: 'fixed-restricted-654321',
    });
    try {
      expect([server.apiKey, server.restrictedApiKey]).toEqual(['fixed-key-123456', 'fixed-restricted-654321']);
      const res = await fetch(`${server.url}/api/directory/resources.list`, {
        method: 'POST',
        headers: {
          authorization: 'Bearer fixed-key-123456',
          'content-type': 'application/json',
          'service-version': '26.06.25',
        },
        body: JSON.stringify({ kind_id: server.profile.listKindId, pagination: { limit: 1, next_token: null } }),
      });
      expect(res.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  test('JUnit classnames have no dot for CI tools to split at', () => {
    expect(classname({ section: '§4.9', group: 'Pagination protocol' })).toBe('§4-9 Pagination protocol');
  });
});
