"""The one call path of :class:`~dchub.Client` and :class:`~dchub.AsyncClient`; account calls.

A caller holds its session in the engine, counts the requests it sent, raises core's warnings and
turns answers into pandas objects; it reads the quota and the cache. An asynchronous caller makes
the same requests from worker threads, many in flight at once in the one engine; cancelling its
task cancels the call (see :class:`.engine.CallHandle`).
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, NoReturn, TypeVar, cast

import pandas as pd

from .core_types import QUOTA_KEYS, CacheInfo, Quota
from .engine import CURRENT, CallHandle
from .errors import DchubError
from .frames import (
    Json,
    argument_json,
    timestamp,
    to_record,
    to_table,
    to_table_or_data,
    warn_all,
)
from .secret import wrapped
from .session import SessionRef

Progress = Callable[[str], None]
_C = TypeVar("_C", bound="CallerBase")
_T = TypeVar("_T")
_AC = TypeVar("_AC", bound="AsyncCaller")


class CallerBase:
    """A caller of core: one session in the engine with this caller's service, key and settings."""

    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        *,
        cache_dir: str | os.PathLike[str] | None = None,
        cache: bool = True,
        timeout: float = 30.0,
        retries: int = 2,
        tier: str | None = None,
        derive: str | bool | None = None,
    ) -> None:
        # Wrapped before anything else: a refused key (malformed, say) is in no frame as text.
        key = wrapped(api_key)
        del api_key
        self._sent = self._sent_base = 0
        self._session = SessionRef(
            {
                "base_url": base_url,
                "api_key": key,
                "cache_dir": os.fspath(cache_dir) if cache_dir else None,
                "cache": cache,
                "timeout": timeout,
                "retries": retries,
                "tier": tier,
                "derive": derive,
            }
        )
        self._sent_generation = self._session.generation
        self.timeout = timeout

    def __repr__(self) -> str:
        session = getattr(self, "_session", None)
        if session is None:  # construction failed (a refused key): a repr never raises
            return f"{type(self).__name__}(not connected)"
        key = "set" if session.facts.get("has_key") else "none (keyless preview tier)"
        where = f"base_url={self.base_url!r}, api_key={key}, cache_dir={self.cache_dir!r}"
        return f"{type(self).__name__}({where})"

    #: A callable giving "now" in ms, sent with each call (tests move time with it).
    _now: Callable[[], float] | None = None

    def __reduce__(self) -> NoReturn:
        raise TypeError(
            "a DC Hub Client holds an API key and is not picklable; make a new one instead"
        )

    @property
    def base_url(self) -> str:
        """The service this client calls (without the trailing slash)."""
        return str(self._session.facts.get("base_url", ""))

    @property
    def cache_dir(self) -> str:
        """The directory of cached answers and of the daily ledger (the ``dchub`` CLI's too)."""
        return str(self._session.facts.get("cache_dir", ""))

    @property
    def requests_sent(self) -> int:
        """Requests actually sent to the service by this client (cached answers cost none)."""
        return self._sent

    def close(self) -> None:
        """Closes this client's session in the engine (the engine itself ends with Python)."""
        self._session.close()

    def __enter__(self: _C) -> _C:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------ the one call path

    def _request(
        self, method: str, params: dict[str, Any], progress: Progress | None = None
    ) -> Any:
        if self._now is not None:
            params = {**params, "now": int(self._now())}
        try:
            result = self._session.call(method, params, progress=progress)
        except DchubError as err:
            if err._sent is not None:
                self._count(err._sent)
            # What the user should know though the call failed (it went past an assumed allowance).
            warn_all(err._warnings or [], stacklevel=4)
            raise
        if isinstance(result, dict) and isinstance(result.get("sent"), int):
            self._count(result["sent"])
        return result

    def _count(self, sent: int) -> None:
        """The session's count of requests sent, continued across engine restarts.

        A restarted engine opens the session again, counting from zero: what the earlier ones
        sent is kept. Answers of concurrent calls may arrive out of order: the count never falls.
        """
        generation = self._session.generation
        if generation != self._sent_generation:
            self._sent_base, self._sent_generation = self._sent, generation
        self._sent = max(self._sent, self._sent_base + sent)

    def _answer(
        self, name: str, args: dict[str, Any], refresh: bool, progress: Progress | bool = False
    ) -> dict[str, Any]:
        say: Progress | None = (
            progress
            if callable(progress)
            else (lambda m: print(f"dchub: {m}", file=sys.stderr))
            if progress
            else None
        )
        params = {"method": name, "args": argument_json(args), "refresh": refresh}
        answer = self._request("call", params, say)
        if not isinstance(answer, dict):
            raise DchubError(f"DC Hub's engine gave {name} no answer")
        return answer


def _quota(q: dict[str, Any]) -> Quota:
    g = q["gateway"]
    times = {"resets_at": timestamp(q["resets_at"])}
    gateway = {**g, "resets_at": timestamp(g["resets_at"])} if isinstance(g, dict) else None
    return cast(Quota, {**{k: q[k] for k in QUOTA_KEYS}, **times, "gateway": gateway})


def _cache_info(info: dict[str, Any]) -> CacheInfo:
    return {"directory": info["directory"], "answers": info["answers"]}


class Caller(CallerBase):
    """A caller whose calls answer when they are done."""

    # Each of the three is called by a Client method, so a warning points at the user's line.
    def _table(
        self,
        name: str,
        args: dict[str, Any],
        *,
        refresh: bool = False,
        progress: Progress | bool = False,
    ) -> pd.DataFrame:
        """An answer core shapes as a table; progress to a callable, stderr (True) or nowhere."""
        return to_table(self._answer(name, args, refresh, progress), stacklevel=4)

    def _record(self, name: str, args: dict[str, Any], *, refresh: bool = False) -> pd.Series:
        """An answer core shapes as a record."""
        return to_record(self._answer(name, args, refresh), stacklevel=4)

    def _table_or_data(
        self, name: str, args: dict[str, Any], *, refresh: bool = False
    ) -> pd.DataFrame | Json:
        """An answer core shapes as a table, or its plain data."""
        return to_table_or_data(self._answer(name, args, refresh), stacklevel=4)

    # ------------------------------------------------------------ account

    def quota(self) -> Quota:
        """Calls left today from the shared ledger (no call spent).

        Behind a team gateway ``via_gateway`` is True, ``limit`` and ``remaining`` are the token's
        share (else the team's) as the gateway stated them, ``gateway`` holds both, and ``line``
        says it in words ("via the team gateway: ...").
        """
        return _quota(self._request("quota", {}))

    def cache_info(self) -> CacheInfo:
        """The cache directory and how many answers it holds."""
        return _cache_info(self._request("cache_info", {}))

    def cache_clear(self) -> int:
        """Drops every cached answer in the directory (the ledger is kept); returns how many."""
        return int(self._request("cache_clear", {})["cleared"])


#: The worker threads of asynchronous calls: each waits on its request (many at once, in one
#: engine); asyncio's default executor has too few threads for twenty calls in flight.
_WORKERS = ThreadPoolExecutor(max_workers=64, thread_name_prefix="dchub-async")


class AsyncCaller(CallerBase):
    """A caller whose calls are coroutines; cancelling a task cancels its call in the engine."""

    async def _in_engine(self, work: Callable[[], _T]) -> _T:
        handle = CallHandle()

        def run() -> _T:
            CURRENT.handle = handle
            try:
                return work()
            finally:
                CURRENT.handle = None

        future = asyncio.get_running_loop().run_in_executor(_WORKERS, run)
        try:
            return await future
        except asyncio.CancelledError:
            handle.cancel()  # the engine aborts the call; its thread stops waiting
            raise

    async def _table(
        self,
        name: str,
        args: dict[str, Any],
        *,
        refresh: bool = False,
        progress: Progress | bool = False,
    ) -> pd.DataFrame:
        """An answer core shapes as a table (progress is reported from a worker thread)."""
        answer = await self._in_engine(lambda: self._answer(name, args, refresh, progress))
        return to_table(answer, stacklevel=4)

    async def _record(self, name: str, args: dict[str, Any], *, refresh: bool = False) -> pd.Series:
        """An answer core shapes as a record."""
        answer = await self._in_engine(lambda: self._answer(name, args, refresh))
        return to_record(answer, stacklevel=4)

    async def _table_or_data(
        self, name: str, args: dict[str, Any], *, refresh: bool = False
    ) -> pd.DataFrame | Json:
        """An answer core shapes as a table, or its plain data."""
        answer = await self._in_engine(lambda: self._answer(name, args, refresh))
        return to_table_or_data(answer, stacklevel=4)

    async def quota(self) -> Quota:
        """Calls left today from the shared ledger (no call spent); see :meth:`Client.quota`."""
        return _quota(await self._in_engine(lambda: self._request("quota", {})))

    async def cache_info(self) -> CacheInfo:
        """The cache directory and how many answers it holds."""
        return _cache_info(await self._in_engine(lambda: self._request("cache_info", {})))

    async def cache_clear(self) -> int:
        """Drops every cached answer in the directory (the ledger is kept); returns how many."""
        return int((await self._in_engine(lambda: self._request("cache_clear", {})))["cleared"])

    async def aclose(self) -> None:
        """Closes this client's session in the engine."""
        await self._in_engine(self.close)

    async def __aenter__(self: _AC) -> _AC:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
