import { availableParallelism } from 'node:os';
import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      environment: 'jsdom',
      // Unit tests only; the Playwright suite in e2e/ has its own runner.
      include: ['src/**/*.test.{ts,tsx}'],
      setupFiles: ['src/test/setup.ts'],
      restoreMocks: true,
      css: false,
      // One test file per core (the default leaves one core idle: on a 2-core CI machine
      // the suite ran in one process, 3.0 min; 2.0 with two).
      maxWorkers: availableParallelism(),
      // A worker runs its test files in one environment, importing the modules once: 51 s
      // for the suite instead of 100–165 s, most of it setting up jsdom and importing again
      // for every file. src/test/setup.ts puts shared module state back after each test.
      isolate: false,
    },
  }),
);
