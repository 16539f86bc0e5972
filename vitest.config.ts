import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    // Two test files at a time on a 2-core machine (vitest's default there is one): most wait on I/O.
    maxWorkers: 2,
    // Generous: tests that start processes take 8–10 s here, and this shared machine has hours when
    // everything runs three times slower (2026-11-27: SHA-256 at half speed, three such tests past 30 s).
    // Tests assert counts, never times; a timeout only ends a test that hangs.
    testTimeout: 90_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
