import { defineConfig } from 'vitest/config';

// The project's own tests. The conformance run itself is driven by the CLI
// (src/cli), which executes the rule catalogue through src/runner.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});
