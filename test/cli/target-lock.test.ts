import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { UsageError } from '../../src/core/errors.ts';
import { shareOf } from '../../src/session/run-session.ts';
import { lockTarget, resourceLockPath, targetKey } from '../../src/session/target-lock.ts';

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
    expect(resourceLockPath(`${STAGING}/v2`, '5', dir)).not.toBe(resourceLockPath(STAGING, '5', dir));
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
    await writeFile(
      resourceLockPath(STAGING, '6', dir),
      JSON.stringify({ pid: 2 ** 22 + 12345, since: '2026-01-01T00:00:00Z', resource: '6', resources: ['6'] }),
    );
    const lock = await lockTarget(STAGING, ['6', '7'], { wait: false, dir });
    await lock.release();
    expect(await readdir(dir)).toEqual([]);
  });

  test('a lock file that is not one is named and left alone, and what was taken before it is given back', async () => {
    // Written whole before it is linked into place, a lock of this tool is never empty: this one is another's.
    const path = resourceLockPath(STAGING, '9', dir);
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

test('shards split the mutable resources: disjoint shares that cover them all', () => {
  const resources = Array.from({ length: 11 }, (_, i) => `r${i}`);
  const shares = [1, 2, 3].map((i) => shareOf(resources, i, 3));
  expect(shares.flat().sort()).toEqual([...resources].sort());
  expect(new Set(shares.flat()).size).toBe(resources.length);
  expect(shares.every((s) => s.length >= 3)).toBe(true);
});
