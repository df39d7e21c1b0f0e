"""The daily allowance shared with the ``dchub`` CLI: core's ``QuotaLedger`` (cache/ledger.ts) over the
same directory store, state ``{"day", "used", "limit", "tier", "known"}`` under ``dchub:quota:<caller>``."""

from __future__ import annotations

import contextlib
import json
import re
from datetime import datetime, timedelta, timezone
from typing import Any, Iterator

from .jsfmt import js_number
from .store import now_ms

#: REST requests per day by tier (spec §8.1); keyless callers get 10.
DAILY_ALLOWANCE = {
    "anonymous": 10, "free": 10, "identified": 50, "starter": 200, "developer": 500,
    "pro": 2000, "founding": 2000, "enterprise": 100_000,
}
UNLIMITED = 1_000_000_000
#: MCP tool calls per day (spec §8.1, MCP plans): an allowance apart from REST.
MCP_DAILY_ALLOWANCE = {
    "anonymous": 10, "free": 1000, "identified": 1000, "starter": 10_000, "developer": UNLIMITED,
    "pro": UNLIMITED, "founding": UNLIMITED, "enterprise": UNLIMITED,
}


def utc_day(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).strftime("%Y-%m-%d")


def next_utc_midnight(ms: int) -> str:
    d = datetime.fromtimestamp(ms / 1000, tz=timezone.utc)
    nxt = datetime(d.year, d.month, d.day, tzinfo=timezone.utc) + timedelta(days=1)
    return nxt.strftime("%Y-%m-%dT%H:%M:%S.000Z")


class QuotaLedger:
    """The caller's daily allowance in the shared store: core's ``QuotaLedger`` (cache/ledger.ts), step for step.

    The state is ``{"day", "used", "limit", "tier", "known"}`` under ``dchub:quota:<caller>``. The
    allowance starts *assumed* (from the tier given, or the spec's numbers) and becomes *known* when
    the service states it: rate-limit headers with a daily limit, whoami, or a 429. Only a known
    allowance refuses a call; an assumed one lets it go and warns. A state written by an older
    version (``confirmed``, meaning "answered once") is read as assumed.

    Core keeps the state in memory for a process's life; here each step re-reads the file under a
    lock, so the CLI and any number of kernels spend one allowance.
    """

    def __init__(self, store, caller_id: str, *, tier: str | None = None, confirmed: bool = False,
                 allowance: dict[str, int] | None = None, now=now_ms):
        self.store = store
        self.caller_id = caller_id
        self.tier = tier
        #: The allowance of ``tier`` is known (the caller has it from the service), not assumed.
        self.confirmed = confirmed
        self.allowance = allowance or DAILY_ALLOWANCE
        self.now = now

    @property
    def store_key(self) -> str:
        return f"dchub:quota:{self.caller_id}"

    def _load(self) -> dict[str, Any]:
        day = utc_day(self.now())
        try:
            state = json.loads(self.store.get(self.store_key) or "null")
        except ValueError:
            state = None
        if not isinstance(state, dict):
            state = None
        tier = _js_or((state or {}).get("tier"), self.tier, "anonymous")
        if state is None or state.get("day") != day:
            known = state.get("known") is True if state is not None else self.confirmed is True
            limit = _js_or((state or {}).get("limit"), self.allowance.get(tier), 10)
            state = {"day": day, "used": 0, "limit": limit, "tier": tier, "known": known}
        return state

    def _save(self, state: dict[str, Any]) -> None:
        self.store.set(self.store_key, json.dumps(state, separators=(",", ":"), ensure_ascii=False))

    @contextlib.contextmanager
    def _state(self) -> Iterator[dict[str, Any]]:
        with self.store.locked(re.sub(r"[^A-Za-z0-9_-]", "_", self.store_key)):
            yield self._load()

    def snapshot(self) -> dict[str, Any]:
        """Core's ``snapshot()``: ``confirmed`` says the allowance is known."""
        with self._state() as s:
            return {"day": s["day"], "used": s["used"], "limit": s["limit"], "tier": s["tier"],
                    "confirmed": s.get("known") is True, "remaining": max(0, s["limit"] - s["used"]),
                    "resets_at": next_utc_midnight(self.now())}

    def remaining(self) -> int:
        return self.snapshot()["remaining"]

    def reserve(self, n: int = 1) -> tuple[bool, str | None]:
        """Takes ``n`` calls: (False, None) only when a known allowance cannot cover them; else
        (True, the warning to show when an assumed allowance is exceeded)."""
        with self._state() as s:
            over = s["used"] + n > s["limit"]
            if over and s.get("known"):
                return False, None
            s["used"] += n
            self._save(s)
            if not over:
                return True, None
            return True, (f"more than the assumed {js_number(s['limit'])} calls a day ({s['tier']} tier) were used; "
                          "the service has not stated its limit, so calls continue")

    def release(self, n: int = 1) -> None:
        """Gives back a reservation whose request never reached the service."""
        with self._state() as s:
            s["used"] = max(0, s["used"] - n)
            self._save(s)

    def correct(self, headers) -> None:
        """The service's X-RateLimit-* headers: a daily Limit makes the allowance known; Remaining
        counts the day only beside a Reset (a bare Remaining is the real per-minute bucket)."""
        limit = _js_number_of(headers.get("x-ratelimit-limit"))
        remaining = _js_number_of(headers.get("x-ratelimit-remaining"))
        tier = headers.get("x-ratelimit-tier")
        has_limit = limit is not None and limit > 0
        if not has_limit and not tier:
            return
        with self._state() as s:
            if tier:
                s["tier"] = tier
            if has_limit:
                s["limit"] = limit
                s["known"] = True
                if remaining is not None and headers.get("x-ratelimit-reset") is not None:
                    s["used"] = max(0, s["limit"] - remaining)
            self._save(s)

    def confirm(self, *, tier: str | None = None, limit: int | None = None, remaining: int | None = None) -> None:
        """The service stated the calls left (whoami): the allowance becomes known."""
        with self._state() as s:
            if tier:
                s["tier"] = tier
            if limit is not None and limit > 0:
                s["limit"] = limit
            if remaining is not None and remaining >= 0:
                if limit is None and s["used"] + remaining > s["limit"]:
                    s["limit"] = s["used"] + remaining
                s["used"] = max(0, s["limit"] - remaining)
            s["known"] = True
            self._save(s)

    def exhaust(self) -> None:
        """The service said the allowance is spent (429): the day is used up, and that is known."""
        with self._state() as s:
            s["used"] = s["limit"]
            s["known"] = True
            self._save(s)


def _js_or(*values: Any) -> Any:
    """JavaScript's ``a ?? b ?? c``: the first value that is not null or missing."""
    return next((v for v in values if v is not None), None)


def _js_number_of(text: str | None) -> int | float | None:
    """``Number(header)`` when finite (``None`` for a missing header), integral values as ints
    (so the stored JSON reads ``10``, as core writes it, never ``10.0``)."""
    if text is None:
        return None
    t = text.strip()
    if t == "":
        return 0
    try:
        n = float(t)
    except ValueError:
        return None
    if n != n or n in (float("inf"), float("-inf")):
        return None
    return int(n) if n.is_integer() else n
