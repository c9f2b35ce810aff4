// Lint rules for suture's own sources. Type-aware rules are left out to keep `npm run lint` fast;
// `tsc` runs in every package's typecheck target.
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { layerZones } from './scripts/core-layers.mjs';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/.nx/**',
      '**/.suture/**',
      // scratch projects the cli's tests make under the repository
      '.tmp/**',
      '**/build-suture/**',
      '**/coverage/**',
      '**/test/fixtures/**',
      '**/__fixtures__/**',
      '**/test/e2e/**/*.js',
      '**/test/e2e/**/*.mjs',
      '**/test/e2e/**/src/**',
      '**/test/e2e/**/__tests__/**',
      '**/test/e2e/**/tests/**',
      'examples/polyglot/**',
      'bench/fixtures/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.nodeBuiltin } },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: 'packages/*/tsconfig.json',
          noWarnOnMultipleProjects: true,
        }),
      ],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/extensions': ['.ts', '.js', '.mjs'],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'no-shadow': 'off',
      '@typescript-eslint/no-shadow': [
        'error',
        { builtinGlobals: true, hoist: 'functions', ignoreTypeValueShadow: true },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { disallowTypeAnnotations: false }],
      'no-control-regex': 'off',
    },
  },
  {
    // the layers of @suture/core, lowest first; tests may reach across them
    files: ['packages/core/src/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.test-support.ts'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: layerZones() }] },
  },
  {
    // no package but the CLI builds on @suture/core/internal: what plugins need is public API
    files: ['packages/*/src/**/*.ts'],
    ignores: ['packages/cli/**', 'packages/core/**', '**/*.test.ts', '**/*.test-support.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: '@suture/core/internal', message: 'use the public API of @suture/core' }] },
      ],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
