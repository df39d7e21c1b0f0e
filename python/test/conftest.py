"""Fixtures of the Python tests: a DC Hub sandbox over HTTP, core's CLI, fresh cache directories.

The sandbox is node sandbox/dist/main.js on a free port, test controls on.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from sandbox_process import start_sandbox

ROOT = Path(__file__).resolve().parents[2]
#: Both Python packages as checked out: ``dchub`` (python/) and ``dchub_jupyterlab``, the relay.
SOURCES = [str(ROOT / "python"), str(ROOT / "jupyter-extension")]
PYTHONPATH = os.pathsep.join(SOURCES)
sys.path[:0] = SOURCES

#: The sandbox profile this run uses (DCHUB_TEST_PROFILE): ``spec`` (the interface spec's shapes,
#: the default) or ``real`` (the real service's shapes and quirks). scripts/pytests.py runs both.
PROFILE = os.environ.get("DCHUB_TEST_PROFILE", "spec")
if PROFILE not in ("spec", "real"):
    raise RuntimeError(f"DCHUB_TEST_PROFILE: expected spec or real, got {PROFILE!r}")

KEYS = {
    "pro": "py-pro-key-0001",
    "free": "py-free-key-0001",
    "developer": "py-dev-key-0001",
    "enterprise": "py-ent-key-0001",
}


class Sandbox:
    def __init__(self, url: str, proc: subprocess.Popen):
        self.url = url
        self.proc = proc

    def control(self, method: str, path: str, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(
            self.url + path, data=data, method=method, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(req, timeout=10) as res:
            return json.loads(res.read() or b"null")

    def faults(self, rules):
        return self.control("POST", "/_sandbox/faults", rules)

    def get(self, path: str, key: str | None = None):
        req = urllib.request.Request(self.url + path, headers={"X-API-Key": key} if key else {})
        with urllib.request.urlopen(req, timeout=10) as res:
            return json.loads(res.read())


@pytest.fixture(scope="session")
def sandbox():
    settings = {
        "DCHUB_SANDBOX_CONTROLS": "1",
        "DCHUB_SEED": "pytest",
        "DCHUB_SANDBOX_PROFILE": PROFILE,
        "DCHUB_SANDBOX_KEYS": ",".join(f"{t}={k}" for t, k in KEYS.items()),
    }
    try:
        proc, url = start_sandbox(settings)
    except RuntimeError as e:
        pytest.fail(str(e))
    yield Sandbox(url, proc)
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


def spec_only(reason: str):
    """Marks a test whose expectations are the spec profile's (the real service's differ)."""
    return pytest.mark.skipif(PROFILE != "spec", reason=f"spec profile only: {reason}")


@pytest.fixture(autouse=True)
def _fresh_sandbox_day(request):
    """Each test starts with the sandbox's daily counters reset and no faults."""
    if "sandbox" in request.fixturenames:
        sb = request.getfixturevalue("sandbox")
        sb.control("DELETE", "/_sandbox/limits")
        sb.control("DELETE", "/_sandbox/faults")
    yield


@pytest.fixture
def cache_dir(tmp_path):
    d = tmp_path / "dchub-cache"
    d.mkdir()
    return d


@pytest.fixture
def hub(sandbox, cache_dir):
    from dchub import Client

    c = Client(base_url=sandbox.url, api_key=KEYS["pro"], cache_dir=cache_dir)
    yield c
    c.close()


@pytest.fixture
def cli(sandbox):
    """Runs the dchub CLI of core against the sandbox; returns (exit code, stdout, stderr)."""
    script = ROOT / "core" / "dist" / "cli" / "dchub.js"

    def run(*args: str, cache_dir, api_key: str | None = None):
        env = {k: v for k, v in os.environ.items() if not k.startswith("DCHUB_")}
        env["DCHUB_BASE_URL"] = sandbox.url
        env["DCHUB_CACHE_DIR"] = str(cache_dir)
        if api_key:
            env["DCHUB_API_KEY"] = api_key
        p = subprocess.run(
            ["node", str(script), *args], env=env, capture_output=True, text=True, timeout=60
        )
        return p.returncode, p.stdout, p.stderr

    return run


# The relay's and the gateway's fixtures (imported last: the harnesses read this module's settings).
from gateway_harness import gateway  # noqa: E402, F401
from relay_harness import kernel, machine, server  # noqa: E402, F401
