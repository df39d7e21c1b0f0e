"""One engine for the panel, the kernels and the CLI: the Jupyter relay answers through core over
the same cache directory and ledger a kernel's ``Client`` and the ``dchub`` CLI use.

A real ``jupyter server`` with the extension relays to the sandbox through a small counting proxy
(so every request that reaches the service is counted); a real kernel runs the Python API; the CLI
is core's. Relay requests are the ones the panel sends in relay mode.
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

from conftest import KEYS, PROFILE, ROOT

TOKEN = "relay-test-token"


class CountingProxy:
    """Forwards every request to the sandbox and counts those that reach it."""

    def __init__(self, target: str, echo: bool = False):
        #: Echo the caller's key in every header a relay might pass on (an upstream gone wrong).
        self.echo = echo
        self.count = 0
        self.paths: list[str] = []
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def _forward(self, method: str) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                proxy.count += 1
                proxy.paths.append(self.path)
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
            "PYTHONPATH": str(ROOT / "jupyter-extension"),
        }
    )
    yield proxy, env
    proxy.close()


@pytest.fixture
def server(machine, tmp_path):
    """`jupyter server` with the DC Hub extension, relaying through core."""
    _proxy, env = machine
    port = free_port()
    cmd = [
        sys.executable,
        "-m",
        "jupyter_server",
        "--no-browser",
        f"--port={port}",
        "--ServerApp.ip=127.0.0.1",
        f"--IdentityProvider.token={TOKEN}",
        f"--ServerApp.root_dir={tmp_path}",
        "--ServerApp.jpserver_extensions=dchub_jupyterlab=True",
    ]
    if hasattr(os, "getuid") and os.getuid() == 0:
        cmd.append("--allow-root")
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


@pytest.mark.skipif(
    PROFILE != "spec",
    reason="the spec's service states a free key's daily limit; the real one a developer's",
)
def test_panel_kernel_and_cli_spend_one_allowance(machine, server, kernel):
    """Ten calls of a free key spread over the relay, a kernel and the CLI; the eleventh is refused
    by whichever makes it, without a request."""
    proxy, env = machine
    for i in range(4):
        status, _h, body = relay(server, f"api/news?limit={i + 1}")
        assert status == 200 and len(body["articles"]) == i + 1
    out = kernel(
        "from dchub_jupyterlab import Client\nhub = Client()\n"
        "for n in (5, 6, 7):\n    print(len(hub.news(limit=n)))\nprint(hub.quota()['used'])"
    )
    assert out.split() == ["5", "6", "7", "7"], out
    for n in (8, 9, 10):
        p = cli(env, "news", "--limit", str(n))
        assert p.returncode == 0, p.stderr
    assert proxy.count == 10
    # The eleventh, by each of them: refused from the shared ledger, nothing sent.
    status, _h, body = relay(server, "api/news?limit=11")
    assert status == 429 and body["error"] == "daily_limit_reached" and body["_relay"] is True
    out = kernel(
        "from dchub_jupyterlab import QuotaSpentError\ntry:\n    hub.news(limit=12)\n"
        "except QuotaSpentError as e:\n    print('refused', e.limit)"
    )
    assert out.strip() == "refused 10", out
    p = cli(env, "news", "--limit", "13")
    assert p.returncode == 4 and "allowance" in p.stderr
    assert proxy.count == 10
    q = json.loads(
        urllib.request.urlopen(
            urllib.request.Request(
                f"{server}/dchub/quota", headers={"Authorization": f"token {TOKEN}"}
            ),
            timeout=30,
        ).read()
    )
    assert q["used"] == 10 and q["remaining"] == 0 and q["confirmed"] is True


def test_an_answer_the_panel_fetched_is_the_kernels_without_a_request(machine, server, kernel):
    proxy, _env = machine
    status, headers, body = relay(
        server, "api/v1/interconnection-queue/refined?iso=SPP&min_mw=100&limit=20"
    )
    assert status == 200 and body["count_returned"] > 0, body
    assert "x-dchub-answer" in {k.lower() for k in headers}
    sent = proxy.count
    out = kernel(
        "from dchub_jupyterlab import Client\nhub = Client()\n"
        "df = hub.queue(iso='SPP', min_mw=100, limit=20)\n"
        "print(hub.requests_sent, df.attrs['from_cache'], list(df['queue_id']) == "
        f"{json.dumps([r['queue_id'] for r in body['results']])})"
    )
    assert out.split() == ["0", "True", "True"], out
    assert proxy.count == sent


def test_the_relay_keeps_the_key_and_relays_only_the_api(machine, server):
    """The key never reaches the browser (not even echoed), other paths are refused, and Jupyter's
    authentication applies."""
    _proxy, env = machine
    key = env["DCHUB_API_KEY"]
    status, headers, body = relay(server, "api/v1/markets/list")
    assert status == 200 and key not in json.dumps(body) and key not in json.dumps(headers)
    for path in (
        "_sandbox/clock",
        "api/../_sandbox/clock",
        "api/%2e%2e/_sandbox/faults",
        "openapi.yaml",
    ):
        status, _h, body = relay(server, path)
        assert status == 404 and body["error"] == "not_relayed", path
    with pytest.raises(urllib.error.HTTPError) as info:
        urllib.request.urlopen(f"{server}/dchub/proxy/api/news", timeout=30)
    assert info.value.code == 403
    config = json.loads(
        urllib.request.urlopen(
            urllib.request.Request(
                f"{server}/dchub/config", headers={"Authorization": f"token {TOKEN}"}
            ),
            timeout=30,
        ).read()
    )
    assert (
        config["has_key"] is True
        and config["base_url"] == env["DCHUB_BASE_URL"]
        and key not in json.dumps(config)
    )


def test_server_extension_point():
    from dchub_jupyterlab import _jupyter_server_extension_points

    assert _jupyter_server_extension_points() == [{"module": "dchub_jupyterlab"}]


def test_a_malformed_server_key_is_said_never_shown(sandbox, tmp_path):
    """A key pasted with a line break into the server's environment: the panel is told what is wrong
    (no key, why), relayed calls are refused the same way, and the key shows nowhere."""
    bad = f"{KEYS['pro']}\nX-Evil: 1"
    env = {k: v for k, v in os.environ.items() if not k.startswith("DCHUB_")}
    env.update(
        {
            "DCHUB_BASE_URL": sandbox.url,
            "DCHUB_API_KEY": bad,
            "DCHUB_CACHE_DIR": str(tmp_path / "c"),
            "PYTHONPATH": str(ROOT / "jupyter-extension"),
        }
    )
    port = free_port()
    cmd = [
        sys.executable,
        "-m",
        "jupyter_server",
        "--no-browser",
        f"--port={port}",
        "--ServerApp.ip=127.0.0.1",
        f"--IdentityProvider.token={TOKEN}",
        f"--ServerApp.root_dir={tmp_path}",
        "--ServerApp.jpserver_extensions=dchub_jupyterlab=True",
    ]
    if hasattr(os, "getuid") and os.getuid() == 0:
        cmd.append("--allow-root")
    log = tmp_path / "server.log"
    with open(log, "w") as out:
        proc = subprocess.Popen(
            cmd, env={**env, "JUPYTER_CONFIG_DIR": str(tmp_path / "jcfg")}, stdout=out, stderr=out
        )
    url = f"http://127.0.0.1:{port}"
    try:
        config = None
        for _ in range(200):
            try:
                req = urllib.request.Request(
                    f"{url}/dchub/config", headers={"Authorization": f"token {TOKEN}"}
                )
                with urllib.request.urlopen(req, timeout=2) as res:
                    config = json.loads(res.read())
                    break
            except OSError:
                time.sleep(0.3)
        assert config is not None and config["has_key"] is False
        assert "contains a line break — check how it was pasted" in config["key_error"]
        status, _h, body = relay(url, "api/news?limit=1")
        assert status >= 400 and "line break" in json.dumps(body)
        for text in (json.dumps(config), json.dumps(body), log.read_text()):
            assert KEYS["pro"] not in text
    finally:
        proc.terminate()
        proc.wait(15)


def test_the_python_api_finds_the_key_dchub_login_stored(sandbox, tmp_path, monkeypatch):
    from dchub_jupyterlab import Client

    config = tmp_path / "config"
    env = {k: v for k, v in os.environ.items() if not k.startswith("DCHUB_")}
    p = subprocess.run(
        [
            "node",
            str(ROOT / "core" / "dist" / "cli" / "dchub.js"),
            "login",
            "--base-url",
            sandbox.url,
        ],
        input=KEYS["pro"] + "\n",
        env={**env, "XDG_CONFIG_HOME": str(config), "HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert p.returncode == 0, p.stderr
    monkeypatch.delenv("DCHUB_API_KEY", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    hub = Client(base_url=sandbox.url, cache_dir=tmp_path / "cache")
    assert "api_key=set" in repr(hub)
    hub.news(limit=1)
    assert hub.quota()["tier"] == "pro"
    assert "api_key=none" in repr(
        Client(base_url=sandbox.url, api_key="", cache_dir=tmp_path / "cache")
    )


def test_headers_that_echo_the_key_reach_neither_the_browser_nor_a_cache_file(
    machine, server, tmp_path
):
    """An upstream that echoes X-API-Key in ETag, Content-Disposition, Mcp-Session-Id,
    X-Total-Available, X-Canonical-Path and X-RateLimit-*: the relay drops each such header, and no
    cache file keeps it."""
    proxy, env = machine
    key = env["DCHUB_API_KEY"]
    proxy.echo = True
    for path in ("api/v1/markets/list", "api/news?limit=2", "api/v1/market-brief/all.csv?limit=5"):
        req = urllib.request.Request(
            f"{server}/dchub/proxy/{path}", headers={"Authorization": f"token {TOKEN}"}
        )
        with urllib.request.urlopen(req, timeout=60) as res:
            status, headers, body = res.status, dict(res.headers), res.read().decode()
        assert status == 200, path
        assert key not in json.dumps(headers) and key not in body, (path, headers)
    files = [p for p in (tmp_path / "cache").rglob("*") if p.is_file()]
    assert files  # the answers were cached: without the echoed ETag
    for p in files:
        assert key not in p.read_text("utf-8", "replace"), p.name
