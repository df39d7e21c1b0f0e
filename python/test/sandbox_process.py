"""The DC Hub sandbox (node sandbox/dist/main.js) as a process on a free port: started by the
Python tests' fixture (conftest.py) and by the wheel check (scripts/wheel_tools.py)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import threading
import time
from pathlib import Path

MAIN = Path(__file__).resolve().parents[2] / "sandbox" / "dist" / "main.js"


def start_sandbox(settings: dict[str, str]) -> tuple[subprocess.Popen[str], str]:
    """Starts the sandbox with ``settings`` over this environment (PORT=0: a free port) and returns
    the process and its URL once it listens; its output is drained so it never blocks."""
    node = shutil.which("node")
    if node is None:
        raise RuntimeError("the sandbox needs node on this machine's PATH")
    if not MAIN.exists():
        raise RuntimeError("the sandbox is not built: run npm run build:ts")
    proc = subprocess.Popen(
        [node, str(MAIN)],
        env={**os.environ, "PORT": "0", **settings},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        m = re.search(r"listening on (http://\S+)", line)
        if m:
            threading.Thread(target=proc.stdout.read, daemon=True).start()
            return proc, m.group(1).rstrip("/")
    proc.kill()
    raise RuntimeError("the sandbox did not start")
