"""The cache directory shared with the ``dchub`` CLI: same files, same keys, same ledger.

Mirrors core's ``DirectoryStore`` (one JSON file ``{"key", "value"}`` per key, named by
``encodeURIComponent(key)`` with ``%`` → ``_``, a fingerprint past 180 characters), its keys
(``cache_key``: caller, service, request), its ``StoredAnswer``
(``{"text", "storedAt", "expiresAt", "etag"?, "preview"}``), the freshness rules of
``cache/lifetimes.ts`` (the daily ``QuotaLedger`` is in :mod:`.ledger`: state ``{"day", "used", "limit", "tier",
"known"}`` under ``dchub:quota:<caller>``). The contract tests run the CLI against this.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator

from .jsfmt import cyrb53, encode_uri_component

try:  # POSIX: serialize read-modify-write of the ledger across processes
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

MINUTE = 60_000
HOUR = 60 * MINUTE
DAY = 24 * HOUR
DCPI_RECOMPUTE_HOUR_UTC = 6


def now_ms() -> int:
    return int(time.time() * 1000)


#: Every cache key starts with this (``cache_clear`` drops them; the quota ledger is apart).
CACHE_KEY_PREFIX = "dchub:c:"


def cache_key(caller_id: str, service: str, verb: str, what: str) -> str:
    """Core's ``cacheKey`` (cache/keys.ts): who asked, which service, what.

    ``service`` is the normalized base URL (its origin, and a path prefix when it has one; the
    trailing slash dropped), so answers of two services never share a key; ``verb`` and ``what``:
    ``GET /path?sorted-query``, ``POST /path#<body fingerprint>``, ``MCP <tool>#<sorted arguments>``,
    ``derive-index /path``. E.g. ``dchub:c:anon:GET https://dchub.cloud /api/news?limit=2``.
    """
    return f"{CACHE_KEY_PREFIX}{caller_id}:{verb} {service.rstrip('/')} {what}"


#: Longest file name stem; a longer key keeps its start and adds a fingerprint of the whole key.
NAME_MAX = 180


def file_name_of(key: str) -> str:
    """Core's ``fileNameOf`` (cache/dirstore.ts): ``encodeURIComponent(key)`` with ``%`` → ``_``; past
    180 characters, the first 160, ``~`` and the key's fingerprint (two long keys never share a file)."""
    name = encode_uri_component(key).replace("%", "_")
    return f"{name[:160] + '~' + cyrb53(key) if len(name) > NAME_MAX else name}.json"


class DirectoryStore:
    """One file per key in ``directory``; writes are atomic (temporary file, then rename)."""

    def __init__(self, directory: str | os.PathLike[str]):
        self.directory = Path(directory)

    def path_of(self, key: str) -> Path:
        return self.directory / file_name_of(key)

    def get(self, key: str) -> str | None:
        try:
            raw = json.loads(self.path_of(key).read_text("utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(raw, dict) or raw.get("key") != key or not isinstance(raw.get("value"), str):
            return None
        return raw["value"]

    def set(self, key: str, value: str) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        target = self.path_of(key)
        fd, tmp = tempfile.mkstemp(dir=self.directory, prefix=target.name + ".", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({"key": key, "value": value}, f, ensure_ascii=False, separators=(",", ":"))
            os.replace(tmp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise

    def delete(self, key: str) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.path_of(key).unlink()

    def keys(self, prefix: str) -> list[str]:
        try:
            names = sorted(p for p in self.directory.iterdir() if p.suffix == ".json")
        except OSError:
            return []
        out = []
        for p in names:
            try:
                key = json.loads(p.read_text("utf-8")).get("key")
            except (OSError, ValueError, AttributeError):
                continue  # a file being written, or not ours
            if isinstance(key, str) and key.startswith(prefix):
                out.append(key)
        return out

    @contextlib.contextmanager
    def locked(self, name: str) -> Iterator[None]:
        """An advisory lock beside the files (not a ``.json`` file, so never read as a key)."""
        if fcntl is None:
            yield
            return
        self.directory.mkdir(parents=True, exist_ok=True)
        with open(self.directory / f".{name}.lock", "a") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(f, fcntl.LOCK_UN)


# ---------------------------------------------------------------- freshness (cache/lifetimes.ts)


def until_next_recompute(now: int) -> int:
    d = datetime.fromtimestamp(now / 1000, tz=timezone.utc)
    nxt = d.replace(hour=DCPI_RECOMPUTE_HOUR_UTC, minute=0, second=0, microsecond=0)
    ms = int(nxt.timestamp() * 1000)
    if ms <= now:
        ms += DAY
    return ms - now


def _queue_lifetime(_now: int, body: Any) -> int:
    days = body.get("candidate_ttl_days") if isinstance(body, dict) else None
    return days * DAY if isinstance(days, (int, float)) and not isinstance(days, bool) and days > 0 else DAY


_RULES: list[tuple[re.Pattern[str], Any]] = [
    (re.compile(r"^/api/v1/market-brief/"), lambda n, b: 6 * HOUR),
    (re.compile(r"^/api/v1/(dcpi|ai-capacity-index)"), lambda n, b: until_next_recompute(n)),
    (re.compile(r"^/api/(v1/)?(news|agent/news|news-feed|news/live)"), lambda n, b: 5 * MINUTE),
    (re.compile(r"^/api/v1/interconnection-queue/"), _queue_lifetime),
    (re.compile(r"^/api/site-score"), lambda n, b: 7 * DAY),
    (re.compile(r"^/api/v1/(analyze-parcel|rank-sites)"), lambda n, b: 7 * DAY),
    (re.compile(r"^/api/v1/stats"), lambda n, b: 5 * MINUTE),
    (re.compile(r"^/api/v1/markets"), lambda n, b: 30 * MINUTE),
    (re.compile(r"^/api/grid/fuel-mix"), lambda n, b: 5 * MINUTE),
    (re.compile(r"^/api/energy/prices"), lambda n, b: DAY),
    (re.compile(r"^/api/(v1/)?(transactions|deals)"), lambda n, b: HOUR),
    (re.compile(r"^/api/v1/pipeline"), lambda n, b: 6 * HOUR),
    (re.compile(r"^/api/v1/facilities"), lambda n, b: DAY),
]


def lifetime_for(path: str, now: int, body: Any = None) -> int:
    """How long an answer from ``path`` stays fresh, in ms (core's rules)."""
    for pattern, rule in _RULES:
        if pattern.search(path):
            return int(rule(now, body))
    return HOUR


# ---------------------------------------------------------------- answers (cache/responses.ts)

#: Headers kept with a stored answer (core's ``KEPT_HEADERS`` in cache/fetcher.ts).
KEPT_HEADERS = ("content-disposition", "content-type")


def kept_headers(headers) -> dict[str, str] | None:
    kept = {h: headers.get(h) for h in KEPT_HEADERS if headers.get(h) is not None}
    return kept or None



@dataclass
class StoredAnswer:
    text: str
    stored_at: int
    expires_at: int
    etag: str | None = None
    preview: bool = False
    #: Answer headers a text answer needs again (core's KEPT_HEADERS: Content-Disposition, Content-Type).
    headers: dict[str, str] | None = None

    def to_json(self) -> str:
        o: dict[str, Any] = {"text": self.text, "storedAt": self.stored_at, "expiresAt": self.expires_at}
        if self.etag is not None:
            o["etag"] = self.etag
        o["preview"] = self.preview
        if self.headers:
            o["headers"] = self.headers
        return json.dumps(o, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, raw: str | None) -> "StoredAnswer | None":
        if not raw:
            return None
        try:
            o = json.loads(raw)
        except ValueError:
            return None
        if not isinstance(o, dict) or not isinstance(o.get("text"), str) or not isinstance(o.get("expiresAt"), (int, float)):
            return None
        stored = o.get("storedAt")
        return cls(
            text=o["text"],
            stored_at=int(stored) if isinstance(stored, (int, float)) else int(o["expiresAt"]),
            expires_at=int(o["expiresAt"]),
            etag=o["etag"] if isinstance(o.get("etag"), str) else None,
            preview=o.get("preview") is True,
            headers={k: v for k, v in o["headers"].items() if isinstance(v, str)} if isinstance(o.get("headers"), dict) else None,
        )


class ResponseCache:
    """Cached answers under ``dchub:c:`` keys in a store (the CLI's directory by default)."""

    PREFIX = CACHE_KEY_PREFIX

    def __init__(self, store: DirectoryStore):
        self.store = store
        self.hits = 0
        self.misses = 0
        self.stale_served = 0

    def load(self, key: str) -> StoredAnswer | None:
        return StoredAnswer.from_json(self.store.get(key))

    def save(self, key: str, answer: StoredAnswer) -> None:
        try:
            self.store.set(key, answer.to_json())
        except OSError:
            pass  # a read-only or full disk costs the cache, never the answer

    def clear(self) -> int:
        keys = self.store.keys(self.PREFIX)
        for k in keys:
            self.store.delete(k)
        return len(keys)

    def count(self) -> int:
        return len(self.store.keys(self.PREFIX))
