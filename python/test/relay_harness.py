"""The harness of the relay tests: a counting proxy in front of the sandbox, a real ``jupyter
server`` with the extension, a real kernel and the ``dchub`` CLI over one cache directory. The
fixtures are registered by conftest.py; the helpers are imported by the tests.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from conftest import KEYS, PROFILE, PYTHONPATH, ROOT

TOKEN = "relay-test-token"


class CountingProxy:
    """Forwards every request to the sandbox and counts those that reach it."""

    def __init__(self, target: str, echo: bool = False, headers: dict[str, str] | None = None):
        #: Echo the caller's key in every header a relay might pass on (an upstream gone wrong).
        self.echo = echo
        #: Headers added to every answer (a team gateway's notice while it is degraded).
        self.extra = dict(headers or {})
        #: Answer every request with a 302 to this address (an upstream that sends callers away).
        self.redirect: str | None = None
        self.count = 0
        self.paths: list[str] = []
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def _forward(self, method: str) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                proxy.count += 1
                proxy.paths.append(self.path)
                if proxy.redirect:
                    self.send_response(302)
                    self.send_header("Location", proxy.redirect + self.path)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                headers = {
                    k: v
                    for k, v in self.headers.items()
                    if k.lower() not in ("host", "content-length")
                }
                req = urllib.request.Request(
                    target + self.path, data=body, method=method, headers=headers
                )
                try:
                    with urllib.request.urlopen(req, timeout=30) as res:
                        status, out_headers, data = res.status, res.getheaders(), res.read()
                except urllib.error.HTTPError as err:
                    status, out_headers, data = err.code, err.headers.items(), err.read()
                self.send_response(status)
                for k, v in out_headers:
                    if k.lower() not in ("transfer-encoding", "content-length", "connection"):
                        self.send_header(k, v)
                for name, value in proxy.extra.items():
                    self.send_header(name, value)
                key = self.headers.get("X-API-Key") or ""
                if proxy.echo and key:
                    for name in (
                        "ETag",
                        "Content-Disposition",
                        "Mcp-Session-Id",
                        "X-Total-Available",
                        "X-Canonical-Path",
                        "X-RateLimit-Tier",
                    ):
                        self.send_header(name, f'"{key}"' if name == "ETag" else f"echo {key}")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                self._forward("GET")

            def do_POST(self):
                self._forward("POST")

            def log_message(self, *a):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def machine(sandbox, tmp_path):
    """A counting proxy before the sandbox, and the environment every tool of one machine shares."""
    proxy = CountingProxy(sandbox.url)
    key = KEYS["developer"] if PROFILE == "real" else KEYS["free"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("DCHUB_")}
    env.update(
        {
            "DCHUB_BASE_URL": proxy.url,
            "DCHUB_API_KEY": key,
            "DCHUB_CACHE_DIR": str(tmp_path / "cache"),
            "PYTHONPATH": PYTHONPATH,
        }
    )
    yield proxy, env
    proxy.close()


def server_command(port: int, root_dir: object) -> list[str]:
    """The command of a `jupyter server` with the DC Hub extension on `port`, serving `root_dir`."""
    cmd = [
        sys.executable,
        "-m",
        "jupyter_server",
        "--no-browser",
        f"--port={port}",
        "--ServerApp.ip=127.0.0.1",
        f"--IdentityProvider.token={TOKEN}",
        f"--ServerApp.root_dir={root_dir}",
        "--ServerApp.jpserver_extensions=dchub_jupyterlab=True",
    ]
    if hasattr(os, "getuid") and os.getuid() == 0:
        cmd.append("--allow-root")
    return cmd


@pytest.fixture
def server(machine, tmp_path):
    """`jupyter server` with the DC Hub extension, relaying through core."""
    _proxy, env = machine
    port = free_port()
    cmd = server_command(port, tmp_path)
    proc = subprocess.Popen(
        cmd,
        env={**env, "JUPYTER_CONFIG_DIR": str(tmp_path / "jcfg")},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/dchub/config?token={TOKEN}", timeout=2) as res:
                if res.status == 200:
                    break
        except OSError:
            time.sleep(0.3)
    else:
        proc.kill()
        pytest.fail("jupyter server did not start")
    yield url
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()


def relay(server: str, path: str) -> tuple[int, dict, dict]:
    """A GET through the relay, as the panel sends it (Jupyter's token, no key)."""
    req = urllib.request.Request(
        f"{server}/dchub/proxy/{path}", headers={"Authorization": f"token {TOKEN}"}
    )
    try:
        with urllib.request.urlopen(req, timeout=60) as res:
            return res.status, dict(res.headers), json.loads(res.read() or b"null")
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), json.loads(err.read() or b"null")


@pytest.fixture
def kernel(machine):
    """A real IPython kernel with the machine's environment (as the Jupyter server starts them)."""
    from jupyter_client.manager import start_new_kernel

    _proxy, env = machine
    km, kc = start_new_kernel(kernel_name="python3", env=env)

    def run(code: str) -> str:
        out: list[str] = []

        def hook(msg):
            if msg["msg_type"] == "stream":
                out.append(msg["content"]["text"])
            elif msg["msg_type"] == "error":
                out.append("ERROR " + msg["content"]["ename"] + ": " + msg["content"]["evalue"])

        kc.execute_interactive(code, output_hook=hook, timeout=120)
        return "".join(out)

    yield run
    kc.stop_channels()
    km.shutdown_kernel(now=True)


def cli(env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["node", str(ROOT / "core" / "dist" / "cli" / "dchub.js"), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
