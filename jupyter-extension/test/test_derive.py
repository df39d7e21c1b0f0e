"""Narrower questions answered from wider answers (issue 14), in Python, exactly as the service would.

- A property test: random pairs (G wider than F) over the sandbox's data; Python's answer to F
  derived from the sandbox's answer to G equals the sandbox's own answer to F, member by member and
  row by row in order — or the derivation refuses (and the caller would fetch).
- The Client: a stricter question after a wider one costs no request and says where it came from
  (``attrs["derived_from"]``); DCPI fields from one scores list; ``derive=False`` turns it off.
- Across tools: the ``dchub`` CLI widens and Python derives without a request, and the reverse.
"""

from __future__ import annotations

import json
import urllib.parse
import urllib.request

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import KEYS, PROFILE

#: A small-allowance key that sees full queue answers: free at the spec's service; at the real one
#: every caller below Developer gets a 3-row tease (notes §2.21), so Developer (500 a day) there.
QKEY = KEYS["developer"] if PROFILE == "real" else KEYS["free"]

QUEUE = "/api/v1/interconnection-queue/refined"
ISOS = ("PJM", "ERCOT", "MISO", "CAISO", "SPP", "NYISO", "ISO-NE")
FUEL_TOKENS = ("solar", "battery", "wind", "gas", "hydro", "fuel cell", "offshore")


def filters(**kw):
    from dchub_jupyterlab.api.queue_filters import queue_filters

    return queue_filters(**kw)


@st.composite
def wide_and_narrow(draw):
    """(G, F) with every predicate of F at least as strict as G's (the spec's §4.2 relations)."""
    g_iso = draw(st.one_of(st.none(), st.lists(st.sampled_from(ISOS), min_size=1, max_size=3, unique=True)))
    g_status = draw(st.sampled_from(["active", "all", "all", "all", "study"]))
    g_min = draw(st.sampled_from([None, None, 0, 20, 100]))
    g_fuel = draw(st.one_of(st.none(), st.none(), st.lists(st.sampled_from(FUEL_TOKENS), min_size=1, max_size=3, unique=True)))
    g_ttp = draw(st.sampled_from([None, None, 30, 36, 48, 120]))
    g_base, g_geo = draw(st.booleans()), draw(st.booleans())
    g_fiber = draw(st.sampled_from([None, None, None, 50, 120]))
    g_limit = draw(st.sampled_from([1000, 1000, 1000, 300]))
    g = dict(iso=g_iso, status=g_status, min_mw=g_min, fuel_type=g_fuel, max_ttp_months=g_ttp, baseload_only=g_base,
             geocoded_only=g_geo, max_fiber_km=g_fiber, limit=g_limit)

    pool = g_iso or list(ISOS)
    f_iso = draw(st.one_of(st.just(g_iso), st.lists(st.sampled_from(pool), min_size=1, max_size=len(pool), unique=True)))
    f_min = draw(st.sampled_from([None, 0, 50, 150, 400, 1200])) if g_min is None else g_min + draw(st.sampled_from([0, 30, 250, 900]))
    f_ttp = draw(st.sampled_from([None, 18, 24, 30, 33, 36, 42, 60])) if g_ttp is None else \
        draw(st.sampled_from([t for t in (g_ttp, 12, 18, 24, 28, 30, 33, 36, 42, 48) if t <= g_ttp]))
    if g_fuel:
        # Each of F's tokens contains one of G's: G's own tokens, a subset of them, or longer ones.
        longer = {"wind": "offshore wind", "gas": "natural gas", "solar": "solar", "battery": "battery", "hydro": "hydro",
                  "fuel cell": "fuel cell", "offshore": "offshore wind"}
        f_fuel = draw(st.lists(st.sampled_from(g_fuel + [longer[t] for t in g_fuel]), min_size=1, max_size=2, unique=True))
    else:
        f_fuel = draw(st.one_of(st.none(), st.lists(st.sampled_from(FUEL_TOKENS), min_size=1, max_size=2, unique=True)))
    if g_status == "all":
        f_status = draw(st.sampled_from(["all", "active", "active", "active", "withdrawn", "study", "impact study", "suspend"]))
    elif g_status == "study":
        f_status = draw(st.sampled_from(["study", "impact study", "system impact study"]))
    else:
        f_status = g_status
    f_fiber = draw(st.sampled_from([None, 10, 30, 80])) if g_fiber is None else draw(st.sampled_from([g_fiber, 10, 30]))
    f = dict(iso=f_iso, status=f_status, min_mw=f_min, fuel_type=f_fuel, max_ttp_months=f_ttp,
             baseload_only=g_base or draw(st.booleans()), geocoded_only=g_geo or draw(st.booleans()),
             max_fiber_km=f_fiber, limit=draw(st.sampled_from([5, 40, 200, 1000])))
    return g, f


def test_python_derives_what_the_sandbox_answers(sandbox):
    """Over random pairs, every answer Python derives equals the sandbox's own answer to F."""
    from dchub_jupyterlab.api.derive.queue import derive_queue_answer, read_queue_answer, why_not_wider
    from dchub_jupyterlab.api.jsfmt import form_encode
    from dchub_jupyterlab.api.queue_filters import queue_params

    answers: dict[str, dict] = {}
    seen = {"pairs": 0, "derived": 0, "refused": {}}

    def ask(fl) -> dict:
        q = form_encode(queue_params(fl))
        if q not in answers:
            req = urllib.request.Request(f"{sandbox.url}{QUEUE}?{q}", headers={"X-API-Key": KEYS["enterprise"]})
            with urllib.request.urlopen(req, timeout=60) as res:
                answers[q] = json.loads(res.read())
        return answers[q]

    @settings(max_examples=200, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(wide_and_narrow())
    def check(pair):
        g_kw, f_kw = pair
        g, f = filters(**g_kw), filters(**f_kw)
        assert why_not_wider(g, f) is None, (g, f)  # the generator only makes wider Gs
        seen["pairs"] += 1
        d = derive_queue_answer(read_queue_answer(ask(g)), g, f)
        if d.value is None:
            seen["refused"][d.reason.split(":")[0]] = seen["refused"].get(d.reason.split(":")[0], 0) + 1
            return
        seen["derived"] += 1
        own = ask(f)
        assert [r["queue_id"] for r in d.value["results"]] == [r["queue_id"] for r in own["results"]]
        for mine, theirs in zip(d.value["results"], own["results"]):
            assert mine == theirs
        for k in sorted(set(d.value) | set(own)):
            assert d.value.get(k) == own.get(k), (k, g_kw, f_kw)

    check()
    # The test means something: most pairs are derived, and the refusals are the ones core makes too.
    assert seen["pairs"] == 200 and seen["derived"] >= 50, seen
    assert set(seen["refused"]) <= {"incomplete", "max_ttp_months", "_error_mitigation"}, seen


def test_refuses_what_it_cannot_rebuild(sandbox):
    from dchub_jupyterlab.api.derive.queue import derive_queue_answer, read_queue_answer

    g = filters(iso="PJM", status="all", limit=1000)
    body = sandbox.get(f"{QUEUE}?iso=PJM&status=all&limit=1000", KEYS["pro"])
    assert body["count_total_matching"] > body["count_returned"]  # PJM holds more than 1,000 projects
    assert derive_queue_answer(read_queue_answer(body), g, filters(iso="PJM", min_mw=500)).reason == "incomplete: the limit cut it"
    wide = sandbox.get(f"{QUEUE}?iso=SPP&limit=1000", KEYS["pro"])
    g = filters(iso="SPP", limit=1000)
    assert derive_queue_answer(read_queue_answer(wide), g, filters(iso="SPP,PJM")).reason == "iso: not a subset"
    assert derive_queue_answer(read_queue_answer(wide), g, filters(iso="SPP", status="all")).reason == "status: not narrower"
    teased = {**wide, "_gated": True}
    assert "preview" in derive_queue_answer(read_queue_answer(teased), g, filters(iso="SPP", min_mw=10)).reason


def client(sandbox, cache_dir, key=QKEY, **kw):
    from dchub_jupyterlab import Client

    return Client(base_url=sandbox.url, api_key=key, cache_dir=cache_dir, **kw)


def test_client_widens_then_answers_stricter_questions_locally(sandbox, cache_dir):
    hub = client(sandbox, cache_dir, derive="widen")
    first = hub.queue(iso="NYISO", min_mw=100)
    assert hub.requests_sent == 1 and first.attrs["derived_from"]["query"] == "iso=NYISO&limit=1000"
    questions = [dict(iso="NYISO", min_mw=300), dict(iso="NYISO", min_mw=150, fuel_type="gas"),
                 dict(iso="NYISO", max_ttp_months=24), dict(iso="NYISO", geocoded_only=True, limit=7)]
    for q in questions:
        df = hub.queue(**q)
        assert df.attrs["derived_from"]["path"] == QUEUE and df.attrs["from_cache"] is True
        own = sandbox.get(f"{QUEUE}?{urllib.parse.urlencode({k: str(v).lower() for k, v in q.items()})}", KEYS["pro"])
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
    from dchub_jupyterlab import ValidationError

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
        assert s.attrs["derived_from"] == {"path": "/api/v1/dcpi/scores", "query": "", "age_seconds": s.attrs["derived_from"]["age_seconds"]}
    # A field the list does not carry is fetched from the market itself.
    s = hub.dcpi("dallas", fields="queue_wait_months")
    assert hub.requests_sent == 2 and "derived_from" not in s.attrs


def test_free_tier_takes_no_paid_numerics_from_the_list(sandbox, cache_dir):
    hub = client(sandbox, cache_dir, key=KEYS["free"], derive="widen", tier="free")
    assert hub.dcpi("dallas", fields="verdict").attrs["derived_from"]["path"] == "/api/v1/dcpi/scores"
    sent = hub.requests_sent
    s = hub.dcpi("dallas", fields="composite_score")  # masked below a paid plan: never served from the list
    assert hub.requests_sent == sent + 1 and "derived_from" not in s.attrs


def test_cli_widens_python_derives_without_a_request(sandbox, cache_dir, cli):
    code, out, err = cli("queue", "--iso", "CAISO", "--min-mw", "100", "--derive", "widen", "--format", "json",
                         cache_dir=cache_dir, api_key=QKEY)
    assert code == 0, err
    sandbox.faults([{"path_prefix": "/api", "kind": "status", "status": 503}])
    hub = client(sandbox, cache_dir)
    df = hub.queue(iso="CAISO", min_mw=250, fuel_type="solar")
    assert hub.requests_sent == 0 and df.attrs["stale"] is False
    assert df.attrs["derived_from"]["query"] == "iso=CAISO&limit=1000"
    sandbox.control("DELETE", "/_sandbox/faults")
    own = sandbox.get(f"{QUEUE}?iso=CAISO&min_mw=250&fuel_type=solar", KEYS["pro"])
    assert list(df["queue_id"]) == [r["queue_id"] for r in own["results"]]
    # DCPI the same way: the CLI fetched the scores list for one market, Python reads another from it.
    code, _out, err = cli("dcpi", "dallas", "--field", "verdict", "--derive", "widen", cache_dir=cache_dir, api_key=QKEY)
    assert code == 0, err
    sandbox.faults([{"path_prefix": "/api", "kind": "status", "status": 503}])
    s = hub.dcpi("phoenix", fields="verdict")
    assert hub.requests_sent == 0 and s.attrs["derived_from"]["path"] == "/api/v1/dcpi/scores"


def test_python_widens_cli_derives_without_a_request(sandbox, cache_dir, cli):
    hub = client(sandbox, cache_dir, derive="widen")
    hub.queue(iso="SPP,NYISO", min_mw=40)
    hub.dcpi("dallas", fields="verdict")
    sandbox.faults([{"path_prefix": "/api", "kind": "status", "status": 503}])
    code, out, err = cli("queue", "--iso", "NYISO", "--min-mw", "90", "--baseload-only", "--format", "json",
                         cache_dir=cache_dir, api_key=QKEY)
    assert code == 0, err
    assert "answered locally" in err and "served from cache" not in err
    sandbox.control("DELETE", "/_sandbox/faults")
    own = sandbox.get(f"{QUEUE}?iso=NYISO&min_mw=90&baseload_only=true", KEYS["pro"])
    assert [r["queue_id"] for r in json.loads(out)["results"]] == [r["queue_id"] for r in own["results"]]
    sandbox.faults([{"path_prefix": "/api", "kind": "status", "status": 503}])
    code, out, err = cli("dcpi", "denver", "--field", "verdict", "--format", "json", cache_dir=cache_dir, api_key=QKEY)
    assert code == 0 and "answered locally" in err, err
    sandbox.control("DELETE", "/_sandbox/faults")
    assert json.loads(out)["verdict"] == sandbox.get("/api/v1/dcpi/scores/denver", KEYS["pro"])["verdict"]


@pytest.mark.skipif(PROFILE != "real", reason="the 3-row tease below Developer is the real service's (notes §2.21)")
def test_teases_answer_nothing_but_themselves(sandbox, cache_dir):
    """A free key at the real service gets the 3-row tease: nothing is derived from it, whatever the setting."""
    hub = client(sandbox, cache_dir, key=KEYS["free"], derive="widen")
    first = hub.queue(iso="SPP", min_mw=50)
    assert first.attrs["preview"] and len(first) == 3 and "derived_from" not in first.attrs
    sent = hub.requests_sent
    second = hub.queue(iso="SPP", min_mw=80)
    # Its own request (no wider one: this caller gets previews), and a preview again.
    assert hub.requests_sent == sent + 1 and second.attrs["preview"] and "derived_from" not in second.attrs
