import { defineConfig } from 'vitest/config';

// The project's own tests. The conformance run itself is driven by the CLI
// (src/cli), which executes the rule catalogue through src/runner;
// test/conformance.test.ts also exposes the catalogue as one vitest test per rule.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most files wait on sockets and timers far more than they compute, so two
    // run side by side even on two cores (vitest's default there is one).
    maxWorkers: 2,
  },
});
