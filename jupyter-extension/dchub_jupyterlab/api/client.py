"""``Client``: DC Hub from notebook code, one method per ``dchub`` CLI command, answers as DataFrames.

    from dchub_jupyterlab import Client
    hub = Client()                  # DCHUB_BASE_URL, DCHUB_API_KEY, DCHUB_CACHE_DIR; arguments override
    df = hub.queue(iso="PJM,MISO", min_mw=200, max_ttp_months=36)
    df.attrs["citation"], df.attrs["as_of"], df.attrs["preview"]

Tables are DataFrames with typed columns; single records are Series of their fields. Every call
goes through the cache directory and the daily allowance the CLI uses (see :mod:`.session`).
"""

from __future__ import annotations

import os
from typing import Any, Callable

import pandas as pd

from . import params as P
from .errors import DchubError, ValidationError
from .frames import finish, frame, preview_of, ranked_frame, record
from .derive import BRIEF_FROM_ALL, DCPI_FROM_SCORES, answer_item_fields, answer_queue, note_list, parse_derive_mode
from .derive.flow import read_path
from .jsfmt import form_encode
from .queue_filters import queue_filters
from .session import Session
from .shapes import brief_row, cite as _cite, page_limit as _page_limit, isna as _isna, plain as _plain, read_geometry as _read_geometry, records_of as _records
from .chain import run_chain
from .tool_answers import one_line, tool_partial, tool_wall
from .tools import call_tool

DCPI_CITATION = "DC Hub Power Index (DCPI), DC Hub, dchub.cloud, CC-BY-4.0"

QUEUE_COLUMNS = ("queue_id", "project_name", "iso", "state", "county", "fuel_type", "fuel_class", "capacity_mw",
                 "queue_status", "queue_date", "poi_name", "lat", "lng", "fiber_km", "estimated_ttp_months",
                 "coordinate_precision", "candidate_id")
BRIEF_COLUMNS = ("market_slug", "market_name", "verdict", "composite_score", "excess_power", "constraint_score",
                 "queue_wait_months", "iso", "state", "operational_mw", "pipeline_mw", "facility_count", "vacancy_pct",
                 "lease_rate", "top_operator", "outlook_word_count", "live_as_of", "computed_at")
LEADERBOARD_COLUMNS = ("rank", "market_slug", "market_name", "iso", "state", "verdict", "composite_score",
                       "excess_power_score", "constraint_score", "time_to_power_months", "computed_at")
CHAIN_METRICS = ("overall_score", "power_infrastructure", "gas_pipeline_access", "fiber_connectivity",
                 "market_conditions", "risk_resilience", "capacity_mw", "fiber_km", "estimated_ttp_months", "substations_50km")
MAX_BRIEF_PAGES = 50


class Client:
    """DC Hub for notebooks. Arguments override ``DCHUB_BASE_URL``, ``DCHUB_API_KEY``, ``DCHUB_CACHE_DIR``.

    ``cache=False`` neither reads nor writes cached answers (the daily ledger is still shared);
    ``tier`` states the key's tier when known (otherwise the service's answers tell it).
    ``derive`` answers narrower questions from wider cached answers, exactly as the service would
    (``'off'``/``False``, ``'exact'``, ``'widen'``; ``DCHUB_DERIVE``; default by the tier the service
    stated, as the ``dchub`` CLI decides); a derived answer says so in ``attrs["derived_from"]``.
    """

    def __init__(self, base_url: str | None = None, api_key: str | None = None, *, cache_dir: str | os.PathLike | None = None,
                 cache: bool = True, timeout: float = 30.0, retries: int = 2, tier: str | None = None,
                 derive: str | bool | None = None, **internal: Any):
        self._derive = parse_derive_mode(derive if derive is not None else os.environ.get("DCHUB_DERIVE"))
        self._s = Session(base_url=base_url, api_key=api_key, cache_dir=os.fspath(cache_dir) if cache_dir else None,
                          cache=cache, timeout=timeout, retries=retries, tier=tier, **internal)
        self.timeout = timeout

    def __repr__(self) -> str:
        key = "set" if self._s.api_key else "none (keyless preview tier)"
        return f"Client(base_url={self._s.base_url.rstrip('/')!r}, api_key={key}, cache_dir={self._s.cache_dir!r})"

    def __reduce__(self):
        raise TypeError("a DC Hub Client holds an API key and is not picklable; make a new one instead")

    @property
    def base_url(self) -> str:
        return self._s.base_url.rstrip("/")

    @property
    def cache_dir(self) -> str:
        return self._s.cache_dir

    @property
    def requests_sent(self) -> int:
        """Requests actually sent to the service by this client (cached answers cost none)."""
        return self._s.http.requests_sent

    def close(self) -> None:
        self._s.http.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # ------------------------------------------------------------ account

    def quota(self) -> dict[str, Any]:
        """Calls left today from the shared ledger (no call spent)."""
        s = self._s.ledger.snapshot()
        return {"tier": s["tier"], "limit": s["limit"], "used": s["used"], "remaining": s["remaining"],
                "resets_at": pd.Timestamp(s["resets_at"]), "confirmed": s["confirmed"]}

    def cache_info(self) -> dict[str, Any]:
        return {"directory": self._s.cache_dir, "answers": self._s.cache.count() if self._s.cache else 0}

    def cache_clear(self) -> int:
        """Drops every cached answer in the directory (the ledger is kept); returns how many."""
        return self._s.cache.clear() if self._s.cache else 0

    # ------------------------------------------------------------ queue, sites, ranking

    def queue(self, iso=None, min_mw=None, max_ttp_months=None, fuel_type=None, status=None, baseload_only=None,
              max_fiber_km=None, geocoded_only=None, limit=None, *, refresh: bool = False) -> pd.DataFrame:
        """Interconnection-queue survivors of the refined search (spec §4.2)."""
        f = queue_filters(iso=iso, min_mw=min_mw, max_ttp_months=max_ttp_months, fuel_type=fuel_type, status=status,
                          baseload_only=baseload_only, max_fiber_km=max_fiber_km, geocoded_only=geocoded_only, limit=limit)
        body, meta = answer_queue(self._s, f, derive=self._derive, refresh=refresh)
        rows = [{**r, "lng": r.get("lng", r.get("lon")), "capacity_mw": r.get("capacity_mw", r.get("capacity"))}
                for r in _records(body, "results")]
        df = frame(rows, QUEUE_COLUMNS, only=True)
        mitigation = body.get("_error_mitigation") if isinstance(body, dict) else None
        suggested = (mitigation or {}).get("suggested_params", {}).get("max_ttp_months") if isinstance(mitigation, dict) else None
        snapshot = body.get("snapshot_id") if isinstance(body, dict) else None
        return finish(df, meta=meta, citation=_cite(body), preview=preview_of(body, len(df)),
                      as_of=snapshot[5:] if isinstance(snapshot, str) and snapshot.startswith("snap_") else None,
                      note=(mitigation or {}).get("deterministic_hint") if isinstance(mitigation, dict) else None,
                      count_total_matching=body.get("count_total_matching") if isinstance(body, dict) else None,
                      suggested_max_ttp_months=suggested)

    def site_score(self, lat, lon, capacity_mw=None, state=None, *, refresh: bool = False) -> pd.Series:
        """Scores a location (spec §2.3): the overall score and every member, as a Series."""
        body, meta = self._s.fetch("/api/site-score", P.site_score_query(lat, lon, capacity_mw, state), refresh=refresh)
        s = record(body)
        source = body.get("source") if isinstance(body, dict) else None
        return finish(s, meta=meta, citation=f"DC Hub site score ({source}), dchub.cloud" if source else "DC Hub site score, dchub.cloud",
                      preview=preview_of(body), note=body.get("interpretation") if isinstance(body, dict) else None)

    def rank(self, candidates, objectives, constraints=None, mode: str | None = None, top_k=None) -> pd.DataFrame:
        """Ranks candidate sites (spec §4.4). ``candidates``: a DataFrame or records; ``objectives``:
        ``{field: weight}`` or ``"field:weight,..."`` (+ maximizes, − minimizes)."""
        records = candidates.to_dict("records") if isinstance(candidates, pd.DataFrame) else list(candidates or [])
        records = [{("lng" if k == "lon" else k): (None if _isna(v) else _plain(v)) for k, v in r.items()} for r in records
                   if isinstance(r, dict)]
        if not records:
            raise ValidationError("candidates", "must be a non-empty list of candidate objects")
        if len(records) > P.RANK_MAX_CANDIDATES:
            raise ValidationError("candidates", f"at most {P.RANK_MAX_CANDIDATES} candidates are accepted")
        obj = P.parse_weights(objectives)
        cons = P.parse_bounds(constraints)
        if mode is not None and mode not in P.RANK_MODES:
            raise ValidationError("mode", f"must be relative, absolute or percentile, got {P.show(mode)}")
        k = P.number("top_k", top_k, integer=True, min=1)
        body_req: dict[str, Any] = {"candidates": records, "objectives": obj}
        if cons:
            body_req["constraints"] = cons
        if mode == "absolute":
            body_req["absolute"] = True
        if mode == "percentile":
            body_req["percentile"] = True
        if k is not None:
            body_req["top_k"] = k
        body, meta = self._s.fetch("/api/v1/rank-sites", body=body_req)
        return finish(ranked_frame(body, list(obj)), meta=meta, citation=_cite(body),
                      note=" ".join(body.get("caveats") or []) or None if isinstance(body, dict) else None,
                      scoring_mode=body.get("scoring_mode") if isinstance(body, dict) else None)

    def chain(self, objectives, iso=None, min_mw=None, max_ttp_months=None, constraints=None, mode=None, top_k=None,
              max_sites: int = 20, budget: int | None = None, progress: Callable[[str], None] | bool = True) -> pd.DataFrame:
        """Queue → site score → ranking in one call, within today's calls (``budget``, default what is left)."""
        return run_chain(self, objectives, iso=iso, min_mw=min_mw, max_ttp_months=max_ttp_months, constraints=constraints,
                         mode=mode, top_k=top_k, max_sites=max_sites, budget=budget, progress=progress)

    def parcel(self, geometry, capacity_mw=None) -> pd.Series:
        """Acreage, representative point and site hand-off of a GeoJSON Polygon or MultiPolygon.

        ``geometry``: a dict, GeoJSON text, a Feature/FeatureCollection (its first feature), or a file path."""
        g = _read_geometry(geometry)
        P.check_geometry(g)
        cap = P.number("capacity_mw", capacity_mw, gt=0)
        body_req = {"geometry": g, **({"capacity_mw": cap} if cap is not None else {})}
        body, meta = self._s.fetch("/api/v1/analyze-parcel", body=body_req)
        return finish(record(body), meta=meta, citation=_cite(body), note=body.get("note") if isinstance(body, dict) else None)

    # ------------------------------------------------------------ briefs and markets

    def briefs(self, limit=None, offset=None, *, refresh: bool = False) -> pd.DataFrame:
        """Market briefs of your tier, every page (or one page with ``limit``/``offset``), as the brief CSV's columns."""
        lim = P.number("limit", limit, integer=True, min=1, max=500)
        off = P.number("offset", offset, integer=True, min=0)
        if lim is not None or off is not None:
            pages = [self._brief_page("/api/v1/market-brief/all", [], lim or 50, off or 0, refresh=refresh)]
        else:
            pages = self._brief_pages("/api/v1/market-brief/all", [], refresh=refresh)
        return self._briefs_frame(pages)

    def briefs_diff(self, since) -> pd.DataFrame:
        """The briefs recomputed after ``since`` (ISO 8601 time), every page of ``/diff``; never from the cache."""
        s = P.iso_time("since", since)
        pages = self._brief_pages("/api/v1/market-brief/diff", [("since", s)], use_cache=False)
        df = self._briefs_frame(pages)
        df.attrs["changed_total"] = pages[0][0].get("changed_total") if pages and isinstance(pages[0][0], dict) else None
        df.attrs["since"] = s
        return df

    def _brief_page(self, path, base, limit, offset, **kw):
        q = [*base, ("limit", str(limit)), ("offset", str(offset))]
        body, meta = self._s.fetch(path, q, **kw)
        if path == BRIEF_FROM_ALL.list_path and kw.get("use_cache", True):
            note_list(self._s, BRIEF_FROM_ALL, form_encode(q), body, meta)  # the page now answers brief(slug, fields=...)
        return body, meta

    def _brief_pages(self, path: str, base: list[tuple[str, str]], **kw) -> list[tuple[Any, dict]]:
        pages, offset, limit = [], 0, 50
        for _ in range(MAX_BRIEF_PAGES):
            body, meta = self._brief_page(path, base, limit, offset, **kw)
            pages.append((body, meta))
            got = len(_records(body, "briefs"))
            offset += got
            total = body.get("total_available", body.get("changed_total")) if isinstance(body, dict) else None
            if not got or not isinstance(total, (int, float)) or offset >= total:
                break
            limit = _page_limit(body.get("tier"))
        return pages

    def _briefs_frame(self, pages: list[tuple[Any, dict]]) -> pd.DataFrame:
        rows, failed = [], []
        for body, _meta in pages:
            for b in _records(body, "briefs"):
                row = brief_row(b)
                (rows.append(row) if row else failed.append(str(b.get("slug") or "?")))
        df = frame(rows, BRIEF_COLUMNS, only=True)
        first = pages[0][0] if pages else {}
        note = f"{', '.join(failed)}: brief failed to build on the service" if failed else None
        if failed:
            import warnings
            warnings.warn(f"DC Hub: {note}", UserWarning, stacklevel=3)
        meta = {**pages[0][1], "stale": any(m.get("stale") for _, m in pages)} if pages else {}
        as_of = max((r["computed_at"] for r in rows if r.get("computed_at")), default=None)
        return finish(df, meta=meta, citation=DCPI_CITATION, as_of=as_of, note=note,
                      tier=first.get("tier") if isinstance(first, dict) else None, failed=failed)

    def brief(self, slug, fields=None, *, refresh: bool = False) -> pd.Series:
        """One market brief; with ``fields`` (paths such as ``"hero.verdict"``) only those, answered from a
        cached /all page that holds the market when one does (``attrs["derived_from"]`` says so)."""
        path = f"/api/v1/market-brief/{P.slug('slug', slug)}"
        if fields is not None:
            return self._item_fields(BRIEF_FROM_ALL, path, slug, fields, refresh)
        body, meta = self._s.fetch(path, refresh=refresh)
        hero = body.get("hero", {}) if isinstance(body, dict) else {}
        return finish(record(body), meta=meta, citation=DCPI_CITATION, as_of=hero.get("computed_at") if isinstance(hero, dict) else None,
                      preview=None, paywall=(body.get("paywall") if isinstance(body, dict) else None))

    def dcpi(self, market=None, fields=None, *, verdict=None, limit=None, refresh: bool = False):
        """One market's power-readiness scores (a Series), or without ``market`` the DCPI leaderboard.

        With ``fields`` (``"verdict"``, ``["verdict", "composite_score"]``) only those, answered from a
        cached scores list that carries them exactly when one does, or — per ``derive`` — from the list
        fetched once for every market (``attrs["derived_from"]`` says so)."""
        if market is not None:
            path = f"/api/v1/dcpi/scores/{P.slug('market', market)}"
            if fields is not None:
                return self._item_fields(DCPI_FROM_SCORES, path, market, fields, refresh)
            body, meta = self._s.fetch(path, refresh=refresh)
            return finish(record(body), meta=meta, citation=DCPI_CITATION,
                          as_of=body.get("computed_at") if isinstance(body, dict) else None)
        q = P.query_pairs({"verdict": P.text("verdict", verdict, max_length=20),
                           "limit": P.number("limit", limit, integer=True, min=1, max=100)})
        body, meta = self._s.fetch("/api/v1/dcpi/leaderboard", q, refresh=refresh)
        citation = body.get("citation") if isinstance(body, dict) and isinstance(body.get("citation"), str) else DCPI_CITATION
        return finish(frame(_records(body, "leaderboard"), LEADERBOARD_COLUMNS), meta=meta, citation=citation,
                      as_of=body.get("as_of") if isinstance(body, dict) else None, preview=preview_of(body))

    def _item_fields(self, pair, path: str, key, fields, refresh: bool) -> pd.Series:
        asked = P.field_list("fields", fields)
        body, meta = answer_item_fields(self._s, pair, path, str(key).strip(), asked, derive=self._derive, refresh=refresh)
        values = {f: read_path(body, f) for f in asked} if asked else (body if isinstance(body, dict) else {})
        return finish(record(values), meta=meta, citation=DCPI_CITATION, as_of=read_path(body, "computed_at") or read_path(body, "hero.computed_at"),
                      preview=preview_of(body) if not meta.get("derived_from") else None)

    def markets(self, *, refresh: bool = False) -> pd.DataFrame:
        body, meta = self._s.fetch("/api/v1/markets/list", refresh=refresh)
        locked = body.get("locked") if isinstance(body, dict) else None
        return finish(frame(_records(body, "data"), ["slug", "id", "name", "state", "country", "facility_count", "total_power_mw",
                                                      "pipeline_mw_total", "avg_kwh_price_usd"]),
                      meta=meta, citation=_cite(body), preview=preview_of(body),
                      note=f"{locked} more markets with a higher tier" if locked else None,
                      tier=body.get("tier") if isinstance(body, dict) else None)

    def market(self, name, *, refresh: bool = False) -> pd.Series:
        body, meta = self._s.fetch(f"/api/v1/markets/{P.slug('name', name)}", refresh=refresh)
        return finish(record(body), meta=meta, citation=_cite(body))

    # ------------------------------------------------------------ facilities and feeds

    def facilities(self, query=None, country=None, limit=None, market=None, state=None, status=None, *, refresh: bool = False) -> pd.DataFrame:
        q = P.query_pairs({"q": P.text("query", query, max_length=200), "country": P.country_code("country", country),
                           "limit": P.number("limit", limit, integer=True, min=1, max=100),
                           "market": P.text("market", market, max_length=100), "state": P.text("state", state, max_length=40),
                           "status": P.text("status", status, max_length=20)})
        body, meta = self._s.fetch("/api/v1/facilities", q, refresh=refresh)
        df = frame(_records(body, "data", "facilities"), ["id", "name", "provider", "operator", "city", "state", "country", "market",
                                                          "power_mw", "status", "latitude", "longitude", "v", "confidence_badge"])
        return finish(df, meta=meta, citation=_cite(body), preview=preview_of(body, len(df)),
                      total_matching=body.get("total_matching") if isinstance(body, dict) else None)

    def news(self, limit=None, query=None, category=None, source=None, *, refresh: bool = False) -> pd.DataFrame:
        q = P.query_pairs({"limit": P.number("limit", limit, integer=True, min=1, max=200),
                           "query": P.text("query", query, max_length=200), "category": P.text("category", category, max_length=60),
                           "source": P.text("source", source, max_length=100)})
        body, meta = self._s.fetch("/api/news", q, refresh=refresh)
        df = frame(_records(body, "articles"), ["published_at", "source", "title", "category", "url", "summary", "tags",
                                                 "is_breaking", "relevance_score", "id"])
        return finish(df, meta=meta, citation=_cite(body), as_of=df["published_at"].max() if len(df) and "published_at" in df else None)

    def deals(self, limit=None, deal_type=None, year=None, buyer=None, seller=None, *, refresh: bool = False) -> pd.DataFrame:
        """M&A and investment deals, newest first; ``value`` in millions USD."""
        q = P.query_pairs({"limit": P.number("limit", limit, integer=True, min=1, max=500),
                           "deal_type": P.choice("deal_type", deal_type, P.DEAL_TYPES,
                                                 aliases={"joint-venture": "joint_venture", "jv": "joint_venture", "ma": "acquisition"}),
                           "year": P.number("year", year, integer=True, min=2000, max=2100),
                           "buyer": P.text("buyer", buyer, max_length=100), "seller": P.text("seller", seller, max_length=100)})
        body, meta = self._s.fetch("/api/v1/transactions", q, refresh=refresh)
        df = frame(_records(body, "transactions", "deals"), ["date", "buyer", "seller", "type", "value", "value_display", "mw", "market",
                                                             "country", "region", "category", "year", "value_confirmed", "description", "id"])
        return finish(df, meta=meta, citation=_cite(body), note="Values in millions USD")

    def pipeline(self, status=None, market=None, company=None, limit=None, *, refresh: bool = False) -> pd.DataFrame:
        """Projects under construction or announced; ``capacity`` in MW, ``investment`` in millions USD."""
        q = P.query_pairs({"status": P.choice("status", status, P.PIPELINE_STATUSES, aliases={
                               "under_construction": "construction", "in_progress": "construction", "planned": "announced"}),
                           "market": P.text("market", market, max_length=100), "company": P.text("company", company, max_length=100),
                           "limit": P.number("limit", limit, integer=True, min=1, max=1000)})
        body, meta = self._s.fetch("/api/v1/pipeline", q, refresh=refresh)
        df = frame(_records(body, "data", "pipeline"), ["id", "company", "project", "market", "city", "state", "country", "capacity",
                                                         "investment", "delivery", "status", "preleased", "type", "lat", "lng"])
        return finish(df, meta=meta, citation=_cite(body), as_of=body.get("last_updated") if isinstance(body, dict) else None,
                      note="capacity in MW, investment in millions USD")

    def fuel_mix(self, iso=None, *, refresh: bool = False) -> pd.DataFrame:
        i = P.choice("iso", iso, P.FUEL_MIX_ISOS, aliases={"ISO-NE": "ISONE", "ISO NE": "ISONE", "ISO_NE": "ISONE"}, fallback="ERCOT")
        body, meta = self._s.fetch("/api/grid/fuel-mix", [("iso", i)], refresh=refresh)
        total = body.get("total_generation_mw") if isinstance(body, dict) else None
        return finish(frame(_records(body, "fuel_mix"), ["source", "mw", "percentage"]), meta=meta, citation=_cite(body),
                      as_of=body.get("timestamp") if isinstance(body, dict) else None, iso=i, total_generation_mw=total)

    def prices(self, state, *, refresh: bool = False) -> pd.Series:
        """Retail electricity prices of a US state (cents per kWh), with the 12-month trend."""
        body, meta = self._s.fetch(f"/api/energy/prices/{P.slug('state', state, 60)}", refresh=refresh)
        flat = dict(body) if isinstance(body, dict) else {}
        trend = flat.pop("price_trend_12mo", None)
        if isinstance(trend, list):
            flat["price_trend_12mo"] = {t.get("period"): t.get("price") for t in trend if isinstance(t, dict)}
        return finish(record(flat), meta=meta, citation=_cite(body), as_of=None, period=flat.get("period"))

    def grid_regions(self, *, refresh: bool = False) -> pd.DataFrame:
        """The grid regions (spec §2.8) with their provenance in ``attrs['provenance']``."""
        body, meta = self._s.fetch("/api/v1/grid-intelligence", refresh=refresh)
        df = frame(_records(body, "regions"), ["id", "iso", "name", "total_queue_gw", "large_load_queue_gw", "corridor_count", "status",
                                               "queue_basis", "key_states", "total_queue_gw_as_of", "total_queue_gw_source",
                                               "total_queue_gw_is_live", "headline", "page_url"])
        prov = body.get("provenance") if isinstance(body, dict) else None
        return finish(df, meta=meta, citation=_cite(body), preview=preview_of(body, len(df)),
                      as_of=df["total_queue_gw_as_of"].max() if len(df) and "total_queue_gw_as_of" in df else None,
                      provenance=prov if isinstance(prov, dict) else None)

    def receipts(self, *, refresh: bool = False) -> pd.DataFrame:
        """Published model-evaluation runs (spec §2.9)."""
        body, meta = self._s.fetch("/api/v1/receipts", refresh=refresh)
        rows = [{**r, "api_call_count": len(r.get("api_calls") or [])} for r in _records(body, "receipts")]
        return finish(frame(rows, ["run_id", "model_id", "platform", "status", "evaluated_at", "published_at", "api_call_count"]),
                      meta=meta, citation=_cite(body), as_of=body.get("as_of") if isinstance(body, dict) else None)

    # ------------------------------------------------------------ MCP

    def tool(self, name: str, *, refresh: bool = False, **args: Any):
        """Calls one of the 29 MCP tools: a DataFrame when the answer holds a list of records, else its data."""
        r = call_tool(self._s, name, {k: _plain(v) for k, v in args.items()}, timeout=self.timeout, refresh=refresh)
        data = r["data"]
        # A plan wall is an authentication/plan error in one line, never a table of the wall's fields.
        wall = tool_wall(name, data, r["isError"])
        if wall is not None:
            raise wall
        if r["isError"]:
            raise DchubError(f"{name}: {one_line(r.get('text') or 'the tool reported an error')}")
        meta = {"from_cache": r.get("fromCache", False), **({"stale": True, "reason": r["warnings"][0]} if r.get("stale") else {})}
        records = data if isinstance(data, list) else next((v for v in (data.values() if isinstance(data, dict) else [])
                                                            if isinstance(v, list) and v and all(isinstance(x, dict) for x in v)), None)
        if isinstance(records, list) and records and all(isinstance(x, dict) for x in records):
            # A list the server cut for this caller ("3 of 10") says so: attrs["preview"]["partial"].
            preview = tool_partial(data) or preview_of(data, len(records))
            return finish(frame(records), meta=meta, citation=_cite(data), preview=preview, tool=name)
        return data
