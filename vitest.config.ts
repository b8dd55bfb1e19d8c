import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Most test time is waiting (child processes, Redis, Chromium), so two files at once on 2 cores roughly halves
// the run (511 s → 306 s measured); BATON_TEST_WORKERS overrides it.
const workers = Number(process.env.BATON_TEST_WORKERS) || Math.max(2, availableParallelism() - 1);

export default defineConfig({
  test: {
    include: [
      'test/unit/**/*.test.ts',
      'test/integration/**/*.test.ts',
      'test/e2e/**/*.test.ts',
      'test/browser/**/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Every Lua script call proves its keys share one hash slot (core/key-layout.ts), as a Redis Cluster needs.
    env: { BATON_SLOT_CHECK: '1' },
    maxWorkers: workers,
  },
});
