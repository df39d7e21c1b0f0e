import { defineConfig } from 'vitest/config';

// Unit and integration tests of every package. Browser suites (test/**) need `npm run build` first.
export default defineConfig({
  test: {
    include: [
      'core/test/**/*.test.ts',
      'sandbox/test/**/*.test.ts',
      'gateway/test/**/*.test.ts',
      'excel-addin/test/**/*.test.ts',
      'jupyter-extension/test/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    // test/release checks a built release: scripts/test-all.sh runs it after `npm run release`.
    exclude: ['**/node_modules/**', '**/dist/**', 'jupyter-extension/ui-tests/**', 'test/release/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
