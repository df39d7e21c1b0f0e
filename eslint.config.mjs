import js from '@eslint/js';
import jupyter from '@jupyter/eslint-plugin';
import prettier from 'eslint-config-prettier/flat';
import officeAddins from 'eslint-plugin-office-addins';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// One lint for the whole repository (`npm run lint`): ESLint's and typescript-eslint's recommended
// rules everywhere, type-aware on TypeScript (each package's own tsconfig; tests, benches and
// scripts through tsconfig.eslint.json), plus the rule sets of the two hosts: Office's for the
// add-in, the JupyterLab extension template's for the extension. Formatting is Prettier's alone.

const TESTS = [
  'core/test/**',
  'sandbox/test/**',
  'gateway/test/**',
  'excel-addin/test/**',
  'jupyter-extension/test/**',
  'jupyter-extension/bench/**',
  'jupyter-extension/ui-tests/**',
  'test/**',
  'scripts/**',
];

export default defineConfig([
  globalIgnores([
    '**/dist/',
    '**/lib/',
    '**/node_modules/',
    '.venv/',
    'artifacts/',
    'release/',
    '.cache/',
    '.demo/',
    'jupyter-extension/dchub_jupyterlab/',
    'python/dchub/engine/',
    '**/test-results/',
    '**/playwright-report/',
  ]),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // A leading underscore marks a name kept on purpose: a parameter a signature needs, or a member
      // taken out of a rest spread (`const { secret: _s, ...shown } = o`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    files: ['**/*.ts', '**/*.mts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        project: [
          'core/tsconfig.json',
          'sandbox/tsconfig.json',
          'gateway/tsconfig.json',
          'excel-addin/tsconfig.json',
          'jupyter-extension/tsconfig.json',
          'jupyter-extension/ui-tests/tsconfig.json',
          'tsconfig.eslint.json',
        ],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // `async` without `await` is how an implementation meets a Promise-returning interface (a store,
      // Office's storage, a stand-in): what it throws becomes a rejection, as callers expect.
      '@typescript-eslint/require-await': 'off',
      // Passing on a reason received from elsewhere (a promise's, an event's) is not inventing one.
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: [
      'excel-addin/src/**',
      'jupyter-extension/src/**',
      'jupyter-extension/style/**',
      'test/excel/*.js',
      'test/excel/support/**',
    ],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Their page.evaluate callbacks run in the browser.
    files: [
      'scripts/bench-excel.mjs',
      'scripts/bench-excel-reopen.mjs',
      'scripts/bench-grid.mjs',
      'scripts/bench-map.mjs',
    ],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Tests look at raw answers (JSON as parsed, a stand-in's calls): untyped data, read as such.
    files: TESTS,
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // eslint-plugin-office-addins: its recommended Office.js rules (load, sync, null objects), without
    // the formatting and parser settings its own config brings. They know the request context by its
    // usual name, `context`.
    files: ['excel-addin/src/**/*.ts'],
    plugins: { 'office-addins': officeAddins },
    rules: {
      'office-addins/call-sync-after-load': 'error',
      'office-addins/call-sync-before-read': 'error',
      'office-addins/load-object-before-read': 'error',
      'office-addins/no-context-sync-in-loop': 'warn',
      'office-addins/no-empty-load': 'warn',
      'office-addins/no-navigational-load': 'warn',
      'office-addins/no-office-initialize': 'warn',
      'office-addins/test-for-null-using-isNullObject': 'error',
      // A formula shows a cell error by throwing Excel's CustomFunctions.Error (not an Error subclass).
      '@typescript-eslint/only-throw-error': [
        'error',
        { allow: [{ from: 'package', package: '@types/custom-functions-runtime', name: 'Error' }] },
      ],
    },
  },
  {
    // The JupyterLab extension template's rule sets: Jupyter's plugin (plugins, commands, signals,
    // Galata tests, settings schema) and its stricter comparisons.
    files: ['jupyter-extension/**'],
    extends: [jupyter.configs.recommended],
    plugins: { jupyter },
    rules: {
      // The panel's text is English only: it has no ITranslator (a feature of its own, not a lint fix).
      'jupyter/no-untranslated-string': 'off',
      // The sidebar's sections (and their grids) are built when the plugins activate: they are the
      // extension point the other plugins fill, so their modules load at start by design.
      'jupyter/prefer-lazy-imports': 'off',
    },
  },
  {
    files: ['jupyter-extension/src/**/*.ts'],
    rules: {
      // JupyterLab's own convention: command ids in a namespace (CommandIDs).
      '@typescript-eslint/no-namespace': 'off',
      eqeqeq: 'error',
      'prefer-arrow-callback': 'error',
    },
  },
  prettier,
  {
    // Lines fit in 120 columns: Prettier lays out the code; this holds the comments to it too. Long strings, template
    // literals, regular expressions and URLs are left whole (a message reads better unbroken than split).
    rules: {
      'max-len': [
        'error',
        { code: 120, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true },
      ],
    },
  },
]);
