"""The typed errors and the retry rules, through the sandbox's fault controls and its tiers."""

from __future__ import annotations

import time

import pytest

from conftest import KEYS, PROFILE

QUEUE = "/api/v1/interconnection-queue/refined"


def client(sandbox, cache_dir, key=KEYS["pro"], now=None, **kw):
    """A client of the sandbox; with ``now`` (a callable giving ms) each call says the time."""
    from dchub import Client

    hub = Client(base_url=sandbox.url, api_key=key, cache_dir=cache_dir, **kw)
    hub._now = now  # the test's clock: the engine reads "now" from each call
    return hub


def test_a_passing_5xx_is_retried(sandbox, cache_dir):
    hub = client(sandbox, cache_dir)
    sandbox.faults([{"path_prefix": QUEUE, "kind": "status", "status": 503, "count": 2}])
    df = hub.queue(iso="PJM", limit=5)
    assert len(df) == 5 and hub.requests_sent == 3


def test_server_error_after_the_retries(sandbox, cache_dir):
    from dchub import ServerError

    hub = client(sandbox, cache_dir, retries=2)
    sandbox.faults([{"path_prefix": QUEUE, "kind": "status", "status": 502}])
    with pytest.raises(ServerError) as info:
        hub.queue(iso="PJM")
    assert info.value.status == 502 and hub.requests_sent == 3


def test_posts_are_never_retried(sandbox, cache_dir):
    from dchub import ServerError

    hub = client(sandbox, cache_dir)
    sandbox.faults([{"path_prefix": "/api/v1/rank-sites", "kind": "status", "status": 503}])
    with pytest.raises(ServerError):
        hub.rank([{"id": "a", "x": 1}, {"id": "b", "x": 2}], {"x": 1})
    assert hub.requests_sent == 1


def test_rate_limit_with_a_long_retry_after_fails_at_once(sandbox, cache_dir):
    from dchub import RateLimitError

    hub = client(sandbox, cache_dir)
    sandbox.faults([{"path_prefix": QUEUE, "kind": "rate_limit", "retry_after": 3600}])
    t0 = time.monotonic()
    with pytest.raises(RateLimitError) as info:
        hub.queue(iso="PJM")
    assert (
        time.monotonic() - t0 < 5
        and info.value.retry_after_seconds == 3600
        and hub.requests_sent == 1
    )


def test_a_short_retry_after_is_waited(sandbox, cache_dir):
    hub = client(sandbox, cache_dir)
    sandbox.faults([{"path_prefix": QUEUE, "kind": "rate_limit", "retry_after": 2, "count": 1}])
    t0 = time.monotonic()
    assert len(hub.queue(iso="PJM", limit=3)) == 3
    # The 429 asked for 2 s: core waited them (not a speed goal: the wait happened), then asked.
    assert time.monotonic() - t0 >= 1.8 and hub.requests_sent == 2


def test_connection_reset_is_a_network_error(sandbox, cache_dir):
    from dchub import NetworkError

    hub = client(sandbox, cache_dir)
    sandbox.faults([{"path_prefix": QUEUE, "kind": "reset"}])
    with pytest.raises(NetworkError) as info:
        hub.queue(iso="PJM")
    assert (
        not info.value.timeout and hub.quota()["used"] == 0
    )  # a call that never got an answer is given back


def test_timeout_is_a_network_error_with_timeout(sandbox, cache_dir):
    from dchub import NetworkError

    hub = client(sandbox, cache_dir, timeout=0.3, retries=0)
    sandbox.faults([{"path_prefix": QUEUE, "kind": "latency", "latency_ms": 2000}])
    with pytest.raises(NetworkError) as info:
        hub.queue(iso="PJM")
    assert info.value.timeout


def test_malformed_json_is_schema_drift_and_never_stored(sandbox, cache_dir):
    from dchub import SchemaDriftError

    hub = client(sandbox, cache_dir)
    sandbox.faults([{"path_prefix": "/api/v1/markets/list", "kind": "malformed_json"}])
    with pytest.raises(SchemaDriftError, match="malformed JSON"):
        hub.markets()
    assert hub.cache_info()["answers"] == 0


def test_a_body_cut_half_way_is_a_dropped_connection(sandbox, cache_dir):
    from dchub import NetworkError

    hub = client(sandbox, cache_dir)
    sandbox.faults([{"path_prefix": "/api/v1/markets/list", "kind": "truncate"}])
    with pytest.raises(NetworkError, match="dropped"):
        hub.markets()
    assert hub.cache_info()["answers"] == 0 and hub.requests_sent == 3  # retried, like any GET


def test_schema_drift_fault_keeps_the_data_that_is_there(sandbox, cache_dir):
    hub = client(sandbox, cache_dir)
    sandbox.faults([{"path_prefix": QUEUE, "kind": "schema_drift"}])
    df = hub.queue(iso="PJM", limit=5)
    assert len(df) == 5 and "queue_id" in df.columns


def test_unknown_key_is_an_auth_error_with_instructions(sandbox, cache_dir):
    from dchub import AuthError

    bad = "not-a-real-key-4242"
    hub = client(sandbox, cache_dir, key=bad)
    with pytest.raises(AuthError) as info:
        hub.queue(iso="PJM")
    assert info.value.status == 401 and info.value.auth_instructions
    assert (
        bad not in str(info.value)
        and bad not in repr(info.value)
        and bad not in str(info.value.body)
    )


def test_plan_wall_of_an_mcp_tool_is_an_auth_error(sandbox, cache_dir):
    from dchub import AuthError

    hub = client(sandbox, cache_dir, key=KEYS["free"])
    with pytest.raises(AuthError, match="analyze_site"):
        hub.tool("analyze_site", lat=39.0, lon=-77.5)


def test_not_found(sandbox, cache_dir):
    from dchub import NotFoundError

    with pytest.raises(NotFoundError):
        client(sandbox, cache_dir).dcpi("atlantis-nowhere")


def test_spent_allowance_refuses_without_a_request_and_serves_the_cache(sandbox, cache_dir):
    from dchub import (
        AssumedAllowanceWarning,
        QuotaSpentError,
        RateLimitError,
        StaleAnswerWarning,
    )

    now = [1_700_000_000_000]
    hub = client(sandbox, cache_dir, key="", now=lambda: now[0])
    hub.news(limit=3)
    for i in range(9):
        hub.news(limit=4 + i)
    assert hub.quota()["remaining"] == 0
    sent = hub.requests_sent
    if PROFILE == "real":
        # The real service states no daily limit to keyless callers (notes §1.5): the allowance is
        # only assumed, so the 11th call goes out with a warning; the service's 429 makes it known.
        assert hub.quota()["confirmed"] is False
        with (
            pytest.warns(AssumedAllowanceWarning, match="assumed 10 calls"),
            pytest.raises(RateLimitError) as first,
        ):
            hub.news(limit=19)
        assert not isinstance(first.value, QuotaSpentError) and first.value.reset_at
        assert hub.requests_sent == sent + 1 and hub.quota()["confirmed"] is True
        sent += 1
    with pytest.raises(QuotaSpentError) as info:
        hub.news(limit=20)
    assert hub.requests_sent == sent and info.value.reset_at
    now[0] += 10 * 60_000  # the news answers are stale now (5 minutes)
    with pytest.warns(StaleAnswerWarning, match="daily limit reached"):
        df = hub.news(limit=3)
    assert df.attrs["stale"] and df.attrs["age_seconds"] >= 600 and hub.requests_sent == sent


def test_the_service_failing_serves_the_last_good_answer_with_its_age(sandbox, cache_dir):
    from dchub import StaleAnswerWarning

    now = [1_700_000_000_000]
    hub = client(sandbox, cache_dir, now=lambda: now[0])
    first = hub.news(limit=5)
    now[0] += 3600_000
    sandbox.faults([{"path_prefix": "/api/news", "kind": "status", "status": 500}])
    with pytest.warns(
        StaleAnswerWarning, match=r"^DC Hub: served from the cache \(1 h old\): service error$"
    ):
        again = hub.news(limit=5)
    assert again.attrs["stale"] and again.attrs["stale_reason"] == "service error"
    assert list(again["id"]) == list(first["id"])


def test_mcp_wall_is_one_line_and_a_partial_list_says_so(sandbox, cache_dir):
    """Keyless: a Pro tool's wall is an AuthError, one line with the upgrade URL, not its fields.

    A list tool's cut answer ("3 of 10" at the real service, "2 of 10" at the spec's) is partial.
    """
    from dchub import AuthError, GatedPreviewWarning

    hub = client(sandbox, cache_dir, key="")
    with pytest.raises(AuthError) as wall:
        hub.tool("analyze_site", lat=39.04, lon=-77.49)
    # One line of the wall's words, then what the service explained beyond them, a line each.
    message, *said = str(wall.value).split("\n")
    assert (
        message.startswith("analyze_site: ")
        and "Pro" in message
        and "https://dchub.cloud/pricing" in message
    )
    assert "your plan: anonymous" in message and said == wall.value.explanations
    assert not any("{" in line for line in said)
    if PROFILE == "real":
        assert "pro_required" in message  # the service's own words for a human are kept
    with pytest.warns(GatedPreviewWarning):
        df = hub.tool("search_facilities")
    p = df.attrs["preview"]
    assert p["partial"] is True and p["shown"] == len(df) == (3 if PROFILE == "real" else 2)
    assert p["total_available"] > p["shown"]


def test_an_mcp_tool_failing_serves_the_last_good_answer_with_its_age(sandbox, cache_dir):
    """Core's rule for tool answers (McpToolClient) when the service is unreachable or failing.

    The last good answer with its age and why (a StaleAnswerWarning, ``attrs["stale"]``); with
    nothing cached, the error.
    """
    from dchub import NetworkError, StaleAnswerWarning

    now = [1_700_000_000_000]
    hub = client(sandbox, cache_dir, key=KEYS["pro"], now=lambda: now[0])
    first = hub.tool("rank_markets", criteria="ai_ready", limit=3)
    now[0] += 2 * 3600_000  # past the hour a tool answer is kept
    sandbox.faults([{"path_prefix": "/mcp", "kind": "status", "status": 503}])
    try:
        with pytest.warns(
            StaleAnswerWarning,
            match=r"^DC Hub: served from the cache \(2 h old\): the service could not be reached$",
        ):
            again = hub.tool("rank_markets", criteria="ai_ready", limit=3)
        assert (
            again.attrs["stale"]
            and again.attrs["from_cache"]
            and "2 h old" in again.attrs["stale_reason"]
        )
        assert again.equals(first)
        with pytest.raises(NetworkError):
            hub.tool("rank_markets", criteria="ai_ready", limit=2)
    finally:
        sandbox.faults([])


@pytest.mark.parametrize(
    ("value", "said"),
    [(float("nan"), "NaN"), (float("inf"), "Infinity"), (-float("inf"), "-Infinity")],
)
def test_a_number_that_is_not_one_is_named_not_called_missing(sandbox, cache_dir, value, said):
    """site_score(nan, 0) says lat is not a number (NaN), not that it is required; none is sent."""
    from dchub import Client, ValidationError

    hub = Client(base_url=sandbox.url, api_key=KEYS["free"], cache_dir=cache_dir)
    with pytest.raises(ValidationError) as info:
        hub.site_score(value, 0)
    message = str(info.value)
    assert "lat" in message and said in message and "required" not in message, message
    assert hub.requests_sent == 0
