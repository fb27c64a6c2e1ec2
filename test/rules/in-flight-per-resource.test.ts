/**
 * The bound on requests at once per resource: past it a request waits for
 * one on the same resource to be answered (first come, first served); other
 * resources are not held up; a request that fails frees its place too.
 */
import { expect, test } from 'vitest';
import { InFlightPerResource, MAX_IN_FLIGHT_PER_RESOURCE } from '../../src/rules/in-flight-per-resource.ts';

/** A request whose answer comes when the test says, counting how many are in flight per resource. */
function harness() {
  const inFlight = new Map<string, number>();
  const peak = new Map<string, number>();
  const pending: Array<{ resource: string; index: number; answer: (ok: boolean) => void }> = [];
  const started: string[] = [];
  const request = (resource: string, index: number) => () => {
    const n = (inFlight.get(resource) ?? 0) + 1;
    inFlight.set(resource, n);
    peak.set(resource, Math.max(peak.get(resource) ?? 0, n));
    started.push(`${resource}${index}`);
    return new Promise<string>((resolve, reject) => {
      pending.push({
        resource,
        index,
        answer: (ok) => {
          inFlight.set(resource, (inFlight.get(resource) ?? 1) - 1);
          if (ok) resolve(`${resource}${index}`);
          else reject(new Error(`${resource}${index} failed`));
        },
      });
    });
  };
  return { peak, pending, started, request };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test(`at most ${MAX_IN_FLIGHT_PER_RESOURCE} requests at once on a resource, the next sent as one is answered, in order`, async () => {
  const limit = new InFlightPerResource();
  const { peak, pending, started, request } = harness();
  const answers = Array.from({ length: 10 }, (_, i) => limit.send('a', request('a', i)));
  await settle();
  expect(started).toEqual(['a0', 'a1', 'a2', 'a3']);
  while (pending.length > 0) {
    pending.shift()?.answer(true);
    await settle();
  }
  expect(await Promise.all(answers)).toEqual(Array.from({ length: 10 }, (_, i) => `a${i}`));
  expect(started).toEqual(Array.from({ length: 10 }, (_, i) => `a${i}`));
  expect(peak.get('a')).toBe(MAX_IN_FLIGHT_PER_RESOURCE);
});

test('another resource is not held up, and a request that fails frees its place', async () => {
  const limit = new InFlightPerResource(2);
  const { pending, started, request } = harness();
  const a = [0, 1, 2].map((i) => limit.send('a', request('a', i)));
  const b = limit.send('b', request('b', 0));
  await settle();
  expect(started).toEqual(['a0', 'a1', 'b0']);
  pending.find((p) => p.resource === 'a' && p.index === 0)?.answer(false);
  await expect(a[0]).rejects.toThrow('a0 failed');
  await settle();
  expect(started).toEqual(['a0', 'a1', 'b0', 'a2']);
  for (const p of pending.filter((x) => x.index > 0 || x.resource === 'b')) p.answer(true);
  expect(await Promise.all([a[1], a[2], b])).toEqual(['a1', 'a2', 'b0']);
});

test('a bound under one is refused', () => {
  expect(() => new InFlightPerResource(0)).toThrow(RangeError);
});
