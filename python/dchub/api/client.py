"""``Client``: DC Hub from notebook code, one method per ``dchub`` command, answers as DataFrames.

    from dchub_jupyterlab import Client
    hub = Client()  # DCHUB_BASE_URL, DCHUB_API_KEY, DCHUB_CACHE_DIR; arguments override
    df = hub.queue(iso=["PJM", "MISO"], min_mw=200, max_ttp_months=36)
    df.attrs["citation"], df.attrs["as_of"], df.attrs["preview"]

Every call is made by core, DC Hub's one engine, running next to Python (see :mod:`.engine`):
the argument rules, the cache directory and daily allowance the ``dchub`` CLI uses, narrower
questions answered from wider cached answers, retries, tolerant reading of the real service and
the MCP tools. The calls, typed from core's schemas, are generated (``calls_*.py``, by
scripts/gen-python.mjs); :mod:`.caller` turns core's answers into pandas objects.
"""

from __future__ import annotations

from collections.abc import Awaitable

import pandas as pd

from .caller import AsyncCaller, Caller
from .calls_feeds import FeedCalls
from .calls_markets import MarketCalls
from .calls_sites import SiteCalls
from .frames import Json


class Client(
    Caller,
    SiteCalls[pd.DataFrame, pd.Series, "pd.DataFrame | Json"],
    MarketCalls[pd.DataFrame, pd.Series, "pd.DataFrame | Json"],
    FeedCalls[pd.DataFrame, pd.Series, "pd.DataFrame | Json"],
):
    """DC Hub for notebooks.

    Arguments override ``DCHUB_BASE_URL``, ``DCHUB_API_KEY``, ``DCHUB_CACHE_DIR``.
    ``cache=False`` neither reads nor writes cached answers (the daily ledger is still shared);
    ``tier`` states the key's tier when known (otherwise the service's answers tell it);
    ``timeout`` bounds one call in seconds (retries included), ``retries`` the retries of a GET.
    ``derive`` answers narrower questions from wider cached answers, exactly as the service would
    (``'off'``/``False``, ``'exact'``, ``'widen'``; ``DCHUB_DERIVE``; default by the tier the
    service stated, as the ``dchub`` CLI decides); a derived answer says so in
    ``attrs["derived_from"]``.
    """


class AsyncClient(
    AsyncCaller,
    SiteCalls[Awaitable[pd.DataFrame], Awaitable[pd.Series], Awaitable["pd.DataFrame | Json"]],
    MarketCalls[Awaitable[pd.DataFrame], Awaitable[pd.Series], Awaitable["pd.DataFrame | Json"]],
    FeedCalls[Awaitable[pd.DataFrame], Awaitable[pd.Series], Awaitable["pd.DataFrame | Json"]],
):
    """DC Hub for asyncio: :class:`Client`'s calls (the same arguments) as coroutines.

        hub = AsyncClient()
        scores = await asyncio.gather(*(hub.site_score(lat, lon) for lat, lon in sites))

    Calls run in the same engine as every Client's, many in flight at once; ``requests_sent``,
    the cache and the daily allowance are as a Client's. Cancelling a task cancels its call in
    the engine. Construction opens the session at once (it waits for the engine to start);
    ``async with AsyncClient() as hub:`` closes it.
    """
