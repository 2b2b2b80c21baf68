import { availableParallelism } from 'node:os';
import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

// The app formats numbers and dates in the user's locale (src/features/records/format.ts); tests read
// them in en-US ("1,234.50", "Mar 7, 2024") whatever the machine's language. The test
// workers are child processes: they take their ICU default locale from this environment.
process.env.LC_ALL = 'en_US.UTF-8';

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      environment: 'jsdom',
      // Child processes (not threads), so the locale above is theirs.
      pool: 'forks',
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
