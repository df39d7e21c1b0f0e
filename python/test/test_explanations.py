"""What the service explains reaches a notebook (issue 20; docs/explanations.md).

An answer carries core's explanations as ``attrs["explanations"]`` (a list of lines, the service's
own words) and raises each as a ``UserWarning``; an exception's message ends with what the
service's refusal explained (a hint, the valid names it suggests), a line each.
"""

from __future__ import annotations

import json
import urllib.error
import warnings

import pytest

from conftest import KEYS

QUEUE = "/api/v1/interconnection-queue/refined"


def _excluded(cut: int, iso: str, months: float) -> str:
    longer = "(average time to power longer)"
    return f"excluded by max_ttp_months {cut} {longer}: {iso} ({months:g} months)"


def test_a_time_to_power_cut_that_empties_the_queue_says_why_and_what_to_ask(hub, sandbox):
    said = sandbox.get(f"{QUEUE}?iso=PJM&max_ttp_months=30", KEYS["pro"])
    assert said["results"] == []
    hint = said["_error_mitigation"]["deterministic_hint"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        df = hub.queue(iso="PJM", max_ttp_months=30)
    assert len(df) == 0
    lines = [_excluded(30, "PJM", said["isos_excluded_by_ttp"]["PJM"]), hint]
    assert df.attrs["explanations"] == lines
    assert df.attrs["suggested_max_ttp_months"] > 30
    assert hint in df.attrs["note"]
    # Shown in the notebook too: one warning a line, in the service's words.
    assert [str(w.message) for w in caught if w.category is UserWarning] == [
        f"DC Hub: {line}" for line in lines
    ]


def test_a_cut_with_rows_still_names_the_iso_it_excluded(hub):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df = hub.queue(iso="PJM,SPP", max_ttp_months=30, limit=5)
    assert len(df) > 0 and set(df["iso"]) == {"SPP"}
    assert len(df.attrs["explanations"]) == 1
    assert df.attrs["explanations"][0].startswith(
        "excluded by max_ttp_months 30 (average time to power longer): PJM ("
    )


def test_a_full_answer_explains_nothing(hub):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        df = hub.queue(iso="CAISO", limit=5)
    assert df.attrs["explanations"] == []


def test_a_market_the_service_does_not_know_raises_with_the_markets_it_suggests(hub, sandbox):
    from dchub import NotFoundError

    with pytest.raises(urllib.error.HTTPError) as refused:
        sandbox.get("/api/v1/market-brief/atlantis", KEYS["pro"])
    said = json.loads(refused.value.read())
    with pytest.raises(NotFoundError) as info:
        hub.brief("atlantis")
    suggestion = f"markets to try: {', '.join(said['sample_markets'])}"
    assert info.value.explanations == [suggestion]
    assert str(info.value).split("\n") == [said["error"], suggestion]


def test_an_unknown_key_says_where_to_get_one_and_never_echoes_it(sandbox, cache_dir):
    from dchub import AuthError, Client

    bad = "explain-unknown-key-4242"
    hub = Client(base_url=sandbox.url, api_key=bad, cache_dir=cache_dir)
    try:
        with pytest.raises(AuthError) as info:
            hub.queue(iso="PJM")
    finally:
        hub.close()
    lines = str(info.value).split("\n")
    assert len(lines) == 2 and lines[1].startswith("how to get a key: ")
    assert info.value.explanations == lines[1:]
    assert bad not in str(info.value) and bad not in repr(info.value)


def test_a_ranking_says_which_objective_it_could_not_score_and_why(hub):
    candidates = [
        {"id": "a", "lat": 39.0, "lon": -77.0, "score": 80},
        {"id": "b", "lat": 40.0, "lon": -78.0, "score": 60},
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df = hub.rank(candidates, {"score": 1, "water_stress": -1})
    said = df.attrs["explanations"]
    assert any(line.startswith("objective water_stress unavailable: ") for line in said)
    assert df.attrs["note"] and said[0] in df.attrs["note"]
