// Galata + Playwright on the system Chromium (no browser download). Playwright starts the
// DC Hub sandbox and a JupyterLab server with the Galata test configuration; `jupyter` comes
// from PATH, so put the project venv's bin first.
//
// Paths are absolute because `npx` run from ui-tests/ executes in the npm workspace folder
// (jupyter-extension/), where ../playwright.config.cjs re-exports this file.
const fs = require('node:fs');
const path = require('node:path');
const baseConfig = require('@jupyterlab/galata/lib/playwright-config');

const here = (...parts) => path.join(__dirname, ...parts);

const CI = !!process.env.CI;

// Ports are configurable so that two runs (a CI run and a developer's) can share a machine;
// the defaults are the usual ones. The tests read the same variables (tests/ports.ts).
const SANDBOX_PORT = process.env.DCHUB_GALATA_SANDBOX_PORT || '8791';
const JUPYTER_PORT = process.env.DCHUB_GALATA_JUPYTER_PORT || '8888';
const SANDBOX_URL = `http://127.0.0.1:${SANDBOX_PORT}`;
// The sandbox profile the suite runs against (DCHUB_GALATA_PROFILE): `spec` (the interface spec's
// shapes) or `real` (the real service's shapes and quirks). CI runs the suite once per profile; the
// tests read the same variable (tests/env.ts) where the two answer differently.
const PROFILE = process.env.DCHUB_GALATA_PROFILE || 'spec';
if (!['spec', 'real'].includes(PROFILE)) throw new Error(`DCHUB_GALATA_PROFILE: expected spec or real, got ${PROFILE}`);
const JUPYTER_URL = `http://localhost:${JUPYTER_PORT}`;
// Galata's page fixture and the tests' request fixture go to this JupyterLab.
process.env.TARGET_URL = JUPYTER_URL;
// The kernel's Python API (and the dchub CLI) cache here: a fresh directory per run.
const CACHE_DIR = here('test-results', `dchub-cache-${PROFILE}`);
fs.rmSync(CACHE_DIR, { recursive: true, force: true });
process.env.DCHUB_GALATA_CACHE_DIR = CACHE_DIR;
// The `dchub` CLI (core's build): tests spend the relay's allowance and fill its cache from another process.
process.env.DCHUB_GALATA_CLI = here('..', '..', 'core', 'dist', 'cli', 'dchub.js');

module.exports = {
  ...baseConfig,
  testDir: here('tests'),
  outputDir: here('test-results', `output-${PROFILE}`),
  reporter: [['list'], ['html', { open: 'never', outputFolder: here('test-results', `report-${PROFILE}`) }]],
  workers: 1,
  retries: 0,
  use: {
    ...baseConfig.use,
    baseURL: JUPYTER_URL,
    headless: true,
    // Video needs Playwright's own ffmpeg download; traces and screenshots do not.
    video: 'off',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run'
      ]
    }
  },
  webServer: [
    {
      command: 'node ../../sandbox/dist/main.js',
      cwd: __dirname,
      env: {
        PORT: SANDBOX_PORT,
        DCHUB_SANDBOX_NOW: '2026-11-21T12:00:00Z',
        DCHUB_SANDBOX_PROFILE: PROFILE,
        // The Enterprise key is typed into the panel (direct mode) to read the briefs in pages.
        DCHUB_SANDBOX_KEYS: 'pro=galata-pro-key-0001,enterprise=galata-enterprise-key-0001',
        // Lets tests move the sandbox clock (POST /_sandbox/clock) to trigger the daily recompute.
        DCHUB_SANDBOX_CONTROLS: '1'
      },
      url: `${SANDBOX_URL}/api/health`,
      timeout: 30 * 1000,
      reuseExistingServer: !CI,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5000 }
    },
    {
      command: `jupyter lab --config jupyter_server_test_config.py --ServerApp.port=${JUPYTER_PORT}`,
      cwd: __dirname,
      // The server extension relays panel calls to the sandbox and adds this Pro key; the
      // browser never receives it (tests check the page, notebooks and CSVs for it).
      // The kernels it starts inherit them: notebook code calls `Client()` and gets the same service,
      // key and cache without any of them written in the notebook.
      env: { DCHUB_BASE_URL: SANDBOX_URL, DCHUB_API_KEY: 'galata-pro-key-0001', DCHUB_CACHE_DIR: CACHE_DIR },
      url: `${JUPYTER_URL}/lab`,
      timeout: 180 * 1000,
      reuseExistingServer: !CI,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 10000 }
    }
  ]
};
