/**
 * The last of a newcomer's mistakes told in one line, exit 2, rather than as
 * an internal error or the TLS library's words: a port out of range, a port
 * already taken (serve and proxy), and https:// against a server that speaks
 * plain HTTP.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../../src/cli/main.ts';

let busy: Server;
let busyPort = 0;

beforeAll(async () => {
  // A plain-HTTP server that answers anything: the port it holds is busy, and it speaks no TLS.
  busy = createServer((_req, res) => res.end('{}'));
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  busyPort = (busy.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

async function said(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await main(args, { out: (l) => lines.push(l), err: (l) => lines.push(l) }, env);
  return { code, lines };
}

describe('ports', () => {
  test.for([['serve'], ['proxy', '--upstream', 'http://127.0.0.1:9']])(
    '%s --port 99999: out of range, one line, exit 2',
    async (command) => {
      const { code, lines } = await said([...command, '--port', '99999']);
      expect(code).toBe(2);
      expect(lines).toEqual(['error: --port must be a TCP port, 0 to 65535 (0 picks a free one), got 99999']);
    },
  );

  test.for([['serve'], ['proxy', '--upstream', 'http://127.0.0.1:9']])(
    '%s on a port another process holds: one line naming it, exit 2',
    async (command) => {
      const { code, lines } = await said([...command, '--port', String(busyPort)]);
      expect(code).toBe(2);
      expect(lines).toEqual([
        `error: port ${busyPort} on 127.0.0.1 is in use: choose another --port (0 picks a free one)`,
      ]);
    },
  );
});

test('https:// against a server that answers plain HTTP: what to change, not the TLS internals', async () => {
  const profile = join(import.meta.dirname, '..', '..', 'fixtures', 'example-profile.json');
  const args = ['run', '--base-url', `https://127.0.0.1:${busyPort}`, '--profile', profile, '--read-only'];
  const { code, lines } = await said(args, { DIRECTORY_API_KEY: 'k' });
  expect(code).toBe(2);
  const text = lines.join('\n');
  expect(text).toContain('the server answered plain HTTP: use http://');
  expect(text).not.toMatch(/ssl|openssl|wrong version/i);
});
