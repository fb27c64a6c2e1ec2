import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { UsageError } from '../../src/core/errors.ts';
import { shareOf } from '../../src/session/run-session.ts';
import { alive, lockTarget, networkKeys, resourceLockPaths, targetKey } from '../../src/session/target-lock.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dc-lock-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const STAGING = 'http://staging.example';

describe('one run at a time per resource of a target', () => {
  test('a second run is refused, naming the first and the resources both would change; released, it is free again', async () => {
    const first = await lockTarget(STAGING, ['1', '2'], { wait: false, dir });
    await expect(lockTarget(STAGING, ['1', '2'], { wait: false, dir })).rejects.toThrow(
      `another run (process ${process.pid}, since `,
    );
    await first.release();
    const again = await lockTarget(STAGING, ['1', '2'], { wait: false, dir });
    await again.release();
    expect(await readdir(dir)).toEqual([]);
  });

  test('a conflict over many resources names the first few and how many more, on one short line', async () => {
    const ids = Array.from({ length: 66 }, (_, i) => String(100 + i));
    const first = await lockTarget(STAGING, ids, { wait: false, dir });
    const error = await lockTarget(STAGING, ids, { wait: false, dir }).then(
      () => undefined,
      (e: unknown) => (e instanceof Error ? e : undefined),
    );
    await first.release();
    expect(error?.message).toContain('is changing resource(s) 100, 101, 102, 103, 104 and 61 more (66 in all) of ');
    expect(error?.message).not.toContain('165');
    expect(error?.message.length).toBeLessThan(250);
  });

  test('the same target written differently is one target: trailing slash, case of the host, default port', async () => {
    expect(targetKey('HTTP://Staging.Example:80/api/')).toBe('http://staging.example/api');
    expect(targetKey('http://staging.example//')).toBe(STAGING);
    expect(targetKey('https://staging.example:443/x/?q=1#f')).toBe('https://staging.example/x');
    const first = await lockTarget(`${STAGING}/`, ['5'], { wait: false, dir });
    await expect(lockTarget('http://STAGING.example', ['5'], { wait: false, dir })).rejects.toThrow(
      'is changing resource(s) 5 of http://staging.example',
    );
    await first.release();
    // A different path is a different target.
    expect(await resourceLockPaths(`${STAGING}/v2`, '5', dir)).not.toEqual(await resourceLockPaths(STAGING, '5', dir));
  });

  test('overlapping sets conflict (naming only the shared resources) and take nothing; disjoint sets go side by side', async () => {
    const full = await lockTarget(STAGING, ['10', '11', '12', '13'], { wait: false, dir });
    const error = await lockTarget(STAGING, ['12', '20'], { wait: false, dir }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(/is changing resource\(s\) 12 of http:\/\/staging\.example:/);
    // All or nothing: the refused run holds none of its resources, not even the free one.
    const free = await lockTarget(STAGING, ['20'], { wait: false, dir });
    await free.release();
    await full.release();

    const shard1 = await lockTarget(STAGING, shareOf(['30', '31', '32', '33'], 1, 2), { wait: false, dir });
    const shard2 = await lockTarget(STAGING, shareOf(['30', '31', '32', '33'], 2, 2), { wait: false, dir });
    await expect(lockTarget(STAGING, ['30', '31', '32', '33'], { wait: false, dir })).rejects.toThrow('another run');
    await shard1.release();
    await shard2.release();
  });

  test('with wait, the second run starts when the first ends', async () => {
    const first = await lockTarget(STAGING, ['3', '4'], { wait: false, dir });
    let taken = false;
    const second = lockTarget(STAGING, ['4', '40'], { wait: true, pollMs: 10, dir }).then((l) => ((taken = true), l));
    await new Promise((r) => setTimeout(r, 50));
    expect(taken).toBe(false);
    await first.release();
    await (await second).release();
    expect(taken).toBe(true);
  });

  test('a lock whose process is gone is taken over (one written before locks named their target too)', async () => {
    const gone = { pid: 2 ** 22 + 12345, since: '2026-01-01T00:00:00Z', resource: '6', resources: ['6'] };
    for (const path of await resourceLockPaths(STAGING, '6', dir)) await writeFile(path, JSON.stringify(gone));
    const lock = await lockTarget(STAGING, ['6', '7'], { wait: false, dir });
    await lock.release();
    expect(await readdir(dir)).toEqual([]);
  });

  test('a lock file that is not one is named and left alone, and what was taken before it is given back', async () => {
    // Written whole before it is linked into place, a lock of this tool is never empty: this one is another's.
    const [path = ''] = await resourceLockPaths(STAGING, '9', dir);
    await writeFile(path, '');
    const error: unknown = await lockTarget(STAGING, ['8', '9'], { wait: false, dir }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UsageError);
    expect(String(error)).toContain(`lock file ${path}: not JSON`);
    expect(await readdir(dir)).toEqual([basename(path)]);
    await rm(path);
  });
});

describe('the target as the network sees it', () => {
  test("localhost, 127.0.0.1, ::1 and this machine's own addresses are one target; the port and the path still count", async () => {
    const keys = await Promise.all(
      [
        'http://localhost:8080',
        'http://127.0.0.1:8080/',
        'http://[::1]:8080',
        'http://127.0.0.2:8080',
        'http://0.0.0.0:8080',
      ].map(networkKeys),
    );
    for (const k of keys) expect(k).toEqual(['local 8080']);
    expect(await networkKeys('http://localhost:8081')).toEqual(['local 8081']);
    expect(await networkKeys('http://localhost:8080/v2/')).toEqual(['local 8080/v2']);
    expect(await networkKeys('https://192.0.2.7')).toEqual(['192.0.2.7 443']);
  });

  test('a run against http://127.0.0.1:P refuses one against http://localhost:P in one line naming both spellings', async () => {
    const first = await lockTarget('http://127.0.0.1:8090', ['1'], { wait: false, dir });
    const refusal = await lockTarget('http://localhost:8090/', ['1', '2'], { wait: false, dir }).then(
      () => undefined,
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    );
    await first.release();
    expect(refusal).toMatch(
      /^another run \(process \d+, since .*\) is changing resource\(s\) 1 of http:\/\/localhost:8090 \(the same server as its http:\/\/127\.0\.0\.1:8090\): wait for it/,
    );
    expect(refusal).not.toContain('\n');
    expect(await readdir(dir)).toEqual([]);
  });

  test.runIf(process.platform === 'linux')(
    'a holder that has exited but is not yet reaped (a zombie) holds nothing',
    async () => {
      // The shell becomes `sleep 30`, which never reaps the `sleep 0.2` it started: that one ends a zombie.
      const shell = spawn('sh', ['-c', 'sleep 0.2 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
      try {
        const pid = Number(
          await new Promise<string>((resolve) => shell.stdout.once('data', (d: Buffer) => resolve(String(d)))),
        );
        const state = (): string =>
          readFileSync(`/proc/${pid}/stat`, 'utf8')
            .replace(/^.*\) /s, '')
            .charAt(0);
        for (let i = 0; i < 500 && state() !== 'Z'; i++) await new Promise((r) => setTimeout(r, 10));
        expect(state()).toBe('Z');
        expect(alive(pid)).toBe(false);
        const zombie = { pid, since: '2026-01-01T00:00:00Z', resource: '8', resources: ['8'] };
        for (const path of await resourceLockPaths(STAGING, '8', dir)) await writeFile(path, JSON.stringify(zombie));
        const lock = await lockTarget(STAGING, ['8'], { wait: false, dir });
        await lock.release();
      } finally {
        shell.kill();
      }
    },
  );
});

test('shards split the mutable resources: disjoint shares that cover them all', () => {
  const resources = Array.from({ length: 11 }, (_, i) => `r${i}`);
  const shares = [1, 2, 3].map((i) => shareOf(resources, i, 3));
  expect(shares.flat().sort()).toEqual([...resources].sort());
  expect(new Set(shares.flat()).size).toBe(resources.length);
  expect(shares.every((s) => s.length >= 3)).toBe(true);
});

test('restore takes the same lock: it refuses in one line while a run holds a resource it would put back', async () => {
  const journal = join(dir, 'journal.jsonl');
  const lines = [
    { event: 'run', at: '2026-01-01T00:00:00Z', baseUrl: 'http://127.0.0.1:8095', serviceVersion: '26.06.25' },
    {
      event: 'changing',
      at: '2026-01-01T00:00:01Z',
      ruleId: 'r',
      resourceId: '9',
      state: { resourceId: '9' },
      undo: [],
    },
  ];
  await writeFile(journal, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  const run = await lockTarget('http://localhost:8095', ['9'], { wait: false, dir: tmpdir() });
  let out = '';
  try {
    const code = await main(['restore', journal, '--api-key', 'k3y-of-the-run'], {
      out: (l) => (out += `${l}\n`),
      err: (l) => (out += `${l}\n`),
    });
    expect(code).toBe(2);
  } finally {
    await run.release();
    await rm(journal);
  }
  expect(out.trim().split('\n')).toHaveLength(1);
  expect(out).toMatch(
    /another run \(process \d+, since .*\) is changing resource\(s\) 9 of http:\/\/127\.0\.0\.1:8095 \(the same server as its http:\/\/localhost:8095\): let it end/,
  );
});
