"""The team gateway of the Python tests (issue 25): a throwaway ``redis-server`` (its own port,
persistence off), one gateway replica (``node gateway/dist/bin.js serve``) over the sandbox behind a
counting proxy, and tokens from the gateway's own CLI. One per test module; the tests use distinct
tokens, so their shares do not mix.
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from relay_harness import CountingProxy, free_port

from conftest import KEYS, ROOT

GATEWAY_BIN = ROOT / "gateway" / "dist" / "bin.js"

#: The analysts of the tests, with their daily shares (0: none of their own).
SHARES = {"ann": 20, "bob": 0, "lab": 2, "eve": 0}


class Gateway:
    def __init__(self, url: str, proxy: CountingProxy, tokens: dict[str, str], env: dict[str, str]):
        self.url = url
        self.proxy = proxy
        self.tokens = tokens
        self.env = env

    def cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        """``dchub-gateway`` (the real CLI) with the gateway's environment."""
        return subprocess.run(
            ["node", str(GATEWAY_BIN), *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=60,
        )

    def upstream(self, path: str) -> int:
        """Requests that reached the sandbox for ``path`` (with its query)."""
        return self.proxy.paths.count(path)


def _redis_answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def _wait(ready, what: str, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.time() + 30
    while not ready():
        if proc.poll() is not None or time.time() > deadline:
            proc.kill()
            pytest.fail(f"{what} did not start")
        time.sleep(0.1)


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/healthz", timeout=2) as res:
            return bool(res.status == 200)
    except OSError:
        return False


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(scope="module")
def gateway(sandbox, tmp_path_factory) -> Iterator[Gateway]:
    if not GATEWAY_BIN.exists():
        pytest.fail("the gateway is not built: run npx tsc -b core sandbox gateway")
    data: Path = tmp_path_factory.mktemp("redis")
    port = free_port()
    redis = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1"]
        + ["--save", "", "--appendonly", "no", "--dir", str(data)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _wait(lambda: _redis_answers(port), "redis-server", redis)
    proxy = CountingProxy(sandbox.url)
    env = {k: v for k, v in os.environ.items() if not k.startswith("DCHUB_")}
    env.update(
        {
            "REDIS_URL": f"redis://127.0.0.1:{port}",
            "DCHUB_UPSTREAM_URL": proxy.url,
            "DCHUB_UPSTREAM_KEY": KEYS["pro"],
            "DCHUB_UPSTREAM_TIER": "pro",
        }
    )
    gw = Gateway("", proxy, {}, env)
    for name, share in SHARES.items():
        p = gw.cli("token", "add", name, *(["--daily-share", str(share)] if share else []))
        assert p.returncode == 0, p.stderr
        gw.tokens[name] = p.stdout.strip()
    gw_port = free_port()
    gw.url = f"http://127.0.0.1:{gw_port}"
    replica = subprocess.Popen(
        ["node", str(GATEWAY_BIN), "serve"],
        env={**env, "DCHUB_GATEWAY_HOST": "127.0.0.1", "DCHUB_GATEWAY_PORT": str(gw_port)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _wait(lambda: _healthy(gw.url), "the gateway replica", replica)
    yield gw
    _stop(replica)
    proxy.close()
    _stop(redis)
