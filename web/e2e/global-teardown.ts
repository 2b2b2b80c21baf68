import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

/** Removes the per-run data directory that playwright.config.ts created. */
export default function globalTeardown(): void {
  const dir = process.env.PORTICO_E2E_DATA_DIR;
  if (dir && dir.startsWith(tmpdir())) rmSync(dir, { recursive: true, force: true });
}
