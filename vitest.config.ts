import { defineConfig } from 'vitest/config';

// The project's own tests (`npm test`). The conformance run itself is driven by the CLI
// (src/cli), which executes the rule catalogue through src/runner;
// test/conformance.test.ts also exposes the catalogue as one vitest test per rule.
// The full proof (every rule against every fault, ten seeds, both timings) is
// test/proof/, run by `npm run proof` (vitest.proof.config.ts); `npm test` proves
// every fault by the rules its traffic reaches (test/mutation/quick-proof.test.ts).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/proof/**', '**/node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most files wait on sockets and timers far more than they compute, so two
    // run side by side even on two cores (vitest's default there is one).
    maxWorkers: 2,
  },
});
