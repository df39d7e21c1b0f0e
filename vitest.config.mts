import { defineConfig } from 'vitest/config';

// Unit and integration tests of every package. Browser suites (test/**) need `npm run build` first.
export default defineConfig({
  test: {
    include: [
      'core/test/**/*.test.ts',
      'sandbox/test/**/*.test.ts',
      'excel-addin/test/**/*.test.ts',
      'jupyter-extension/test/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', '**/dist/**', 'jupyter-extension/ui-tests/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
