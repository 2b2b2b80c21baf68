import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultConfig, isEmulatorMode, readConfig, readStyleNonce } from './config';

function docWith(head: string): Document {
  return new DOMParser().parseFromString(`<!doctype html><html><head>${head}</head><body></body></html>`, 'text/html');
}

describe('readConfig', () => {
  afterEach(() => vi.restoreAllMocks());

  it('reads the server-injected JSON block', () => {
    const doc = docWith(
      '<script type="application/json" id="portico-config">{"productName":"Acme Portal","environment":"Staging","erp":"netsuite","product":"portal"}</script>',
    );
    expect(readConfig(doc)).toEqual({
      ...defaultConfig,
      productName: 'Acme Portal',
      environment: 'Staging',
      erp: 'netsuite',
      product: 'portal',
    });
  });

  it('reads the tenant and identity configuration', () => {
    const doc = docWith(
      '<script type="application/json" id="portico-config">' +
        JSON.stringify({
          productName: 'Portico',
          environment: 'Demo',
          erp: 'netsuite',
          product: 'portal',
          tenantId: 'portico-demo',
          companyName: 'Kestrel Consulting',
          applicationId: 'portico',
          identity: { apiKey: 'demo-api-key', projectId: 'demo-portal', emulatorHost: '127.0.0.1:9099', appId: '', extra: 1 },
        }) +
        '</script>',
    );
    const cfg = readConfig(doc);
    expect(cfg).toMatchObject({ tenantId: 'portico-demo', companyName: 'Kestrel Consulting', applicationId: 'portico' });
    expect(cfg.identity).toEqual({ apiKey: 'demo-api-key', projectId: 'demo-portal', emulatorHost: '127.0.0.1:9099' });
    expect(isEmulatorMode(cfg)).toBe(true);
    expect(isEmulatorMode({ ...cfg, identity: { apiKey: 'k', projectId: 'p', authDomain: 'p.firebaseapp.com' } })).toBe(false);
  });

  it('falls back to defaults when the block is missing', () => {
    expect(readConfig(docWith(''))).toEqual(defaultConfig);
    expect(defaultConfig.productName).toBe('Portico');
  });

  it('falls back field by field for partial or malformed config', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const partial = docWith('<script type="application/json" id="portico-config">{"environment":"Production","erp":7}</script>');
    expect(readConfig(partial)).toEqual({ ...defaultConfig, environment: 'Production' });
    const broken = docWith('<script type="application/json" id="portico-config">{nope</script>');
    expect(readConfig(broken)).toEqual(defaultConfig);
  });
});

describe('readStyleNonce', () => {
  it('reads the csp-nonce meta, or nothing', () => {
    expect(readStyleNonce(docWith('<meta name="csp-nonce" content="abc123">'))).toBe('abc123');
    expect(readStyleNonce(docWith(''))).toBeUndefined();
  });
});
