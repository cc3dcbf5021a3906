import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import reactRefresh from 'eslint-plugin-react-refresh';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { readdirSync } from 'node:fs';

// Layers: src/app composes features; a feature (src/features/<name>) reaches only itself and
// the shared code (src/shared, src/components, src/lib, src/locales, src/config.ts); shared
// code reaches neither a feature nor the app. What two features need moves to src/shared.
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const sharedCode = [
  './src/shared',
  './src/components',
  './src/lib',
  './src/locales',
  './src/config.ts',
  './src/test',
];
const boundaries = [
  ...features.map((name) => ({
    target: `./src/features/${name}`,
    from: './src/features',
    except: [`./${name}`],
    message: 'A feature imports no other feature: move what both need to src/shared.',
  })),
  {
    target: './src/features',
    from: './src/app',
    message: 'A feature imports nothing from src/app: move what it needs to src/shared.',
  },
  ...sharedCode.map((target) => ({
    target,
    from: ['./src/features', './src/app'],
    message: 'Shared code imports no feature and nothing from src/app.',
  })),
];

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'src/shared/api/schema.generated.ts'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: {
      ecmaVersion: 2022,
      globals: globals.browser,
    },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: './tsconfig.app.json' }),
      ],
    },
    plugins: {
      'import-x': importX,
      'react-hooks': reactHooks,
      'react-refresh': reactRefresh,
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'import-x/no-restricted-paths': ['error', { zones: boundaries }],
      'react-refresh/only-export-components': ['warn', { allowConstantExport: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // Route tables and the router build elements but are not component modules.
    files: ['src/app/router.tsx', 'src/app/routes/**', 'src/test/**', 'src/**/*.test.{ts,tsx}'],
    rules: { 'react-refresh/only-export-components': 'off' },
  },
  {
    files: ['scripts/**/*.mjs', 'eslint.config.js'],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
  },
);
