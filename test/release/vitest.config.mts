import { defineConfig } from 'vitest/config';

// The checks of a built release (npm run release first): what lands in release/, used as a user would.
export default defineConfig({
  root: new URL('../..', import.meta.url).pathname,
  test: {
    include: ['test/release/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
