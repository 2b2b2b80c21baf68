// The import rules `make lint` enforces (eslint.config.js: import-x/no-cycle and the
// boundary zones), tried on files written for the purpose: a cycle, shared code importing
// a feature or the app, a feature importing another feature's insides, and a feature
// importing the app must each fail; the same files without the offending import (or
// through the feature's public entry) must pass. Run by `npm run lint`; exits 1 when a rule does not hold.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const web = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const eslint = new ESLint({ cwd: web });

async function problems(dir, files) {
  const at = mkdtempSync(join(web, dir, 'boundary-check-'));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(at, name), text);
    const results = await eslint.lintFiles(Object.keys(files).map((name) => relative(web, join(at, name))));
    return results.flatMap((r) => r.messages.map((m) => m.ruleId ?? m.message)).sort();
  } finally {
    rmSync(at, { recursive: true, force: true });
  }
}

const cycle = {
  'a.ts': "import { b } from './b';\nexport const a = (): number => b();\n",
  'b.ts': "import { a } from './a';\nexport const b = (): number => a();\n",
};
const component = (source) => ({
  'Home.tsx': `import { paths } from '${source}';\nexport const home = paths;\n`,
  'paths.ts': "export const paths = { home: '/' };\n",
});
const importing = (source) => ({ 'probe.ts': `import { probe } from '${source}';\nexport const used = probe;\n` });
const cases = [
  ['a cycle', 'src', cycle, ['import-x/no-cycle', 'import-x/no-cycle']],
  ['the same files without it', 'src', { ...cycle, 'b.ts': 'export const b = (): number => 1;\n' }, []],
  ['a shared component importing the app', 'src/components', component('../../app/guard'), ['import-x/no-restricted-paths']],
  ['a shared component importing its own', 'src/components', component('./paths'), []],
  ['shared code importing a feature', 'src/lib', importing('../../features/records'), ['import-x/no-restricted-paths']],
  ["a feature importing another feature's insides", 'src/features/search', importing('../../records/kinds'), ['import-x/no-restricted-paths']],
  ["a feature importing another through its public entry", 'src/features/search', importing('../../records'), []],
  ['a feature importing the app', 'src/features/search', importing('../../../app/guard'), ['import-x/no-restricted-paths']],
  ['a feature importing shared code', 'src/features/search', importing('../../../lib/paths'), []],
];
let failed = false;
for (const [what, dir, files, want] of cases) {
  const got = await problems(dir, files);
  if (JSON.stringify(got) !== JSON.stringify(want)) {
    console.error(`check-boundaries: ${what}: eslint reported ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
    failed = true;
  }
}
if (failed) process.exit(1);
console.log(`check-boundaries: ${cases.length} cases hold (cycles, shared code, features' insides, the app)`);
