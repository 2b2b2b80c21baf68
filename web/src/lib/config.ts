/**
 * Runtime configuration handed to the app by the server.
 *
 * The Go server replaces the `<!--portico:head-->` marker in index.html with
 *   <meta name="csp-nonce" content="NONCE">
 *   <script type="application/json" id="portico-config">{...}</script>
 * The JSON block is data, not script, so it passes `script-src 'self'`. Under `vite dev`
 * and in unit tests the elements are missing and the defaults below apply.
 */
export interface AppConfig {
  /** Shown next to the logo and in the document title. */
  productName: string;
  /** Deployment name; a badge shows it everywhere except in "Production". */
  environment: string;
  /** ERP segment of the record API paths: /api/v1/{erp}/{product}. */
  erp: string;
  /** Product segment of the record API paths. */
  product: string;
  /** Identity-service tenant of this portal (SPEC §3 tenant configuration). */
  tenantId: string;
  /** The company at this address, on a deployment serving several ("" with one): the navbar names it. */
  companyName: string;
  /** Application id of this portal (SPEC §3 tenant configuration). */
  applicationId: string;
  /** The identity SDK's configuration (SPEC §3). */
  identity: IdentityConfig;
}

/** What the firebase JS SDK needs; none of it is secret. */
export interface IdentityConfig {
  apiKey: string;
  authDomain?: string;
  projectId: string;
  appId?: string;
  /** host:port of the Firebase Auth Emulator; set only in emulator mode. */
  emulatorHost?: string;
}

export const CONFIG_ELEMENT_ID = 'portico-config';
export const NONCE_META_NAME = 'csp-nonce';
export const PRODUCTION = 'Production';

export const defaultConfig: AppConfig = {
  productName: 'Portico',
  environment: import.meta.env.DEV ? 'Development' : PRODUCTION,
  erp: 'netsuite',
  product: 'portal',
  tenantId: '',
  companyName: '',
  applicationId: '',
  identity: { apiKey: '', projectId: '' },
};

function nonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/**
 * Reads the server's config block from `doc`. Missing, malformed or partly filled config
 * falls back field by field to {@link defaultConfig}; this never throws.
 */
export function readConfig(doc: Document = document): AppConfig {
  const element = doc.getElementById(CONFIG_ELEMENT_ID);
  if (!element?.textContent) return { ...defaultConfig };
  let raw: unknown;
  try {
    raw = JSON.parse(element.textContent);
  } catch {
    console.warn('portico: ignoring malformed #portico-config');
    return { ...defaultConfig };
  }
  if (typeof raw !== 'object' || raw === null) return { ...defaultConfig };
  const given = raw as Record<string, unknown>;
  const pick = (key: Exclude<keyof AppConfig, 'identity'>): string => {
    const value = given[key];
    return nonEmptyString(value) ? value : defaultConfig[key];
  };
  return {
    productName: pick('productName'),
    environment: pick('environment'),
    erp: pick('erp'),
    product: pick('product'),
    tenantId: pick('tenantId'),
    companyName: pick('companyName'),
    applicationId: pick('applicationId'),
    identity: readIdentity(given['identity']),
  };
}

function readIdentity(raw: unknown): IdentityConfig {
  if (typeof raw !== 'object' || raw === null) return { ...defaultConfig.identity };
  const given = raw as Record<string, unknown>;
  const identity: IdentityConfig = {
    apiKey: nonEmptyString(given['apiKey']) ? given['apiKey'] : '',
    projectId: nonEmptyString(given['projectId']) ? given['projectId'] : '',
  };
  for (const key of ['authDomain', 'appId', 'emulatorHost'] as const) {
    const value = given[key];
    if (nonEmptyString(value)) identity[key] = value;
  }
  return identity;
}

/** Whether sign-in goes to the local Firebase Auth Emulator (development, demo, tests). */
export function isEmulatorMode(cfg: AppConfig = config): boolean {
  return !!cfg.identity.emulatorHost;
}

/**
 * The per-request CSP nonce from `<meta name="csp-nonce">`, or undefined when absent.
 * Mantine stamps it on the <style> elements it injects so they pass `style-src 'nonce-…'`.
 */
export function readStyleNonce(doc: Document = document): string | undefined {
  const content = doc.querySelector(`meta[name="${NONCE_META_NAME}"]`)?.getAttribute('content');
  return content ? content : undefined;
}

/** The config for this page load, read once at start-up. */
export const config: AppConfig = readConfig();
