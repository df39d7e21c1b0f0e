"""Narrower questions answered from wider answers (issue 14), in Python, as the service would.

The rules are core's (its property test proves them against the sandbox, pair by pair); here:
- The Client: a stricter question after a wider one costs no request and says where it came from
  (``attrs["derived_from"]``); DCPI fields from one scores list; ``derive=False`` turns it off.
- Across tools: the ``dchub`` CLI widens and Python derives without a request, and the reverse.
"""

from __future__ import annotations

import json
import urllib.parse

import pytest

from conftest import KEYS, PROFILE

#: A small-allowance key that sees full queue answers: free at the spec's service; at the real one
#: every caller below Developer gets a 3-row tease (notes §2.21), so Developer (500 a day) there.
QKEY = KEYS["developer"] if PROFILE == "real" else KEYS["free"]

QUEUE = "/api/v1/interconnection-queue/refined"


def client(sandbox, cache_dir, key=QKEY, **kw):
    from dchub import Client

    return Client(base_url=sandbox.url, api_key=key, cache_dir=cache_dir, **kw)


def test_client_widens_then_answers_stricter_questions_locally(sandbox, cache_dir):
    hub = client(sandbox, cache_dir, derive="widen")
    first = hub.queue(iso="NYISO", min_mw=100)
    assert hub.requests_sent == 1 and first.attrs["derived_from"]["query"] == "iso=NYISO&limit=1000"
    questions = [
        dict(iso="NYISO", min_mw=300),
        dict(iso="NYISO", min_mw=150, fuel_type="gas"),
        dict(iso="NYISO", max_ttp_months=24),
        dict(iso="NYISO", geocoded_only=True, limit=7),
    ]
    for q in questions:
        df = hub.queue(**q)
        assert df.attrs["derived_from"]["path"] == QUEUE and df.attrs["from_cache"] is True
        own = sandbox.get(
            f"{QUEUE}?{urllib.parse.urlencode({k: str(v).lower() for k, v in q.items()})}",
            KEYS["pro"],
        )
        assert list(df["queue_id"]) == [r["queue_id"] for r in own["results"]]
        assert df.attrs["count_total_matching"] == own["count_total_matching"]
    assert hub.requests_sent == 1


def test_default_follows_the_stated_tier(sandbox, cache_dir):
    """A small allowance widens once the service stated the tier; a Pro key asks exactly."""
    free = client(sandbox, cache_dir)
    free.queue(iso="SPP", limit=3)  # the first answer states the tier (and is asked exactly)
    free.queue(iso="SPP", min_mw=50)
    assert free.requests_sent == 2
    df = free.queue(iso="SPP", min_mw=80)
    assert free.requests_sent == 2 and df.attrs["derived_from"]["query"] == "iso=SPP&limit=1000"
    pro = client(sandbox, cache_dir, key=KEYS["pro"])
    pro.quota()
    pro.queue(iso="SPP", limit=3)
    pro.queue(iso="SPP", min_mw=50)
    assert pro.requests_sent == 2 and "derived_from" not in pro.queue(iso="SPP", min_mw=50).attrs


def test_derive_false_turns_it_off(sandbox, cache_dir):
    hub = client(sandbox, cache_dir, derive="widen")
    hub.queue(iso="ISO-NE", min_mw=10)
    off = client(sandbox, cache_dir, derive=False)
    df = off.queue(iso="ISO-NE", min_mw=20)
    assert off.requests_sent == 1 and "derived_from" not in df.attrs
    from dchub import ValidationError

    with pytest.raises(ValidationError, match="derive"):
        client(sandbox, cache_dir, derive="sometimes")


def test_dcpi_fields_from_one_scores_list(sandbox, cache_dir):
    hub = client(sandbox, cache_dir, key=KEYS["developer"], derive="widen", tier="developer")
    markets = ["dallas", "phoenix", "atlanta", "chicago", "denver"]
    got = {m: hub.dcpi(m, fields=["verdict", "composite_score"]) for m in markets}
    assert hub.requests_sent == 1
    for m, s in got.items():
        own = sandbox.get(f"/api/v1/dcpi/scores/{m}", KEYS["developer"])
        assert s["verdict"] == own["verdict"] and s["composite_score"] == own["composite_score"]
        assert s.attrs["derived_from"] == {
            "path": "/api/v1/dcpi/scores",
            "query": "",
            "age_seconds": s.attrs["derived_from"]["age_seconds"],
        }
    # A field the list does not carry is fetched from the market itself.
    s = hub.dcpi("dallas", fields="queue_wait_months")
    assert hub.requests_sent == 2 and "derived_from" not in s.attrs


def test_free_tier_takes_no_paid_numerics_from_the_list(sandbox, cache_dir):
    hub = client(sandbox, cache_dir, key=KEYS["free"], derive="widen", tier="free")
    assert (
        hub.dcpi("dallas", fields="verdict").attrs["derived_from"]["path"] == "/api/v1/dcpi/scores"
    )
    sent = hub.requests_sent
    s = hub.dcpi(
        "dallas", fields="composite_score"
    )  # masked below a paid plan: never served from the list
    assert hub.requests_sent == sent + 1 and "derived_from" not in s.attrs


def test_cli_widens_python_derives_without_a_request(sandbox, cache_dir, cli):
    code, out, err = cli(
        "queue",
        "--iso",
        "CAISO",
        "--min-mw",
        "100",
        "--derive",
        "widen",
        "--format",
        "json",
        cache_dir=cache_dir,
        api_key=QKEY,
    )
    assert code == 0, err
    sandbox.faults([{"path_prefix": "/api", "kind": "status", "status": 503}])
    hub = client(sandbox, cache_dir)
    df = hub.queue(iso="CAISO", min_mw=250, fuel_type="solar")
    assert hub.requests_sent == 0 and df.attrs["stale"] is False
    assert df.attrs["derived_from"]["query"] == "iso=CAISO&limit=1000"
    sandbox.control("DELETE", "/_sandbox/faults")
    own = sandbox.get(f"{QUEUE}?iso=CAISO&min_mw=250&fuel_type=solar", KEYS["pro"])
    assert list(df["queue_id"]) == [r["queue_id"] for r in own["results"]]
    # DCPI the same way: the CLI fetched the scores list for one market, Python reads another.
    code, _out, err = cli(
        "dcpi",
        "dallas",
        "--field",
        "verdict",
        "--derive",
        "widen",
        cache_dir=cache_dir,
        api_key=QKEY,
    )
    assert code == 0, err
    sandbox.faults([{"path_prefix": "/api", "kind": "status", "status": 503}])
    s = hub.dcpi("phoenix", fields="verdict")
    assert hub.requests_sent == 0 and s.attrs["derived_from"]["path"] == "/api/v1/dcpi/scores"


def test_python_widens_cli_derives_without_a_request(sandbox, cache_dir, cli):
    hub = client(sandbox, cache_dir, derive="widen")
    hub.queue(iso="SPP,NYISO", min_mw=40)
    hub.dcpi("dallas", fields="verdict")
    sandbox.faults([{"path_prefix": "/api", "kind": "status", "status": 503}])
    code, out, err = cli(
        "queue",
        "--iso",
        "NYISO",
        "--min-mw",
        "90",
        "--baseload-only",
        "--format",
        "json",
        cache_dir=cache_dir,
        api_key=QKEY,
    )
    assert code == 0, err
    assert "answered locally" in err and "served from the cache" not in err
    sandbox.control("DELETE", "/_sandbox/faults")
    own = sandbox.get(f"{QUEUE}?iso=NYISO&min_mw=90&baseload_only=true", KEYS["pro"])
    assert [r["queue_id"] for r in json.loads(out)["results"]] == [
        r["queue_id"] for r in own["results"]
    ]
    sandbox.faults([{"path_prefix": "/api", "kind": "status", "status": 503}])
    code, out, err = cli(
        "dcpi",
        "denver",
        "--field",
        "verdict",
        "--format",
        "json",
        cache_dir=cache_dir,
        api_key=QKEY,
    )
    assert code == 0 and "answered locally" in err, err
    sandbox.control("DELETE", "/_sandbox/faults")
    assert (
        json.loads(out)["verdict"]
        == sandbox.get("/api/v1/dcpi/scores/denver", KEYS["pro"])["verdict"]
    )


@pytest.mark.skipif(
    PROFILE != "real", reason="the 3-row tease below Developer is the real service's (notes §2.21)"
)
def test_teases_answer_nothing_but_themselves(sandbox, cache_dir):
    """A free key at the real service gets the 3-row tease: nothing is derived from it, ever."""
    hub = client(sandbox, cache_dir, key=KEYS["free"], derive="widen")
    first = hub.queue(iso="SPP", min_mw=50)
    assert first.attrs["preview"] and len(first) == 3 and "derived_from" not in first.attrs
    sent = hub.requests_sent
    second = hub.queue(iso="SPP", min_mw=80)
    # Its own request (no wider one: this caller gets previews), and a preview again.
    assert (
        hub.requests_sent == sent + 1
        and second.attrs["preview"]
        and "derived_from" not in second.attrs
    )
