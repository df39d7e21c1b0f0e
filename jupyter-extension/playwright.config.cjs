// `npx playwright test` started anywhere in this npm workspace runs here; the real
// configuration (Galata, system Chromium, sandbox + JupyterLab servers) is in ui-tests/.
module.exports = require('./ui-tests/playwright.config.cjs');
