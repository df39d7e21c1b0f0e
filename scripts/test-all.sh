#!/usr/bin/env bash
# Installs everything, then runs every suite: Vitest (core, sandbox, Excel add-in, browser suites in
# Chromium), the Python tests (the Python API, its shared cache with the CLI, the relay), schemathesis against
# the sandbox's /openapi.json, and Galata (JupyterLab in Chromium).
# Ends with one "N passed, N failed" line over all suites.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || { echo "0 passed, 1 failed"; exit 1; }

root=$PWD
mkdir -p artifacts
export PATH="$PWD/.venv/bin:$PATH" PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
status=0

echo "== vitest: core, sandbox, Excel add-in (unit and browser) =="
npx vitest run --reporter=default --reporter=json --outputFile=artifacts/vitest.json || status=1

echo "== python: the Python API against a sandbox, its contract with the dchub CLI, the server extension (relay) =="
.venv/bin/python scripts/pytests.py artifacts/python.json || status=1

echo "== schemathesis: /openapi.json of the sandbox, spec and real profiles (every check, fixed seed) =="
node scripts/schemathesis.mjs artifacts/schemathesis.json || status=1

echo "== galata: JupyterLab extension in a real jupyter lab =="
(cd jupyter-extension/ui-tests && PLAYWRIGHT_JSON_OUTPUT_NAME="$root/artifacts/galata.json" npx playwright test --reporter=list,json) || status=1

node scripts/summarize-tests.mjs artifacts/vitest.json artifacts/python.json artifacts/schemathesis.json artifacts/galata.json || status=1
exit $status
