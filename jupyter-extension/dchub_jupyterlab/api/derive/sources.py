"""Which cached answers may serve other questions: core's source index (core/src/derive/sources.ts).

A small index per caller, service and path, kept in the cache directory beside the answers under
``cache_key(caller, service, "derive-index", path)``: a JSON list ``[{"q", "at", "preview"?}]``,
oldest first, at most 48 entries. The ``dchub`` CLI and this API read and write the same index, so
a wide answer one of them cached serves a narrower question of the other.
"""

from __future__ import annotations

import json
import re
from typing import Any, Iterator
from urllib.parse import parse_qsl

from ..errors import NetworkError, QuotaSpentError, RateLimitError, ServerError
from ..jsfmt import js_json
from ..store import cache_key
from .policy import default_derive_mode

#: Most answers kept in one index; the oldest are forgotten first.
INDEX_MAX = 48
#: Most cached answers read back for one question.
CANDIDATES_MAX = 8


def pairs_of(query: str) -> list[tuple[str, str]]:
    """The pairs of a canonical query string (``new URLSearchParams(query)``)."""
    return parse_qsl(query, keep_blank_values=True)


def _index_key(session, path: str) -> str:
    return cache_key(session.caller_id, session.base_url, "derive-index", path)


def _read_index(session, path: str) -> list[dict[str, Any]]:
    try:
        entries = json.loads(session.store.get(_index_key(session, path)) or "[]")
    except ValueError:
        return []
    if not isinstance(entries, list):
        return []
    return [e for e in entries if isinstance(e, dict) and isinstance(e.get("q"), str)
            and isinstance(e.get("at"), (int, float)) and not isinstance(e.get("at"), bool)]


def sources_of(session, path: str) -> list[dict[str, Any]]:
    """The noted answers of ``path``, most recent first."""
    if session.cache is None:
        return []
    return list(reversed(_read_index(session, path)))


def note_source(session, path: str, query: str, preview: bool, at: int) -> None:
    """Notes that the answer to ``path?query`` is cached and may serve other questions (or is a preview)."""
    if session.cache is None:
        return
    key = _index_key(session, path)
    with session.store.locked(re.sub(r"[^A-Za-z0-9_-]", "_", key)[:120]):
        entries = [e for e in _read_index(session, path) if e["q"] != query]
        entries.append({"q": query, "at": int(at), **({"preview": True} if preview else {})})
        entries = entries[-INDEX_MAX:]
        try:
            session.store.set(key, js_json(entries))
        except OSError:
            pass  # a read-only or full disk costs the index, never the answer


def cached_sources(session, path: str, accept, *, allow_stale: bool, previews: bool = False,
                   readable=None) -> Iterator[tuple[str, Any, dict[str, Any]]]:
    """Yields ``(query, body, meta)`` of the noted sources that ``accept`` (by query), most recent
    first; previews are skipped unless ``previews`` (a list whose withheld fields are told apart)."""
    read = 0
    for e in sources_of(session, path):
        if e.get("preview") or not accept(e["q"]):
            continue
        read += 1
        if read > CANDIDATES_MAX:
            return
        hit = session.cached(path, pairs_of(e["q"]))
        if hit is None:
            continue
        body, meta = hit
        if readable is not None and not readable(body):
            continue  # what is stored does not read as this resource: core would not use it either
        if (allow_stale or not meta["stale"]) and (previews or not meta["preview"]):
            yield e["q"], body, meta


def previews_seen(session, path: str) -> bool:
    """Whether this caller's cache holds a fresh preview from ``path`` (its tier gets previews there)."""
    for e in reversed(sources_of(session, path)):
        if not e.get("preview"):
            continue
        hit = session.cached(path, pairs_of(e["q"]))
        if hit is not None and not hit[1]["stale"]:
            return True
    return False


def fresh_cached(session, path: str, query: str) -> tuple[Any, dict[str, Any]] | None:
    """The fresh cached answer to exactly this request, if any."""
    hit = session.cached(path, pairs_of(query)) if session.cache is not None else None
    return hit if hit is not None and not hit[1]["stale"] else None


def derived_meta(source: dict[str, Any], path: str, query: str, *, stale: bool | None = None,
                 reason: str | None = None) -> dict[str, Any]:
    """The meta of an answer derived from ``source`` (the cached answer to ``path?query``)."""
    is_stale = source.get("stale", False) if stale is None else stale
    why = reason if reason is not None else (source.get("reason") if is_stale else None)
    meta = {"from_cache": source.get("from_cache", True), "stale": is_stale, "preview": False,
            "fetched_at": source.get("fetched_at"), "age_seconds": source.get("age_seconds", 0.0),
            # What was mended or left out of the source holds for what is derived from it.
            "warnings": list(source.get("warnings") or []),
            "derived_from": {"path": path, "query": query, "age_seconds": source.get("age_seconds", 0.0)}}
    if why:
        meta["reason"] = why
    return meta


def describe_derived(derived_from: dict[str, Any]) -> str:
    """One line: how a derived answer was obtained (core's ``describeDerived``)."""
    minutes = round(derived_from["age_seconds"] / 60)
    q = derived_from.get("query")
    return (f"answered locally from a cached wider answer (GET {derived_from['path']}{'?' + q if q else ''}, "
            f"{'under a minute' if minutes < 1 else f'{minutes} min'} old)")


def derive_mode_of(session, setting: str | None) -> str:
    """The mode in force: the setting, or the default of the caller's tier. A key whose tier the
    service has not stated yet asks exactly (its first answer tells the tier)."""
    if setting:
        return setting
    if session.cache is None:
        return "off"
    snap = session.ledger.snapshot()
    if not snap["confirmed"]:
        return "exact"
    return default_derive_mode(snap["tier"], snap["limit"])


def confirmed_tier(session) -> str | None:
    """The caller's tier as the ledger knows it, once the service has stated it."""
    snap = session.ledger.snapshot()
    return snap["tier"] if snap["confirmed"] else None


def stale_reason(err: BaseException) -> str | None:
    """Why a failed request may be answered from a stale wider answer (as for its own answer)."""
    if isinstance(err, QuotaSpentError):
        return "daily limit reached"
    if isinstance(err, RateLimitError):
        return "rate limited"
    if isinstance(err, NetworkError):
        return "offline"
    if isinstance(err, ServerError):
        return "service error"
    return None
