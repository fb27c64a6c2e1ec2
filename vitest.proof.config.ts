import { defineConfig } from 'vitest/config';

// The full proof (`npm run proof`, run by .ci/run after `npm test`): every rule
// of the catalogue against every fault of the reference server, the faults of
// time and of rare departures at ten seeds and under both timings, the
// concurrent rules at ten seeds (test/properties/concurrent.test.ts runs three
// in `npm test`) and every reproducer row (test/report/reproducer.test.ts runs
// every third in `npm test`), every wire habit and every two-party seed
// (`npm test` tries fewer of each); `inject('proof')` tells them which.
export default defineConfig({
  test: {
    include: [
      'test/proof/**/*.test.ts',
      'test/properties/concurrent.test.ts',
      'test/report/reproducer.test.ts',
      'test/safety/wire-habits.test.ts',
      'test/safety/two-parties.test.ts',
    ],
    provide: { proof: true },
    testTimeout: 300_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    // Each case is a whole catalogue run, busy rather than waiting (the embedded timing's windows are
    // short): two at a time in a worker keep every request answered well within the stale window.
    maxConcurrency: 2,
  },
});
