import { defineConfig } from 'vitest/config';

// Tests that must not share the machine with other gate-check runs (see their headers): run
// one file at a time, after the main suite.
export default defineConfig({
  define: { __VERSION__: JSON.stringify('0.0.0-test') },
  test: {
    include: ['test/serial/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
