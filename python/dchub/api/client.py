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

from .calls_feeds import FeedCalls
from .calls_markets import MarketCalls
from .calls_sites import SiteCalls


class Client(SiteCalls, MarketCalls, FeedCalls):
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
