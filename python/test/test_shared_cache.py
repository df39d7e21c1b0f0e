"""Contract with the dchub CLI (core): one cache directory, one format, one daily allowance.

Both directions: an answer the CLI cached is served to Python without a request, and the other way
round; ten keyless calls a day are ten whichever tool spends them. The file format is checked
field by field, so a change on either side (core's ledger, the store layout) fails here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from urllib.parse import quote

import pytest

from conftest import KEYS, PROFILE, ROOT

QUEUE = "/api/v1/interconnection-queue/refined"


def files(cache_dir):
    return {p.name: json.loads(p.read_text()) for p in cache_dir.glob("*.json")}


def client(sandbox, cache_dir, key=KEYS["pro"]):
    from dchub import Client

    return Client(base_url=sandbox.url, api_key=key, cache_dir=cache_dir)


def test_cli_writes_python_reads_without_a_request(sandbox, cache_dir, cli):
    code, out, err = cli(
        "queue",
        "--iso",
        "PJM,MISO",
        "--min-mw",
        "200",
        "--max-ttp-months",
        "36",
        "--format",
        "json",
        cache_dir=cache_dir,
        api_key=KEYS["pro"],
    )
    assert code == 0, err
    cli_rows = json.loads(out)["results"]
    # The service is down for this path from now on: only the shared cache can answer.
    sandbox.faults([{"path_prefix": QUEUE, "kind": "status", "status": 503}])
    hub = client(sandbox, cache_dir)
    df = hub.queue(iso="pjm, miso", min_mw=200.0, max_ttp_months="36")
    assert hub.requests_sent == 0 and df.attrs["from_cache"] is True and df.attrs["stale"] is False
    assert list(df["queue_id"]) == [r["queue_id"] for r in cli_rows]


def test_python_writes_cli_reads_without_a_request(sandbox, cache_dir, cli):
    hub = client(sandbox, cache_dir)
    df = hub.queue(iso="ERCOT", min_mw=100, fuel_type="gas", geocoded_only=True, limit=50)
    pos = hub.site_score(32.9, -97.0, capacity_mw=75)
    sandbox.faults([{"path_prefix": "/api", "kind": "status", "status": 503}])
    code, out, err = cli(
        "queue",
        "--iso",
        "ERCOT",
        "--min-mw",
        "100",
        "--fuel-type",
        "gas",
        "--geocoded-only",
        "--limit",
        "50",
        "--format",
        "json",
        cache_dir=cache_dir,
        api_key=KEYS["pro"],
    )
    assert code == 0, err
    assert [r["queue_id"] for r in json.loads(out)["results"]] == list(df["queue_id"])
    assert "served from the cache" not in err  # fresh, not a fallback
    code, out, err = cli(
        "score",
        "32.9",
        "-97.0",
        "--capacity-mw",
        "75",
        "--format",
        "json",
        cache_dir=cache_dir,
        api_key=KEYS["pro"],
    )
    assert code == 0, err
    assert json.loads(out)["overall_score"] == pos["overall_score"]


def test_ten_keyless_calls_are_ten_across_both(sandbox, cache_dir, cli):
    from dchub import QuotaSpentError

    hub = client(sandbox, cache_dir, key="")
    for i in range(5):
        hub.news(limit=i + 1)
    for i in range(5):
        code, _out, err = cli("news", "--limit", str(10 + i), cache_dir=cache_dir)
        assert code == 0, err
    assert hub.quota()["used"] == 10 and hub.quota()["remaining"] == 0
    sent = hub.requests_sent
    if PROFILE == "real":
        # No daily limit stated to keyless callers (notes §1.5): the 11th call goes out, and the
        # service's 429 makes the spent day known to both tools.
        from dchub import RateLimitError

        with pytest.warns(UserWarning), pytest.raises(RateLimitError):
            hub.news(limit=29)
        sent += 1
    with pytest.raises(QuotaSpentError):
        hub.news(limit=30)
    assert hub.requests_sent == sent
    code, _out, err = cli("news", "--limit", "31", cache_dir=cache_dir)
    assert code == 4 and "allowance" in err
    code, out, _err = cli("quota", "--format", "json", cache_dir=cache_dir)
    assert json.loads(out)["used"] == 10 and json.loads(out)["remaining"] == 0


def test_cli_spends_python_sees_it(sandbox, cache_dir, cli):
    for i in range(3):
        assert cli("news", "--limit", str(i + 1), cache_dir=cache_dir)[0] == 0
    hub = client(sandbox, cache_dir, key="")
    q = hub.quota()
    assert q["used"] == 3 and q["limit"] == 10 and q["tier"] == "anonymous"


def test_file_format_is_cores(sandbox, cache_dir, cli):
    """Python's files and the CLI's, side by side: same naming, same fields, same ledger."""
    host = sandbox.url.split("://", 1)[1]
    hub = client(sandbox, cache_dir, key="")
    hub.news(limit=1)
    assert cli("news", "--limit", "2", cache_dir=cache_dir)[0] == 0
    found = files(cache_dir)
    ledger_key = f"dchub:quota:{host}:anon"
    name = quote(ledger_key, safe="-_.!~*'()").replace("%", "_") + ".json"
    assert found[name]["key"] == ledger_key
    state = json.loads(found[name]["value"])
    # Core's ledger state. The spec's service states the keyless limit (X-RateLimit-Limit with a
    # Reset): known; the real one reports only its per-minute bucket to keyless callers: assumed.
    assert list(state)[:5] == ["day", "used", "limit", "tier", "known"] and state["used"] == 2
    # The day ends when the service says it resets (X-RateLimit-Reset), where it says so.
    assert ("resetAt" in state) is (PROFILE == "spec")
    assert (
        state["known"] is (PROFILE == "spec")
        and state["limit"] == 10
        and state["tier"] == "anonymous"
    )
    answers = {
        f["key"]: json.loads(f["value"]) for f in found.values() if f["key"].startswith("dchub:c:")
    }
    # Keys name the service (its origin), so two services never share an answer.
    py_key = f"dchub:c:anon:GET {sandbox.url} /api/news?limit=1"
    cli_key = f"dchub:c:anon:GET {sandbox.url} /api/news?limit=2"
    assert set(answers) == {py_key, cli_key}
    for a in answers.values():
        assert set(a) <= {"text", "storedAt", "expiresAt", "etag", "preview", "headers"}
        assert {"text", "storedAt", "expiresAt"} <= set(a) and a["expiresAt"] > a["storedAt"]
        json.loads(a["text"])
    assert (
        list(answers[py_key])[:3] == list(answers[cli_key])[:3] == ["text", "storedAt", "expiresAt"]
    )
    # The same members in the same order (the answers differ only in values), headers kept alike.
    assert [k for k in answers[py_key] if k != "etag"] == [
        k for k in answers[cli_key] if k != "etag"
    ]
    assert answers[py_key]["headers"]["content-type"] == answers[cli_key]["headers"]["content-type"]
    # Each side reads the other's answer.
    sandbox.faults([{"path_prefix": "/api", "kind": "status", "status": 503}])
    assert len(hub.news(limit=2)) == 2 and hub.requests_sent == 1


def test_mcp_answers_and_allowance_are_shared(sandbox, cache_dir, cli):
    code, out, err = cli(
        "tool",
        "get_market_dcpi_rank",
        "market_slug=dallas",
        "--format",
        "json",
        cache_dir=cache_dir,
        api_key=KEYS["pro"],
    )
    assert code == 0, err
    hub = client(sandbox, cache_dir)
    sandbox.faults([{"path_prefix": "/mcp", "kind": "status", "status": 503}])
    d = hub.tool("get_market_dcpi_rank", market_slug="dallas")
    assert d == json.loads(out)


def test_two_services_never_share_an_answer(sandbox, cache_dir, cli):
    """The CLI caches an answer of the sandbox; the same question to another service (the same
    sandbox under another name: localhost) is not answered from it, by either tool."""
    code, _out, err = cli("news", "--limit", "3", cache_dir=cache_dir)
    assert code == 0, err
    other = sandbox.url.replace("127.0.0.1", "localhost")
    from dchub import Client

    hub = Client(base_url=other, api_key="", cache_dir=cache_dir)
    hub.news(limit=3)
    assert hub.requests_sent == 1
    keys = sorted(f["key"] for f in files(cache_dir).values() if f["key"].startswith("dchub:c:"))
    assert keys == sorted(
        [
            f"dchub:c:anon:GET {other} /api/news?limit=3",
            f"dchub:c:anon:GET {sandbox.url} /api/news?limit=3",
        ]
    )
    # And each tool still finds its own service's answer.
    again = Client(base_url=sandbox.url + "/", api_key="", cache_dir=cache_dir)
    again.news(limit=3)
    assert again.requests_sent == 0


@pytest.mark.parametrize("env", [{}, {"XDG_CACHE_HOME": "{tmp}/xdg"}, {"XDG_CACHE_HOME": "  "}])
def test_default_cache_directory_is_the_clis(tmp_path, env):
    """Without --cache-dir or DCHUB_CACHE_DIR, the CLI and the Python API pick the same directory
    (platformdirs' user cache directory)."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DCHUB_", "XDG_"))}
    base["HOME"] = str(tmp_path / "home")
    base.update({k: v.replace("{tmp}", str(tmp_path)) for k, v in env.items()})
    p = subprocess.run(
        [
            "node",
            str(ROOT / "core" / "dist" / "cli" / "dchub.js"),
            "cache",
            "stats",
            "--format",
            "json",
        ],
        env=base,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert p.returncode == 0, p.stderr
    cli_dir = json.loads(p.stdout)["directory"]
    py = subprocess.run(
        [
            sys.executable,
            "-c",
            "from dchub import default_cache_dir; print(default_cache_dir())",
        ],
        env=base,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT / "python",
    )
    assert py.returncode == 0, py.stderr
    assert py.stdout.strip() == cli_dir
    expected = (
        f"{tmp_path}/xdg/dchub"
        if env.get("XDG_CACHE_HOME", "").strip()
        else f"{tmp_path}/home/.cache/dchub"
    )
    assert cli_dir == expected
