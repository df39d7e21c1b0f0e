#!/usr/bin/env bash
# Installs everything the demo and the tests need, idempotently: Debian's chromium and redis-server, npm packages,
# a project-local Python venv (.venv) with JupyterLab from PyPI, the builds, and both Python packages (dchub and
# dchub-jupyterlab) installed into the venv. Safe to run again; finished steps are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
say() { printf '\033[1;36m==> %s\033[0m\n' "$*" >&2; }

# 1. Chromium for the browser tests (Debian package; Playwright never downloads a browser here).
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    say "installing Debian's chromium"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null
  else
    echo "chromium is missing: run 'sudo apt-get install -y chromium' (or set CHROMIUM_PATH)" >&2
  fi
fi

# 1b. Redis for the team gateway's tests (each starts its own redis-server on a free port, persistence off).
if ! command -v redis-server >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    say "installing Debian's redis-server"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server) >/dev/null
  else
    echo "redis-server is missing: run 'sudo apt-get install -y redis-server' (the gateway tests need it)" >&2
  fi
fi

# 2. npm workspaces.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi

# 3. Python venv from jupyter-extension/requirements-dev.txt (PyPI): JupyterLab, the packaging tools, dchub's own
# dependencies (both packages are installed with --no-deps below), the Python test and lint tools.
req=jupyter-extension/requirements-dev.txt
if [ ! -x .venv/bin/python ] || [ "$req" -nt .venv/.installed ]; then
  say "python venv (.venv) from $req"
  [ -x .venv/bin/python ] || python3 -m venv .venv
  .venv/bin/pip install --quiet --disable-pip-version-check -r "$req"
  touch .venv/.installed
fi

# 3b. schemathesis into the same venv, for the OpenAPI contract run of scripts/test-all.sh.
streq=sandbox/test/schemathesis/requirements.txt
if [ ! -x .venv/bin/schemathesis ] || [ "$streq" -nt .venv/.schemathesis-installed ]; then
  say "schemathesis into .venv from $streq"
  .venv/bin/pip install --quiet --disable-pip-version-check -r "$streq"
  touch .venv/.schemathesis-installed
fi

# 4. Builds: core, sandbox, the team gateway, Excel add-in bundle, JupyterLab prebuilt extension, core's engine bundle.
say "building"
mkdir -p artifacts
npm run --silent build > artifacts/build.log 2>&1 || { cat artifacts/build.log; echo "the build failed (log above: artifacts/build.log)" >&2; exit 1; }

# 5. Both Python packages into the venv (built above, so the build hooks skip npm): `dchub` (the Python API,
# the engine and the `dchub` command; python/) and `dchub-jupyterlab` (the panel and the relay).
say "installing dchub and the JupyterLab extension into .venv"
HATCH_JUPYTER_BUILDER_SKIP_NPM=1 .venv/bin/pip install --quiet --disable-pip-version-check --no-build-isolation --force-reinstall --no-deps ./python ./jupyter-extension
.venv/bin/jupyter labextension list 2>&1 | grep -q '@dchub/jupyterlab.*enabled.*OK' || { echo "the JupyterLab extension did not install" >&2; exit 1; }
# The Python API imports in the venv's kernels, under both names.
.venv/bin/python -c "from dchub import Client; from dchub_jupyterlab import Client" || { echo "the DC Hub Python API does not import in .venv" >&2; exit 1; }
say "setup complete ($root)"
