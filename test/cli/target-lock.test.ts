import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { shareOf } from '../../src/session/run-session.ts';
import { lockPath, lockTarget } from '../../src/session/target-lock.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dc-lock-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('one run at a time per target', () => {
  test('a second run is refused, naming the first; released, it is free again', async () => {
    const path = lockPath('http://staging.example', ['1', '2'], dir);
    const first = await lockTarget(path, { wait: false });
    await expect(lockTarget(path, { wait: false })).rejects.toThrow(`process ${process.pid}`);
    await first.release();
    const again = await lockTarget(path, { wait: false });
    await again.release();
  });

  test('with wait, the second run starts when the first ends', async () => {
    const path = lockPath('http://staging.example', ['3'], dir);
    const first = await lockTarget(path, { wait: false });
    let taken = false;
    const second = lockTarget(path, { wait: true, pollMs: 10 }).then((l) => ((taken = true), l));
    await new Promise((r) => setTimeout(r, 50));
    expect(taken).toBe(false);
    await first.release();
    await (await second).release();
    expect(taken).toBe(true);
  });

  test('a lock whose process is gone is taken over', async () => {
    const path = lockPath('http://staging.example', ['4'], dir);
    await writeFile(path, JSON.stringify({ pid: 2 ** 22 + 12345, since: '2026-01-01T00:00:00Z' }));
    const lock = await lockTarget(path, { wait: false });
    await lock.release();
  });

  test('another target or other resources take another lock', () => {
    const a = lockPath('http://staging.example', ['1', '2'], dir);
    expect(lockPath('http://staging.example', ['2', '1'], dir)).toBe(a);
    expect(lockPath('http://other.example', ['1', '2'], dir)).not.toBe(a);
    expect(lockPath('http://staging.example', ['1'], dir)).not.toBe(a);
  });
});

test('shards split the mutable resources: disjoint shares that cover them all', () => {
  const resources = Array.from({ length: 11 }, (_, i) => `r${i}`);
  const shares = [1, 2, 3].map((i) => shareOf(resources, i, 3));
  expect(shares.flat().sort()).toEqual([...resources].sort());
  expect(new Set(shares.flat()).size).toBe(resources.length);
  expect(shares.every((s) => s.length >= 3)).toBe(true);
});
