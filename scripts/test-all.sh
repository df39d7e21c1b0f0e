#!/usr/bin/env bash
# Installs everything, then runs every suite: the lint and format checks (ESLint, Prettier; ruff and mypy --strict
# on both Python packages), Vitest on Node 20 (core, sandbox, the team gateway over real redis-servers and replica
# processes, Excel add-in, browser suites in Chromium), the suites that need no browser again on Node 22 (but the
# gateway's: its image runs Node 20), the Python tests (the Python API, its shared cache with the CLI, the relay), the
# release (npm run release: the CLI tarball installed with npm i -g, the add-in's manifests validated offline, the
# checksums), the release's wheel in a fresh venv without node on PATH, schemathesis against the sandbox's
# /openapi.json, the docs check, and Galata (JupyterLab in Chromium);
# the Python tests, schemathesis and Galata under both sandbox profiles (spec, real).
# Ends with one "N passed, N failed" line over all suites.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || { echo "0 passed, 1 failed"; exit 1; }

root=$PWD
mkdir -p artifacts
export PATH="$PWD/.venv/bin:$PATH" PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
status=0

# Lint and format, one check each in the count: `npm run lint` (ESLint, type-aware, no warnings) and
# `npm run format:check` (Prettier). A finding fails its check, and CI.
echo "== lint and format: npm run lint (ESLint), npm run format:check (Prettier) =="
checks_passed=0 checks_failed=0
for check in lint format:check; do
  if npm run --silent "$check"; then checks_passed=$((checks_passed + 1)); else checks_failed=$((checks_failed + 1)); status=1; fi
done
printf '{"numPassedTests": %d, "numFailedTests": %d, "numPendingTests": 0}\n' "$checks_passed" "$checks_failed" > artifacts/lint-format.json

# The Python packages' habits, one check each per package in the count: ruff (lint; format, line length 100) and
# mypy --strict, in python/ (dchub and the Python tests) and jupyter-extension/ (dchub_jupyterlab), each with the
# settings of its pyproject.toml.
echo "== python lint, format and types: ruff check, ruff format --check, mypy --strict (dchub, dchub_jupyterlab) =="
py_passed=0 py_failed=0
for dir in python jupyter-extension; do
  for check in "ruff check" "ruff format --check" "mypy"; do
    if (cd "$dir" && ../.venv/bin/$check); then py_passed=$((py_passed + 1)); else py_failed=$((py_failed + 1)); status=1; fi
  done
done
printf '{"numPassedTests": %d, "numFailedTests": %d, "numPendingTests": 0}\n' "$py_passed" "$py_failed" > artifacts/python-habits.json

echo "== vitest: core, sandbox, gateway, Excel add-in (unit and browser), on $(node --version) =="
npx vitest run --reporter=default --reporter=json --outputFile=artifacts/vitest.json || status=1

# Node 22 from the npm registry (the `node` package), kept in a git-ignored directory: installed once,
# reused while it answers v22.
node22_setup() {
  local dir=.cache/node22 bin=.cache/node22/node_modules/.bin/node
  if [[ "$("$bin" --version 2>/dev/null)" != v22.* ]]; then
    mkdir -p "$dir"
    [[ -f "$dir/package.json" ]] || echo '{ "private": true, "description": "Node 22 for scripts/test-all.sh" }' > "$dir/package.json"
    (cd "$dir" && npm install --no-save --no-audit --no-fund --loglevel=error node@22) >&2 || return 1
  fi
  [[ "$("$bin" --version 2>/dev/null)" == v22.* ]] || { echo "node@22 did not install a v22 binary at $bin" >&2; return 1; }
  echo "$root/$bin"
}

# The browser-free suites again on Node 22 (workers and spawned `node` included, through PATH). The derive
# property test keeps its proof on Node 20 (2,000 pairs per profile); here it checks 300, enough to show it runs.
if node22=$(node22_setup); then
  echo "== vitest on $("$node22" --version): core, sandbox, Excel add-in unit tests (no browser) =="
  PATH="$(dirname "$node22"):$PATH" DCHUB_DERIVE_RUNS=300 "$node22" node_modules/vitest/vitest.mjs run core/test sandbox/test excel-addin/test \
    --reporter=default --reporter=json --outputFile=artifacts/vitest-node22.json || status=1
else
  echo "(Node 22 could not be set up: its suites are counted as one failure)"
  rm -f artifacts/vitest-node22.json
  status=1
fi

echo "== python: the Python API against a sandbox (spec and real profiles), its contract with the dchub CLI, the server extension (relay) =="
.venv/bin/python scripts/pytests.py artifacts/python.json || status=1

# The release for a stand-in hosting URL, built beside a canary key that no artifact may carry; then what lands in
# release/, used as a user would (test/release: artifacts/release.json). The wheel's install is the wheel check's.
echo "== release: npm run release, then the CLI tarball (npm i -g), the add-in's manifests, the checksums =="
release_env=(DCHUB_ADDIN_URL=https://addin.example.com/ DCHUB_API_KEY=release-canary-key-not-for-any-artifact)
if env "${release_env[@]}" npm run --silent release > artifacts/release.log 2>&1; then
  tail -7 artifacts/release.log
else
  tail -30 artifacts/release.log
  echo "(npm run release failed: the whole log is artifacts/release.log)"
  status=1
fi
env "${release_env[@]}" npx vitest run -c test/release/vitest.config.mts --reporter=default --reporter=json \
  --outputFile=artifacts/release.json || status=1

echo "== wheels: dchub alone in a fresh venv (the API, the dchub command, a notebook; no node on PATH), then dchub-jupyterlab =="
.venv/bin/python scripts/wheel-check.py artifacts/wheel-check.json release || status=1

echo "== docs: links and anchors resolve; every DCHUB function, dchub command and Client method documented =="
node scripts/docs-check.mjs artifacts/docs-check.json || status=1

echo "== schemathesis: /openapi.json of the sandbox, spec and real profiles (every check, fixed seed) =="
node scripts/schemathesis.mjs artifacts/schemathesis.json || status=1

# Galata once per sandbox profile: the interface spec's shapes, then the real service's.
for profile in spec real; do
  echo "== galata ($profile profile): JupyterLab extension in a real jupyter lab =="
  (cd jupyter-extension/ui-tests && DCHUB_GALATA_PROFILE=$profile PLAYWRIGHT_JSON_OUTPUT_NAME="$root/artifacts/galata-$profile.json" \
    npx playwright test --reporter=list,json) || status=1
done

node scripts/summarize-tests.mjs artifacts/lint-format.json artifacts/python-habits.json artifacts/vitest.json artifacts/vitest-node22.json artifacts/python.json artifacts/release.json artifacts/wheel-check.json artifacts/docs-check.json artifacts/schemathesis.json artifacts/galata-spec.json artifacts/galata-real.json || status=1
exit $status
