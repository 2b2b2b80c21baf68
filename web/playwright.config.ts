import { defineConfig, devices } from '@playwright/test';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// End-to-end tests run against the real binary (`make build` embeds web/dist into
// bin/portico) in Debian's Chromium; `npx playwright install` is never used. The Firebase
// Auth Emulator is up for the whole run (`make test-e2e` wraps it in scripts/with-emulator.sh).
// The servers listen from PORTICO_E2E_PORT_BASE (default 18080) up, so two runs can share a machine.
const PORT_BASE = Number(process.env.PORTICO_E2E_PORT_BASE ?? 18080);
const addr = (offset: number) => `127.0.0.1:${PORT_BASE + offset}`;
const MAIN_ADDR = addr(0);
// A second server whose access tokens live 1 minute (the shortest it accepts), for the keep-alive test.
const KEEPALIVE_ADDR = addr(1);
const EMULATOR_HOST = process.env.FIREBASE_AUTH_EMULATOR_HOST ?? '127.0.0.1:9099';
// NetSuite mode (erp.spec.ts): a fake NetSuite account (cmd/netsuite-fake, in memory, 30
// records per kind) and a portal server that syncs from it every 2 s. That server is not
// seeded: its records come from the account; its access from internal/demo/access.yaml.
const ERP_ADDR = addr(2);
// Two companies on one deployment (tenants.spec.ts), each at its own host name: the demo
// company at riverbend.localhost, a second one (fewer records) at kestrel.localhost.
// Chromium resolves every *.localhost name to the loopback address.
const TENANTS_PORT = PORT_BASE + 3;
export const COMPANIES = {
  riverbend: { url: `http://riverbend.localhost:${TENANTS_PORT}`, projects: 20 },
  kestrel: { url: `http://kestrel.localhost:${TENANTS_PORT}`, projects: 8, name: 'Kestrel Consulting' },
  unknown: { url: `http://nobody.localhost:${TENANTS_PORT}` },
};
const NETSUITE_ADDR = addr(10);
const NETSUITE_TBA = { consumerKey: 'e2e-ck', consumerSecret: 'e2e-cs', tokenId: 'e2e-tid', tokenSecret: 'e2e-ts' };
/** The fake account, for tests that check what reached it (erp.spec.ts reads it with TBA). */
export const NETSUITE = { baseUrl: `http://${NETSUITE_ADDR}`, realm: '123456_SB1', tba: NETSUITE_TBA };
// The account is a little leaner than the fake's default one: it lacks the billing summary
// record type, so the sync page shows a kind that is not in the account (no other test uses
// that kind). The portal's mapping (relative to web/, where the servers run) adds two of the
// account's own job fields to projects: Service area (text) and Acres (quantity).
const NETSUITE_WITHOUT = ['customrecord_res_billing_summary'];
const NETSUITE_MAPPING = 'e2e/netsuite-mapping.yaml';

// A fresh, empty data directory per run. The config is evaluated by the runner and again
// in each worker; workers inherit the runner's environment, so they all see the same dir.
// e2e/global-teardown.ts removes it.
process.env.PORTICO_E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'portico-e2e-'));
const dataDir = (name: string) => {
  const dir = path.join(process.env.PORTICO_E2E_DATA_DIR!, name);
  mkdirSync(dir, { recursive: true });
  return dir;
};

/** One `portico serve` with demo data and the emulator's demo accounts. */
function server(addr: string, name: string, env: Record<string, string> = {}) {
  return {
    command: 'sh -c "../bin/portico seed -per-kind 50 && ../bin/portico emulator-accounts && ../bin/portico serve"',
    url: `http://${addr}/api/v1/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: {
      PORTICO_ADDR: addr,
      PORTICO_DATA_DIR: dataDir(name),
      PORTICO_LOG_FORMAT: 'json',
      PORTICO_ENVIRONMENT: 'Demo',
      PORTICO_IDENTITY_EMULATOR_HOST: EMULATOR_HOST,
      // Many sign-ins from one address within a minute.
      PORTICO_LOGIN_RATE_IP: '1000',
      PORTICO_LOGIN_RATE_ACCOUNT: '1000',
      ...env,
    },
  };
}

const chromium = {
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
};

export default defineConfig({
  testDir: './e2e',
  // A run on other ports keeps its failures apart: each run empties its output folder first.
  outputDir: PORT_BASE === 18080 ? './test-results/playwright' : `./test-results/playwright-${PORT_BASE}`,
  globalTeardown: './e2e/global-teardown.ts',
  fullyParallel: false,
  // The keep-alive test waits 100 s of real time; it runs beside the rest.
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    // A failed test keeps its trace: every action with its timing, the console and the
    // network, and a screenshot at the failure. Not the screencast or a DOM snapshot per
    // action: recording those for every test took a third of the suite's time (the
    // registry spec: 85 s with them, 53 s without, 55 s with no trace at all).
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: false },
    screenshot: 'only-on-failure',
    // The app's service worker would download the whole build into every test's fresh
    // browser; only the offline tests (offline.spec.ts) let it in.
    serviceWorkers: 'block',
  },
  // Listed first so it starts first and the other files run beside it.
  projects: [
    {
      name: 'keepalive',
      testMatch: /keepalive\.spec\.ts/,
      use: { ...chromium, baseURL: `http://${KEEPALIVE_ADDR}` },
    },
    {
      name: 'chromium',
      testIgnore: /(keepalive|erp|password-reset|tenants)\.spec\.ts/,
      use: { ...chromium, baseURL: `http://${MAIN_ADDR}` },
    },
    {
      name: 'erp',
      testMatch: /erp\.spec\.ts/,
      use: { ...chromium, baseURL: `http://${ERP_ADDR}` },
    },
    {
      name: 'tenants',
      testMatch: /tenants\.spec\.ts/,
      use: { ...chromium, baseURL: COMPANIES.riverbend.url },
    },
    // Changes a demo account's password, which every server shares: after all the others.
    {
      name: 'password-reset',
      testMatch: /password-reset\.spec\.ts/,
      dependencies: ['keepalive', 'chromium', 'erp', 'tenants'],
      use: { ...chromium, baseURL: `http://${MAIN_ADDR}` },
    },
  ],
  // Started one after the other, in this order: the fake account before the server that syncs from it.
  webServer: [
    server(MAIN_ADDR, 'main'),
    server(KEEPALIVE_ADDR, 'keepalive', { PORTICO_ACCESS_TOKEN_TTL: '1m' }),
    {
      command: `sh -c "cd .. && go build -o bin/netsuite-fake ./cmd/netsuite-fake && exec bin/netsuite-fake -addr ${NETSUITE_ADDR} -per-kind 30 -without ${NETSUITE_WITHOUT.join(',')} -tba ${Object.values(NETSUITE_TBA).join(':')}"`,
      // Up once it answers: a request without credentials gets NetSuite's 401 INVALID_LOGIN.
      url: `http://${NETSUITE_ADDR}/services/rest/record/v1/customer/1`,
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: 'ignore' as const,
      stderr: 'pipe' as const,
    },
    {
      ...server(ERP_ADDR, 'erp', {
        PORTICO_NETSUITE_ACCOUNT: NETSUITE.realm,
        PORTICO_NETSUITE_BASE_URL: NETSUITE.baseUrl,
        PORTICO_NETSUITE_AUTH: 'tba',
        PORTICO_NETSUITE_CONSUMER_KEY: NETSUITE_TBA.consumerKey,
        PORTICO_NETSUITE_CONSUMER_SECRET: NETSUITE_TBA.consumerSecret,
        PORTICO_NETSUITE_TOKEN_ID: NETSUITE_TBA.tokenId,
        PORTICO_NETSUITE_TOKEN_SECRET: NETSUITE_TBA.tokenSecret,
        PORTICO_NETSUITE_MAPPING: NETSUITE_MAPPING,
        PORTICO_SYNC_INTERVAL: '2s',
      }),
      command: 'sh -c "../bin/portico roles import ../internal/demo/access.yaml && ../bin/portico emulator-accounts && ../bin/portico serve"',
    },
    {
      ...server(`127.0.0.1:${TENANTS_PORT}`, 'tenants'),
      // The second company first (its name kept by the seed), then the demo company, each
      // seeded and given its sign-in accounts as the default tenant in turn.
      command:
        `sh -c "../bin/portico tenants add kestrel -name '${COMPANIES.kestrel.name}' -host kestrel.localhost` +
        ` && PORTICO_DEFAULT_TENANT=kestrel ../bin/portico seed -per-kind ${COMPANIES.kestrel.projects}` +
        ` && PORTICO_DEFAULT_TENANT=kestrel ../bin/portico emulator-accounts` +
        ` && ../bin/portico seed -per-kind ${COMPANIES.riverbend.projects} && ../bin/portico emulator-accounts` +
        ` && ../bin/portico tenants hosts portico-demo -add riverbend.localhost && ../bin/portico serve"`,
    },
  ],
});
