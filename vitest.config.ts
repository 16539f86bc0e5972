import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one on the 2-core machines this runs on. Most files
    // wait on child processes, servers and Chromium rather than compute, so two at once finish the suite in
    // about three quarters of the time (README, "Tests").
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
