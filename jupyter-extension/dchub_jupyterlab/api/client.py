"""``Client``: DC Hub from notebook code, one method per ``dchub`` command, answers as DataFrames.

    from dchub_jupyterlab import Client
    hub = Client()  # DCHUB_BASE_URL, DCHUB_API_KEY, DCHUB_CACHE_DIR; arguments override
    df = hub.queue(iso="PJM,MISO", min_mw=200, max_ttp_months=36)
    df.attrs["citation"], df.attrs["as_of"], df.attrs["preview"]

Every call is made by core, DC Hub's one engine, running next to Python (see :mod:`.engine`):
the argument rules, the cache directory and daily allowance the ``dchub`` CLI uses, narrower
questions answered from wider cached answers, retries, tolerant reading of the real service and
the MCP tools. This module names the calls and turns core's answers into pandas objects.
"""

from __future__ import annotations

import sys
from typing import Any

import pandas as pd

from .caller import Caller, Progress
from .frames import jsonable, to_table


class Client(Caller):
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

    # ------------------------------------------------------------ queue, sites, ranking

    def queue(
        self,
        iso: Any = None,
        min_mw: Any = None,
        max_ttp_months: Any = None,
        fuel_type: Any = None,
        status: Any = None,
        baseload_only: Any = None,
        max_fiber_km: Any = None,
        geocoded_only: Any = None,
        limit: Any = None,
        *,
        refresh: bool = False,
    ) -> pd.DataFrame:
        """Interconnection-queue survivors of the refined search (spec §4.2).

        ``iso`` and ``fuel_type`` take names separated by ``,`` or ``;`` (or a list); ``attrs`` hold
        ``count_total_matching`` and, when the time-to-power cut emptied the set, the ``note`` and
        ``suggested_max_ttp_months``.
        """
        return self._table(
            "queue",
            {
                "iso": iso,
                "min_mw": min_mw,
                "max_ttp_months": max_ttp_months,
                "fuel_type": fuel_type,
                "status": status,
                "baseload_only": baseload_only,
                "max_fiber_km": max_fiber_km,
                "geocoded_only": geocoded_only,
                "limit": limit,
            },
            refresh=refresh,
        )

    def site_score(
        self,
        lat: Any,
        lon: Any,
        capacity_mw: Any = None,
        state: Any = None,
        *,
        refresh: bool = False,
    ) -> pd.Series:
        """Scores a location (spec §2.3): the overall score and every member, as a Series."""
        return self._record(
            "site_score",
            {"lat": lat, "lon": lon, "capacity_mw": capacity_mw, "state": state},
            refresh=refresh,
        )

    def rank(
        self,
        candidates: Any,
        objectives: Any,
        constraints: Any = None,
        mode: str | None = None,
        top_k: Any = None,
    ) -> pd.DataFrame:
        """Ranks candidate sites (spec §4.4).

        ``candidates``: a DataFrame or records (``id``, ``lat``, ``lon``/``lng`` and metrics);
        ``objectives``: ``{field: weight}`` or ``"field:weight,..."`` (+ maximizes, − minimizes);
        ``constraints``: ``{field: {"min": …, "max": …}}`` or ``"field:min:max,..."``;
        ``mode``: ``relative`` (default), ``absolute`` or ``percentile``.
        """
        return self._table(
            "rank",
            {
                "candidates": candidates,
                "objectives": objectives,
                "constraints": constraints,
                "mode": mode,
                "top_k": top_k,
            },
        )

    def chain(
        self,
        objectives: Any,
        iso: Any = None,
        min_mw: Any = None,
        max_ttp_months: Any = None,
        constraints: Any = None,
        mode: str | None = None,
        top_k: Any = None,
        max_sites: int = 20,
        budget: int | None = None,
        progress: Progress | bool = True,
    ) -> pd.DataFrame:
        """Queue → site score → ranking in one call, within today's calls.

        ``budget`` bounds the calls (default: what is left today). Progress goes to ``progress``
        (a callable), to stderr (``True``) or nowhere (``False``).
        """
        say: Progress | None = (
            progress
            if callable(progress)
            else (lambda m: print(f"dchub: {m}", file=sys.stderr))
            if progress
            else None
        )
        answer = self._request(
            "call",
            {
                "method": "chain",
                "args": jsonable(
                    {
                        "objectives": objectives,
                        "iso": iso,
                        "min_mw": min_mw,
                        "max_ttp_months": max_ttp_months,
                        "constraints": constraints,
                        "mode": mode,
                        "top_k": top_k,
                        "max_sites": max_sites,
                        "budget": budget,
                    }
                ),
            },
            say,
        )
        return to_table(answer, stacklevel=3)

    def parcel(self, geometry: Any, capacity_mw: Any = None) -> pd.Series:
        """Acreage, representative point and site hand-off of a GeoJSON Polygon or MultiPolygon.

        ``geometry``: a dict, GeoJSON text, a Feature/FeatureCollection (its first feature), or a
        file path.
        """
        return self._record("parcel", {"geometry": geometry, "capacity_mw": capacity_mw})

    # ------------------------------------------------------------ briefs and markets

    def briefs(
        self, limit: Any = None, offset: Any = None, *, refresh: bool = False
    ) -> pd.DataFrame:
        """Market briefs of your tier, every page (or one page with ``limit``/``offset``).

        Columns as the brief CSV's; a brief the service failed to build is named in
        ``attrs["failed"]``.
        """
        return self._table("briefs", {"limit": limit, "offset": offset}, refresh=refresh)

    def briefs_diff(self, since: Any) -> pd.DataFrame:
        """The briefs recomputed after ``since`` (ISO 8601 time), every page of ``/diff``.

        Never from the cache. ``attrs["changed_total"]`` counts them.
        """
        return self._table("briefs_diff", {"since": since})

    def brief(self, slug: Any, fields: Any = None, *, refresh: bool = False) -> pd.Series:
        """One market brief.

        With ``fields`` (paths such as ``"hero.verdict"``) only those, answered from a cached /all
        page that holds the market when one does (``attrs["derived_from"]``).
        """
        return self._record("brief", {"slug": slug, "fields": fields}, refresh=refresh)

    def dcpi(
        self,
        market: Any = None,
        fields: Any = None,
        *,
        verdict: Any = None,
        limit: Any = None,
        refresh: bool = False,
    ) -> Any:
        """One market's power-readiness scores (a Series), or without ``market`` the leaderboard.

        With ``fields`` (``"verdict"``, ``["verdict", "composite_score"]``) only those, answered
        from a cached scores list that carries them exactly when one does, or — per ``derive`` —
        from the list fetched once for every market (``attrs["derived_from"]`` says so).
        """
        return self._call(
            "dcpi",
            {"market": market, "fields": fields, "verdict": verdict, "limit": limit},
            refresh=refresh,
        )

    def dcpi_scores(
        self,
        verdict: Any = None,
        iso: Any = None,
        state: Any = None,
        sort: Any = None,
        limit: Any = None,
        *,
        refresh: bool = False,
    ) -> pd.DataFrame:
        """Every market's DCPI row with its coordinates (numbers null below a paid plan).

        The source of ``charts.markets_map`` and ``charts.market_quadrant``.
        """
        return self._table(
            "dcpi_scores",
            {"verdict": verdict, "iso": iso, "state": state, "sort": sort, "limit": limit},
            refresh=refresh,
        )

    def markets(self, *, refresh: bool = False) -> pd.DataFrame:
        """Scored markets of your tier (``attrs["note"]`` says how many more a higher tier sees)."""
        return self._table("markets", {}, refresh=refresh)

    def market(self, name: Any, *, refresh: bool = False) -> pd.Series:
        """One market's details."""
        return self._record("market", {"name": name}, refresh=refresh)

    # ------------------------------------------------------------ facilities and feeds

    def facilities(
        self,
        query: Any = None,
        country: Any = None,
        limit: Any = None,
        market: Any = None,
        state: Any = None,
        status: Any = None,
        *,
        refresh: bool = False,
    ) -> pd.DataFrame:
        """Facilities matching a text, a country (ISO 3166 alpha-2), a market, state or status."""
        return self._table(
            "facilities",
            {
                "query": query,
                "country": country,
                "limit": limit,
                "market": market,
                "state": state,
                "status": status,
            },
            refresh=refresh,
        )

    def news(
        self,
        limit: Any = None,
        query: Any = None,
        category: Any = None,
        source: Any = None,
        *,
        refresh: bool = False,
    ) -> pd.DataFrame:
        """News articles, newest first."""
        return self._table(
            "news",
            {"limit": limit, "query": query, "category": category, "source": source},
            refresh=refresh,
        )

    def deals(
        self,
        limit: Any = None,
        deal_type: Any = None,
        year: Any = None,
        buyer: Any = None,
        seller: Any = None,
        *,
        refresh: bool = False,
    ) -> pd.DataFrame:
        """M&A and investment deals, newest first; ``value`` in millions USD."""
        return self._table(
            "deals",
            {
                "limit": limit,
                "deal_type": deal_type,
                "year": year,
                "buyer": buyer,
                "seller": seller,
            },
            refresh=refresh,
        )

    def pipeline(
        self,
        status: Any = None,
        market: Any = None,
        company: Any = None,
        limit: Any = None,
        *,
        refresh: bool = False,
    ) -> pd.DataFrame:
        """Projects under construction or announced (``capacity`` MW, ``investment`` M USD)."""
        return self._table(
            "pipeline",
            {"status": status, "market": market, "company": company, "limit": limit},
            refresh=refresh,
        )

    def fuel_mix(self, iso: Any = None, *, refresh: bool = False) -> pd.DataFrame:
        """Generation by fuel of a US grid operator (ERCOT by default; ``attrs["iso"]``)."""
        return self._table("fuel_mix", {"iso": iso}, refresh=refresh)

    def prices(self, state: Any, *, refresh: bool = False) -> pd.Series:
        """Retail electricity prices of a US state (cents per kWh), with the 12-month trend."""
        return self._record("prices", {"state": state}, refresh=refresh)

    def grid_regions(self, *, refresh: bool = False) -> pd.DataFrame:
        """The grid regions (spec §2.8) with their provenance in ``attrs['provenance']``."""
        return self._table("grid_regions", {}, refresh=refresh)

    def receipts(self, *, refresh: bool = False) -> pd.DataFrame:
        """Published model-evaluation runs (spec §2.9)."""
        return self._table("receipts", {}, refresh=refresh)

    # ------------------------------------------------------------ MCP

    def tool(self, name: str, *, refresh: bool = False, **args: Any) -> Any:
        """Calls one of the 29 MCP tools.

        A DataFrame when the answer holds a list of records (a list the server cut for you says so
        in ``attrs["preview"]["partial"]``), else its data. A plan wall raises :class:`AuthError`
        with the upgrade message in one line.
        """
        return self._call("tool", {"name": name, "args": args}, refresh=refresh)
