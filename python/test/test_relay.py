"""One engine for the panel, the kernels and the CLI: the Jupyter relay answers through core over
the same cache directory and ledger a kernel's ``Client`` and the ``dchub`` CLI use.

A real ``jupyter server`` with the extension relays to the sandbox through a small counting proxy
(so every request that reaches the service is counted); a real kernel runs the Python API; the CLI
is core's. Relay requests are the ones the panel sends in relay mode.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest
from relay_harness import TOKEN, cli, relay

from conftest import PROFILE


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
        "from dchub import Client\nhub = Client()\n"
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
        "from dchub import QuotaSpentError\ntry:\n    hub.news(limit=12)\n"
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
        "from dchub import Client\nhub = Client()\n"
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
