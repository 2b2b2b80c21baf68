import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

function boundaryZones() {
  const shared = ['./src/components', './src/lib', './src/assets'].map((target) => ({
    target,
    from: ['./src/features', './src/app'],
    message: 'Shared code imports no feature and not the app; pass what it needs in, or move it into a feature.',
  }));
  const perFeature = features.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [
      `./${feature}`,
      ...features
        .filter((other) => other !== feature)
        .flatMap((other) => [`./${other}/index.ts`, `./${other}/testing.ts`, `./${other}/testing.tsx`]),
    ],
    message: "A feature imports another feature only through its public entry (its index.ts; a test also its testing module).",
  }));
  const app = { target: './src/features', from: './src/app', message: 'Features do not import the app; the app composes them.' };
  return [...shared, ...perFeature, app];
}

export default defineConfig(
  { ignores: ['dist', 'test-results', 'playwright-report', 'blob-report', 'node_modules'] },
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    languageOptions: {
      ecmaVersion: 2023,
      globals: globals.browser,
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver()],
      'import-x/extensions': ['.ts', '.tsx'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      // No module imports itself back, however far round.
      'import-x/no-cycle': 'error',
      // The app's boundaries (docs/architecture.md, "The app"): shared code imports no feature and not the
      // app; a feature imports another only through its public entry (index.ts; tests also
      // its testing module) and never the app, which composes them.
      'import-x/no-restricted-paths': ['error', { zones: boundaryZones() }],
    },
  },
  {
    files: ['serviceworker/**/*.js'],
    languageOptions: { globals: globals.serviceworker },
  },
  {
    files: ['*.config.{ts,js}', 'e2e/**/*.ts', 'scripts/**/*.{js,mjs}'],
    languageOptions: { globals: globals.node },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
