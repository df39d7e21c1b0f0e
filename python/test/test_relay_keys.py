"""The relay and the key: the extension point, a malformed server key said but never shown, the
key ``dchub login`` stored found by the Python API, headers that echo the key kept from the
browser and the cache files, the Jupyter server's own token kept from the service and the cache,
and a redirect the relay refuses answered as a bad gateway.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request

from relay_harness import TOKEN, free_port, relay, server_command

from conftest import KEYS, PYTHONPATH, ROOT


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
            "PYTHONPATH": PYTHONPATH,
        }
    )
    port = free_port()
    cmd = server_command(port, tmp_path)
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
    from dchub import Client

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


def test_the_jupyter_token_reaches_neither_the_service_nor_a_cache_file(machine, server, tmp_path):
    """The panel's request authenticated by Jupyter's `?token=` (and a `_xsrf`): the relay
    answers it, the service never sees either, and no cache file's name or content holds them."""
    proxy, _env = machine
    url = f"{server}/dchub/proxy/api/news?limit=4&token={TOKEN}&_xsrf=xsrf-canary"
    with urllib.request.urlopen(url, timeout=60) as res:
        assert res.status == 200
        assert json.loads(res.read())["articles"] is not None
    assert proxy.paths, "the news call reached the service"
    for path in proxy.paths:
        assert TOKEN not in path and "xsrf-canary" not in path, path
    assert any("limit=4" in path for path in proxy.paths)  # the rest of the query went on unchanged
    files = [p for p in (tmp_path / "cache").rglob("*") if p.is_file()]
    assert files
    for p in files:
        assert TOKEN not in p.name and "xsrf-canary" not in p.name, p.name
        text = p.read_text("utf-8", "replace")
        assert TOKEN not in text and "xsrf-canary" not in text, p.name


def test_a_refused_cross_origin_redirect_is_a_bad_gateway(machine, server):
    """The service redirects to another origin: the relay does not follow it with the key and
    answers 502 (the body says upstream_unreachable), not the upstream's 302 without a Location."""
    proxy, _env = machine
    proxy.redirect = "http://elsewhere.invalid"
    status, headers, body = relay(server, "api/v1/markets/list?limit=3")
    assert status == 502, (status, body)
    assert body["error"] == "upstream_unreachable"
    assert "location" not in {k.lower() for k in headers}


def test_the_packages_list_the_api_once_and_import_it_on_first_use():
    """``import dchub`` and ``import dchub_jupyterlab`` (what the server extension does) bring no
    pandas; every name of the API's ``__all__`` (``describe`` included, which the docs use) is then
    reachable from both, and ``from dchub_jupyterlab import Client, charts`` is ``dchub``'s own."""
    code = (
        "import sys, dchub, dchub_jupyterlab as d\n"
        "assert 'pandas' not in sys.modules, 'pandas imported by a package itself'\n"
        "from dchub import api\n"
        "for m in (dchub, d):\n"
        "    missing = [n for n in api.__all__ if getattr(m, n) is not getattr(api, n)]\n"
        "    assert not missing, missing\n"
        "    assert set(api.__all__) <= set(dir(m)) and callable(m.describe)\n"
        "from dchub_jupyterlab import Client, charts\n"
        "import dchub.charts\n"
        "assert Client is dchub.Client and charts is dchub.charts is dchub.charts\n"
    )
    env = {**os.environ, "PYTHONPATH": PYTHONPATH}
    subprocess.run([sys.executable, "-c", code], check=True, env=env, timeout=60)
