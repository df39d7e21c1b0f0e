"""AsyncClient: Client's calls as coroutines over the one engine (many in flight at once), a
cancelled task cancels its call; and an engine killed under a call is that call's DchubError, the
next call starting a new engine, with ``requests_sent`` counting on."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time

import pandas as pd
import pytest

from conftest import KEYS

SITE = "/api/site-score"
QUEUE = "/api/v1/interconnection-queue/refined"
LATENCY_MS = 1000
POSIX_SIGNALS = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="POSIX signals")


@pytest.fixture
def ahub(sandbox, cache_dir):
    from dchub import AsyncClient

    c = AsyncClient(base_url=sandbox.url, api_key=KEYS["pro"], cache_dir=cache_dir)
    yield c
    c.close()


def test_twenty_site_scores_are_in_flight_together(sandbox, ahub):
    from dchub.api.engine import ENGINE

    sites = [(30.0 + i * 0.5, -90.0 - i * 0.25) for i in range(20)]
    sandbox.faults([{"path_prefix": SITE, "kind": "latency", "latency_ms": LATENCY_MS}])
    engine = ENGINE.pid

    async def scores() -> list[pd.Series]:
        return await asyncio.gather(*(ahub.site_score(lat, lon) for lat, lon in sites))

    started = time.monotonic()
    answers = asyncio.run(scores())
    elapsed = time.monotonic() - started
    # One after another they would take 20 s: together, a little over one call's latency.
    assert elapsed < 20 * LATENCY_MS / 1000 / 4, f"20 calls took {elapsed:.1f} s"
    assert elapsed >= LATENCY_MS / 1000
    sandbox.control("DELETE", "/_sandbox/faults")
    for (lat, lon), s in zip(sites, answers, strict=True):
        body = sandbox.get(f"{SITE}?lat={lat}&lon={lon}", KEYS["pro"])
        assert isinstance(s, pd.Series) and s["overall_score"] == body["overall_score"]
    assert ahub.requests_sent == 20
    assert ENGINE.pid == engine  # one engine process served them all


def test_a_cancelled_task_cancels_its_call_and_the_client_goes_on(sandbox, ahub, monkeypatch):
    from dchub.api.engine import ENGINE

    told: list[tuple[str, dict]] = []
    notify = ENGINE._notify
    monkeypatch.setattr(
        ENGINE, "_notify", lambda proc, m, p: (told.append((m, p)), notify(proc, m, p))[1]
    )
    sandbox.faults([{"path_prefix": QUEUE, "kind": "latency", "latency_ms": 5000}])

    async def cancelled() -> float:
        task = asyncio.create_task(ahub.queue(iso="PJM", limit=5))
        await asyncio.sleep(1.0)
        assert not task.done() and ENGINE._waiting  # the request is in the engine
        started = time.monotonic()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return time.monotonic() - started

    assert asyncio.run(cancelled()) < 1.0  # not the 4 s left of the call
    assert [m for m, _ in told] == ["cancel"]  # the engine was told to abort it
    deadline = time.monotonic() + 2
    while ENGINE._waiting and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not ENGINE._waiting  # the request was abandoned
    sandbox.control("DELETE", "/_sandbox/faults")
    df = asyncio.run(ahub.queue(iso="ERCOT", limit=3))
    expected = sandbox.get(f"{QUEUE}?iso=ERCOT&limit=3", KEYS["pro"])["results"]
    assert list(df["queue_id"]) == [r["queue_id"] for r in expected]
    assert (asyncio.run(ahub.quota()))["used"] >= 1


def kill_under_a_call() -> list[int]:
    """Kills the engine (SIGKILL) once a request waits on it; the pids killed."""
    from dchub.api.engine import ENGINE

    killed: list[int] = []

    def kill() -> None:
        deadline = time.monotonic() + 20
        while not killed and time.monotonic() < deadline:
            pid = ENGINE.pid
            if pid is not None and ENGINE._waiting:  # a request is under way
                time.sleep(0.3)
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
            time.sleep(0.05)

    threading.Thread(target=kill, daemon=True).start()
    return killed


@POSIX_SIGNALS
def test_an_engine_killed_under_a_call_is_its_error_and_the_next_call_restarts_it(sandbox, hub):
    from dchub import DchubError
    from dchub.api.engine import ENGINE

    assert len(hub.queue(iso="PJM", limit=5)) == 5
    assert hub.requests_sent == 1
    sandbox.faults([{"path_prefix": QUEUE, "kind": "latency", "latency_ms": 3000}])
    killed = kill_under_a_call()
    with pytest.raises(DchubError) as info:
        hub.queue(iso="MISO", limit=5)
    assert killed and "engine" in str(info.value) and "SIGKILL" in str(info.value)
    assert "during this call" in str(info.value), str(info.value)
    assert KEYS["pro"] not in str(info.value)
    sandbox.control("DELETE", "/_sandbox/faults")
    df = hub.queue(iso="ERCOT", limit=4)
    assert len(df) == 4 and ENGINE.pid not in (None, killed[0])
    # The killed engine's count is kept: 1 before, 1 (at least) sent by the killed call's engine
    # is lost with it, 1 after the restart.
    assert hub.requests_sent >= 2, hub.requests_sent


@POSIX_SIGNALS
def test_requests_sent_counts_on_across_a_restart(sandbox, hub):
    from dchub.api.engine import ENGINE

    hub.queue(iso="PJM", limit=5)
    hub.queue(iso="MISO", limit=5)
    assert hub.requests_sent == 2
    first = ENGINE.pid
    assert first is not None
    os.kill(first, signal.SIGKILL)
    while ENGINE.pid is not None:
        time.sleep(0.05)
    hub.queue(iso="ERCOT", limit=5)  # a new engine, the session opened again
    assert ENGINE.pid not in (None, first)
    assert hub.requests_sent == 3


@POSIX_SIGNALS
def test_an_engine_killed_under_an_async_call(sandbox, ahub):
    from dchub import DchubError

    sandbox.faults([{"path_prefix": QUEUE, "kind": "latency", "latency_ms": 3000}])
    killed = kill_under_a_call()
    with pytest.raises(DchubError, match="during this call"):
        asyncio.run(ahub.queue(iso="PJM", limit=5))
    assert killed
    sandbox.control("DELETE", "/_sandbox/faults")
    assert len(asyncio.run(ahub.queue(iso="PJM", limit=2))) == 2


def test_async_client_is_exported_where_client_is():
    import dchub
    import dchub_jupyterlab

    assert dchub_jupyterlab.AsyncClient is dchub.AsyncClient is dchub.api.AsyncClient
    assert "AsyncClient" in dchub.api.__all__
