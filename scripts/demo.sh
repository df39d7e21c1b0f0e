#!/usr/bin/env bash
# Installs everything, then starts the demo on the sandbox:
#   - the DC Hub sandbox (synthetic data)          http://127.0.0.1:${PORT:-8787}
#   - JupyterLab with the DC Hub panel             http://127.0.0.1:${JUPYTER_PORT:-8888}/lab
#   - the Excel add-in dev server (https)          https://localhost:3000 (sideload manifests/manifest.xml)
# Ctrl-C stops all three.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

export PORT="${PORT:-8787}"
JUPYTER_PORT="${JUPYTER_PORT:-8888}"
SANDBOX_URL="http://127.0.0.1:${PORT}"
demo=.demo
mkdir -p "$demo/notebooks" "$demo/lab-user-settings/@dchub/jupyterlab"
# Point the panel at the sandbox through user settings kept outside the venv and the repo.
printf '{\n  "baseUrl": "%s"\n}\n' "$SANDBOX_URL" > "$demo/lab-user-settings/@dchub/jupyterlab/plugin.jupyterlab-settings"

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT INT TERM

# A Pro key for this run only: JupyterLab's server extension relays with it (the browser never
# sees it). Excel starts keyless (10 calls a day); claim a free key from its task pane.
DEMO_KEY="demo-pro-$(node -e 'process.stdout.write(require("crypto").randomBytes(12).toString("hex"))')"
DCHUB_SANDBOX_KEYS="pro=$DEMO_KEY" node sandbox/dist/main.js &
pids+=($!)
for _ in $(seq 1 50); do curl -fsS "$SANDBOX_URL/api/health" >/dev/null 2>&1 && break; sleep 0.2; done

DCHUB_API_KEY="$DEMO_KEY" DCHUB_BASE_URL="$SANDBOX_URL" \
JUPYTERLAB_SETTINGS_DIR="$PWD/$demo/lab-user-settings" .venv/bin/jupyter lab \
  --no-browser --ip=127.0.0.1 --port="$JUPYTER_PORT" --ServerApp.root_dir="$PWD/$demo/notebooks" \
  --IdentityProvider.token="" --ServerApp.password="" $([ "$(id -u)" = 0 ] && echo --allow-root) &
pids+=($!)

DCHUB_BASE_URL="$SANDBOX_URL" npm run --silent dev-server -w excel-addin &
pids+=($!)

cat <<MSG

DC Hub demo (synthetic sandbox data)
  Sandbox:    $SANDBOX_URL/api/health
  JupyterLab: http://127.0.0.1:$JUPYTER_PORT/lab   (left sidebar: DC Hub)
  Excel:      https://localhost:3000/taskpane.html (dev server; sideload manifests/manifest.xml, see README)
Press Ctrl-C to stop.
MSG
wait -n "${pids[@]}"
