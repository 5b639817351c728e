// Lint rules of the house: type-aware TypeScript rules (no floating promises, exhaustive switches)
// and import boundaries (web never imports server code; domain and contract import no app code).
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const boundary = (group, message, paths = []) => ({
  'no-restricted-imports': ['error', { patterns: [{ group, message }], paths }],
});

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'e2e/artifacts/**',
      'coverage/**',
      'data/**',
      '*.tmp.mjs',
      'docs/openapi.json',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', '*.mjs', 'scripts/*.mjs', 'vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    rules: {
      // react-router's navigate() returns a promise only for data routers' transitions; a plain call is fine.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', name: 'NavigateFunction', package: 'react-router' }] },
      ],
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      ...boundary(
        [
          '@tandem/server',
          '**/apps/server/**',
          '@tandem/domain',
          '**/packages/domain/**',
          'kysely',
          'pg',
          'fastify',
        ],
        'The web app talks to the server only through the API (use @tandem/contract).',
        [
          {
            name: 'antd',
            importNames: ['Statistic'],
            message: 'Use components/Figure: numbers in the user language (antd groups with "," always).',
          },
        ],
      ),
      'no-restricted-properties': [
        'error',
        {
          property: 'toLocaleString',
          message:
            "The browser's language, not the user's: use formatNumberText / formatMoneyText (lib/money.ts).",
        },
      ],
    },
  },
  {
    files: ['packages/domain/**/*.ts'],
    rules: boundary(
      ['@tandem/*', '**/apps/**', 'node:*', 'fs', 'path', 'kysely', 'pg', 'fastify', 'react'],
      'The domain is pure: no app code and no I/O.',
    ),
  },
  {
    files: ['packages/contract/**/*.ts'],
    rules: boundary(
      [
        '@tandem/server',
        '@tandem/web',
        '@tandem/domain',
        '**/apps/**',
        'node:*',
        'kysely',
        'fastify',
        'react',
      ],
      'The contract declares shapes only: no app code.',
    ),
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
);
