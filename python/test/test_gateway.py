"""The Python API and the Jupyter relay against a team gateway (issue 25), unchanged: the gateway's
URL as ``base_url``, a gateway token as the key. Their quota says "via the team gateway" with the
token's share, the gateway's notice is a warning, a revoked token is an AuthError, and the relay
defers to the gateway's count (a real ``jupyter server``, redis-server and gateway replica).
"""

from __future__ import annotations

import json
import os
import subprocess
import time
import urllib.error
import urllib.request
import warnings

import pytest
from relay_harness import TOKEN, CountingProxy, free_port, relay, server_command

from conftest import KEYS, PYTHONPATH

QUEUE_PATH = "/api/v1/interconnection-queue/refined?iso=ERCOT&min_mw=100&limit=5"
NOTICE = "degraded: the team gateway cannot reach Redis; this replica answers from its memory"


def test_client_works_unchanged_and_shares_the_gateways_cache(gateway, sandbox, tmp_path):
    from dchub import Client

    ann = Client(base_url=gateway.url, api_key=gateway.tokens["ann"], cache_dir=tmp_path / "ann")
    df = ann.queue(iso="ERCOT", min_mw=100, limit=5)
    body = sandbox.get(QUEUE_PATH, KEYS["pro"])
    assert list(df["queue_id"]) == [r["queue_id"] for r in body["results"]]
    # Another analyst, another machine: the gateway's cache answers, with the age it has there.
    bob = Client(base_url=gateway.url, api_key=gateway.tokens["bob"], cache_dir=tmp_path / "bob")
    again = bob.queue(iso="ERCOT", min_mw=100, limit=5)
    assert list(again["queue_id"]) == list(df["queue_id"])
    assert again.attrs["from_cache"] is True and again.attrs["stale"] is False
    assert gateway.upstream(QUEUE_PATH) == 1

    q = ann.quota()
    assert q["via_gateway"] is True and q["tier"] == "team gateway"
    assert (q["limit"], q["remaining"]) == (20, 19)
    assert q["gateway"]["share_limit"] == 20 and q["gateway"]["share_remaining"] == 19
    assert q["line"].startswith("via the team gateway: 19 of 20 requests left in your share today")
    assert bob.quota()["line"].startswith("via the team gateway: ")
    ann.close()
    bob.close()


def test_the_gateways_notice_is_a_warning(gateway, tmp_path):
    from dchub import Client

    degraded = CountingProxy(gateway.url, headers={"X-DCHub-Notice": NOTICE})
    try:
        hub = Client(base_url=degraded.url, api_key=gateway.tokens["bob"], cache_dir=tmp_path)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            df = hub.markets()
        assert f"DC Hub: {NOTICE}" in [str(w.message) for w in caught]
        assert NOTICE in df.attrs["warnings"]
        hub.close()
    finally:
        degraded.close()


def test_a_revoked_token_is_an_auth_error(gateway, tmp_path):
    from dchub import AuthError, Client

    hub = Client(base_url=gateway.url, api_key=gateway.tokens["eve"], cache_dir=tmp_path)
    assert len(hub.news(limit=2)) == 2
    p = gateway.cli("token", "revoke", "eve")
    assert p.returncode == 0, p.stderr
    with pytest.raises(AuthError) as info:
        hub.news(limit=3)
    assert "does not know this token" in str(info.value)
    assert gateway.tokens["eve"] not in str(info.value)
    hub.close()


@pytest.fixture
def gateway_relay(gateway, tmp_path):
    """`jupyter server` with the extension, relaying to the gateway with the `lab` token."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DCHUB_")}
    env.update(
        {
            "DCHUB_BASE_URL": gateway.url,
            "DCHUB_API_KEY": gateway.tokens["lab"],
            "DCHUB_CACHE_DIR": str(tmp_path / "cache"),
            "PYTHONPATH": PYTHONPATH,
            "JUPYTER_CONFIG_DIR": str(tmp_path / "jcfg"),
        }
    )
    port = free_port()
    proc = subprocess.Popen(
        server_command(port, tmp_path),
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/dchub/config?token={TOKEN}", timeout=2):
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


def quota(server: str) -> dict:
    req = urllib.request.Request(
        f"{server}/dchub/quota", headers={"Authorization": f"token {TOKEN}"}
    )
    with urllib.request.urlopen(req, timeout=30) as res:
        return dict(json.loads(res.read()))


def test_the_relay_defers_to_the_gateway(gateway, gateway_relay):
    """The relay's token has a share of 2: the gateway refuses the third new question (its 429
    passed on), and the relay still relays what the gateway holds (its own ledger is not spent)."""
    held = "api/v1/markets?limit=9"
    bob = {"X-API-Key": gateway.tokens["bob"]}
    req = urllib.request.Request(f"{gateway.url}/{held}", headers=bob)
    with urllib.request.urlopen(req, timeout=30) as res:
        assert res.status == 200
    for n in (1, 2):
        status, _h, _b = relay(gateway_relay, f"api/v1/markets?limit={n}")
        assert status == 200
    status, _h, body = relay(gateway_relay, "api/v1/markets?limit=3")
    assert status == 429 and body["error"] == "daily_limit_reached"
    assert "daily share of 2 upstream requests of lab is spent" in body["message"]
    assert gateway.upstream("/api/v1/markets?limit=3") == 0
    status, headers, _b = relay(gateway_relay, held)
    assert status == 200
    facts = {k.lower(): v for k, v in headers.items()}["x-dchub-answer"]
    assert json.loads(facts)["from_cache"] is True
    q = quota(gateway_relay)
    assert q["via_gateway"] is True and q["remaining"] == 0
    assert q["gateway"]["share_limit"] == 2 and q["gateway"]["share_remaining"] == 0
    assert q["line"].startswith("via the team gateway: 0 of 2 requests left in your share today")
