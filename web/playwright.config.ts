import { defineConfig, devices } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// End-to-end tests run against the real binary (`make build` embeds web/dist into
// bin/portico) in Debian's Chromium; `npx playwright install` is never used.
const ADDR = '127.0.0.1:18080';
const baseURL = `http://${ADDR}`;

// A fresh, empty data directory per run. The config is evaluated by the runner and again
// in each worker; workers inherit the runner's environment, so they all see the same dir.
// e2e/global-teardown.ts removes it.
process.env.PORTICO_E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'portico-e2e-'));

export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results/playwright',
  globalTeardown: './e2e/global-teardown.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1280, height: 800 },
        launchOptions: {
          executablePath: '/usr/bin/chromium',
          args: [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        },
      },
    },
  ],
  webServer: {
    command: '../bin/portico serve',
    url: `${baseURL}/api/v1/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORTICO_ADDR: ADDR,
      PORTICO_DATA_DIR: process.env.PORTICO_E2E_DATA_DIR,
      PORTICO_LOG_FORMAT: 'json',
    },
  },
});
