#!/usr/bin/env bash
# Installs everything, then runs every suite: Vitest (core, sandbox, Excel add-in, browser suites in
# Chromium), the Python tests (the Python API, its shared cache with the CLI, the relay), schemathesis against
# the sandbox's /openapi.json, and Galata (JupyterLab in Chromium); the Python tests, schemathesis and Galata under
# both sandbox profiles (spec, real).
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

echo "== python: the Python API against a sandbox (spec and real profiles), its contract with the dchub CLI, the server extension (relay) =="
.venv/bin/python scripts/pytests.py artifacts/python.json || status=1

echo "== schemathesis: /openapi.json of the sandbox, spec and real profiles (every check, fixed seed) =="
node scripts/schemathesis.mjs artifacts/schemathesis.json || status=1

# Galata once per sandbox profile: the interface spec's shapes, then the real service's.
for profile in spec real; do
  echo "== galata ($profile profile): JupyterLab extension in a real jupyter lab =="
  (cd jupyter-extension/ui-tests && DCHUB_GALATA_PROFILE=$profile PLAYWRIGHT_JSON_OUTPUT_NAME="$root/artifacts/galata-$profile.json" \
    npx playwright test --reporter=list,json) || status=1
done

node scripts/summarize-tests.mjs artifacts/vitest.json artifacts/python.json artifacts/schemathesis.json artifacts/galata-spec.json artifacts/galata-real.json || status=1
exit $status
