import { defineConfig, devices } from '@playwright/test';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { accessFor, companyMapping, connectEnv, writeOnce, type AccountField, type FakeAccount } from './e2e/netsuite-accounts';

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
// Two companies on one deployment (tenants.spec.ts), each at its own host name and each
// syncing from its own fake NetSuite account (no seeded records): the demo company at
// riverbend.localhost from an account in Los Angeles whose projects have a service area, a
// second one at kestrel.localhost from an account in Berlin (dates DD/MM/YYYY) with fewer
// records whose projects have a latitude. Neither account has the other's field. Chromium resolves every *.localhost name to the
// loopback address.
const TENANTS_PORT = PORT_BASE + 3;
/** A company of the 'tenants' project: its address, its name, its fake account and what the account holds. */
interface Company {
  url: string;
  name: string;
  /** Records of every kind in its account (netsuite-fake -per-kind): its projects. */
  projects: number;
  seed: number;
  /** Its account's (the integration user's) time zone and date format; its mapping says the zone. */
  timezone: string;
  dateFormat?: string;
  /** The environment badge its navbar shows (`tenants add -environment`); none: the deployment's Production, no badge. */
  environment?: string;
  /** The account field its mapping adds to projects. */
  accountField: AccountField;
  /** A field its account lacks (netsuite-fake -without): the other company's account field. */
  without: string;
  netsuite: FakeAccount;
}
export const COMPANIES: { riverbend: Company; kestrel: Company; unknown: { url: string } } = {
  riverbend: {
    url: `http://riverbend.localhost:${TENANTS_PORT}`,
    name: 'Riverbend Ecological Services',
    projects: 20,
    seed: 1,
    timezone: 'America/Los_Angeles',
    accountField: { name: 'custentity_res_service_area', label: 'Service area', type: 'text' },
    without: 'job.custentity_res_latitude',
    netsuite: {
      baseUrl: `http://${addr(11)}`,
      realm: '123456_SB1',
      tba: { consumerKey: 'riverbend-ck', consumerSecret: 'riverbend-cs', tokenId: 'riverbend-tid', tokenSecret: 'riverbend-ts' },
    },
  },
  kestrel: {
    url: `http://kestrel.localhost:${TENANTS_PORT}`,
    name: 'Kestrel Consulting',
    projects: 8,
    seed: 2,
    timezone: 'Europe/Berlin',
    dateFormat: 'DD/MM/YYYY',
    environment: 'Sandbox',
    accountField: { name: 'custentity_res_latitude', label: 'Latitude', type: 'quantity' },
    without: 'job.custentity_res_service_area',
    netsuite: {
      baseUrl: `http://${addr(12)}`,
      realm: '7654321',
      tba: { consumerKey: 'kestrel-ck', consumerSecret: 'kestrel-cs', tokenId: 'kestrel-tid', tokenSecret: 'kestrel-ts' },
    },
  },
  unknown: { url: `http://nobody.localhost:${TENANTS_PORT}` },
};
// A test value only (`openssl rand -base64 32`, never used anywhere else): the key the
// tenants server seals the stored NetSuite credentials with.
const TENANTS_TEST_SECRET_KEY = 'P/lrzgKFdfX/qAA3A5pbTr8xgeAJyTkeQIHNqluAn94=';
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

/**
 * The 'tenants' project's servers: each company's fake account, then one portal server that
 * stores a NetSuite connection per company (`netsuite connect -tenant`, the account given by
 * that command's own PORTICO_NETSUITE_* alone) and syncs both; serve itself has no
 * PORTICO_NETSUITE_*.
 */
function tenantsServers() {
  const dir = dataDir('tenants');
  const { riverbend, kestrel } = COMPANIES;
  const fake = (c: Company) => ({
    command:
      // A binary of its own: the fakes (and erp's) are built at the same moment.
      `sh -c "cd .. && go build -o bin/netsuite-fake-${c.netsuite.realm} ./cmd/netsuite-fake && exec bin/netsuite-fake-${c.netsuite.realm} -addr ${c.netsuite.baseUrl.slice('http://'.length)}` +
      ` -account ${c.netsuite.realm} -per-kind ${c.projects} -seed ${c.seed} -without ${c.without} -timezone ${c.timezone}${c.dateFormat ? ` -date-format ${c.dateFormat}` : ''} -tba ${Object.values(c.netsuite.tba).join(':')}"`,
    // Up once it answers: a request without credentials gets NetSuite's 401 INVALID_LOGIN.
    url: `${c.netsuite.baseUrl}/services/rest/record/v1/customer/1`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
  });
  const mapping = (name: string, c: Company) =>
    writeOnce(dir, `${name}-mapping.yaml`, companyMapping(c.timezone, c.accountField));
  const kestrelAccess = writeOnce(dir, 'kestrel-access.yaml', accessFor('kestrel', kestrel.name));
  const portico = '../bin/portico';
  const steps = [
    // The demo company (the default tenant) and its access, named by the demo access file.
    `${portico} roles import ../internal/demo/access.yaml`,
    `${portico} emulator-accounts`,
    `${portico} tenants hosts portico-demo -add riverbend.localhost`,
    `${connectEnv(riverbend.netsuite)} ${portico} netsuite connect -tenant portico-demo -mapping ${mapping('riverbend', riverbend)}`,
    // The second company, a sandbox, with the same access (its own users, in its own identity tenant).
    `${portico} tenants add kestrel -name '${kestrel.name}' -host kestrel.localhost -environment ${kestrel.environment}`,
    `${portico} roles import ${kestrelAccess}`,
    `PORTICO_DEFAULT_TENANT=kestrel ${portico} emulator-accounts`,
    `${connectEnv(kestrel.netsuite)} ${portico} netsuite connect -tenant kestrel -mapping ${mapping('kestrel', kestrel)}`,
    `exec ${portico} serve`,
  ];
  return [
    fake(riverbend),
    fake(kestrel),
    {
      // The deployment is Production (no badge); kestrel's own environment is its badge.
      ...server(`127.0.0.1:${TENANTS_PORT}`, 'tenants', {
        PORTICO_ENVIRONMENT: 'Production',
        PORTICO_SECRET_KEYS: TENANTS_TEST_SECRET_KEY,
        PORTICO_SYNC_INTERVAL: '1s',
      }),
      command: `sh -c "${steps.join(' && ')}"`,
    },
  ];
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
    ...tenantsServers(),
  ],
});
