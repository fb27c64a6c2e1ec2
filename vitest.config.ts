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
    // Most files wait on sockets and timers far more than they compute, so
    // three run side by side even on two cores (vitest's default there is one).
    maxWorkers: 3,
    // A worker keeps its loaded modules from one file to the next: importing the
    // engine, the catalogue and the reference server again for each of 160 files
    // cost about a fifth of the run. No test relies on a fresh module state (each
    // starts its own servers and passes its own options; none mocks a module).
    isolate: false,
    // What a test stubs in the environment goes back after it, so the next file a worker runs sees none of it.
    unstubEnvs: true,
  },
});
