"""One question through the derive setting (core/src/derive/flow.ts, queue-answers.ts, items.ts).

Its own fresh cached answer; else one derived from a fresh cached wider answer; else (widen) the
wider request; else the exact request. When the exact request fails for want of calls or of the
service, a stale wider answer serves, marked stale.
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple

from ..errors import DchubError, ValidationError
from ..jsfmt import form_encode
from ..queue_filters import QueueFilters, queue_filters, queue_params
from .queue import derive_queue_answer, is_preview, read_queue_answer, source_problem, why_not_wider, widen_queue_filters
from .sources import (cached_sources, confirmed_tier, derive_mode_of, derived_meta, fresh_cached, note_source,
                      pairs_of, previews_seen, stale_reason)

Answer = tuple[Any, dict[str, Any]]
QUEUE_PATH = "/api/v1/interconnection-queue/refined"


class Steps(NamedTuple):
    exact: Callable[[], Answer]
    own: Callable[[], Answer | None]
    local: Callable[[str | None], Answer | None]
    widen: Callable[[], Answer | None]


def answer_through(session, mode_setting: str | None, refresh: bool, steps: Steps) -> Answer:
    mode = "off" if refresh else derive_mode_of(session, mode_setting)
    if mode == "off":
        return steps.exact()
    ready = steps.own() or steps.local(None)
    if ready is not None:
        return ready
    if mode == "widen":
        try:
            wide = steps.widen()
            if wide is not None:
                return wide
        except DchubError:
            pass  # the wider request failed: the exact one below decides (and may serve a stale answer)
    try:
        return steps.exact()
    except DchubError as err:
        reason = stale_reason(err)
        stale = steps.local(reason) if reason else None
        if stale is not None:
            return stale
        raise


# ---------------------------------------------------------------- the refined queue


def filters_of(query: str) -> QueueFilters | None:
    """Filters of a noted source, from its canonical query string."""
    try:
        return queue_filters(**dict(pairs_of(query)))
    except (ValidationError, TypeError):
        return None


def _note(session, g: QueueFilters, query: str, body: Any, meta: dict[str, Any]) -> None:
    """After a fetch: note a complete answer as a source (or a preview, which tells the tier)."""
    if meta.get("stale"):
        return
    preview = bool(meta.get("preview")) or is_preview(body)
    a = read_queue_answer(body)
    if preview or (a is not None and not source_problem(a, g)):
        note_source(session, QUEUE_PATH, query, preview, meta["fetched_at"])


def answer_queue(session, f: QueueFilters, *, derive: str | None, refresh: bool = False) -> Answer:
    """The refined queue for F through the derive setting: an exact fresh cached answer; else one
    derived from a fresh cached wider answer; else (widen) the widest likely-complete request — F's
    ISO set and status, limit 1000 — and F derived from it; else the exact request."""
    params = queue_params(f)
    f_query = form_encode(params)

    def exact() -> Answer:
        body, meta = session.fetch(QUEUE_PATH, params, refresh=refresh)
        _note(session, f, f_query, body, meta)
        return body, meta

    def local(reason: str | None) -> Answer | None:
        def wider(q: str) -> bool:
            g = filters_of(q)
            return q != f_query and g is not None and why_not_wider(g, f) is None

        for query, body, meta in cached_sources(session, QUEUE_PATH, wider, allow_stale=reason is not None,
                                                readable=lambda b: read_queue_answer(b) is not None):
            d = derive_queue_answer(read_queue_answer(body), filters_of(query), f)
            if d.value is not None:
                return d.value, derived_meta(meta, QUEUE_PATH, query, **({"stale": True, "reason": reason} if reason else {}))
        return None

    def widen() -> Answer | None:
        w = widen_queue_filters(f)
        w_params = queue_params(w)
        w_query = form_encode(w_params)
        # Nothing wider to ask, or this caller gets previews (which answer nothing but themselves).
        if w_query == f_query or previews_seen(session, QUEUE_PATH):
            return None
        body, meta = session.fetch(QUEUE_PATH, w_params)
        _note(session, w, w_query, body, meta)
        a = read_queue_answer(body)
        if meta.get("stale") or a is None:
            return None
        d = derive_queue_answer(a, w, f)
        return (d.value, derived_meta(meta, QUEUE_PATH, w_query)) if d.value is not None else None

    return answer_through(session, derive, refresh, Steps(exact, lambda: fresh_cached(session, QUEUE_PATH, f_query), local, widen))


# ---------------------------------------------------------------- lists that answer items


def read_path(obj: Any, path: str) -> Any:
    """The value at a dotted path (``hero.verdict``, ``kpis.0``), or None when it is not there."""
    cur = obj
    for part in path.split("."):
        if isinstance(cur, list) and part.isdigit():
            cur = cur[int(part)] if int(part) < len(cur) else None
        elif isinstance(cur, dict):
            cur = cur.get(part)
        else:
            return None
    return cur


def _set_path(obj: dict[str, Any], path: str, value: Any) -> None:
    parts = path.split(".")
    cur = obj
    for p in parts[:-1]:
        cur = cur.setdefault(p, {})
    cur[parts[-1]] = value


class ListItemPair(NamedTuple):
    """A list endpoint whose rows carry an item endpoint's fields exactly (core's ``ListItemPair``)."""

    list_path: str
    #: The list request sent when widening: the one that holds every item the caller may see.
    widen_query: str
    #: The member of an item that names it.
    key_field: str
    #: The rows of a list answer, or None when the answer is not such a list.
    rows: Callable[[Any], list[dict[str, Any]] | None]
    #: Whether a row of this list may carry ``field`` for a caller of ``tier`` (before fetching it).
    may_carry: Callable[[str, str | None], bool]
    #: Whether this list answer withholds ``field`` (locked or gated for the caller).
    withholds: Callable[[Any, dict[str, Any], str], bool]


def serve(pair: ListItemPair, body: Any, key: str, fields: list[str], tier: str | None) -> dict[str, Any] | None:
    """The asked fields of ``key`` from one list answer, or None when the list does not carry them all."""
    if isinstance(body, dict) and "_preview_params_not_applied" in body:
        return None
    rows = pair.rows(body)
    row = next((r for r in rows or [] if r.get(pair.key_field) == key), None)
    if row is None:
        return None
    out: dict[str, Any] = {pair.key_field: key}
    for field in fields:
        v = read_path(row, field)
        if v is None or not pair.may_carry(field, tier) or pair.withholds(body, row, field):
            return None
        _set_path(out, field, v)
    return out


def note_list(session, pair: ListItemPair, query: str, body: Any, meta: dict[str, Any]) -> None:
    """Notes a fetched list answer as a source of items."""
    if not meta.get("stale") and not (isinstance(body, dict) and "_preview_params_not_applied" in body):
        note_source(session, pair.list_path, query, False, meta["fetched_at"])


def answer_item_fields(session, pair: ListItemPair, item_path: str, key: str, fields: list[str], *,
                       derive: str | None, refresh: bool = False) -> Answer:
    """The asked ``fields`` of item ``key``: a fresh cached item; else a fresh cached list that carries
    them; else (widen) the list fetched now; else the item. The answer holds at least the asked fields."""

    def exact() -> Answer:
        return session.fetch(item_path, refresh=refresh)

    if not fields:
        return exact()
    tier = confirmed_tier(session)

    def local(reason: str | None) -> Answer | None:
        for query, body, meta in cached_sources(session, pair.list_path, lambda q: True, allow_stale=reason is not None,
                                                previews=True, readable=lambda b: pair.rows(b) is not None):
            served = serve(pair, body, key, fields, tier)
            if served is not None:
                return served, derived_meta(meta, pair.list_path, query, **({"stale": True, "reason": reason} if reason else {}))
        return None

    def widen() -> Answer | None:
        # The list cannot serve these fields to this caller, or it is cached and did not.
        if not all(pair.may_carry(f, tier) for f in fields) or fresh_cached(session, pair.list_path, pair.widen_query):
            return None
        body, meta = session.fetch(pair.list_path, pairs_of(pair.widen_query) or None)
        note_list(session, pair, pair.widen_query, body, meta)
        served = None if meta.get("stale") else serve(pair, body, key, fields, tier)
        return (served, derived_meta(meta, pair.list_path, pair.widen_query)) if served is not None else None

    return answer_through(session, derive, refresh, Steps(exact, lambda: fresh_cached(session, item_path, ""), local, widen))
