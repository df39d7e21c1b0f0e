"""The one call path of :class:`~dchub_jupyterlab.Client`, and the account calls.

A caller holds its session in the engine, counts the requests it sent, raises core's warnings and
turns answers into pandas objects; it reads the quota and the cache.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar, cast

import pandas as pd

from .core_types import QUOTA_KEYS, CacheInfo, Quota
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
_C = TypeVar("_C", bound="Caller")


class Caller:
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
        self._sent = 0
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
        self.timeout = timeout

    def __repr__(self) -> str:
        session = getattr(self, "_session", None)
        if session is None:  # construction failed (a refused key): a repr never raises
            return f"{type(self).__name__}(not connected)"
        key = "set" if session.facts.get("has_key") else "none (keyless preview tier)"
        return f"Client(base_url={self.base_url!r}, api_key={key}, cache_dir={self.cache_dir!r})"

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
            self._sent = err._sent if err._sent is not None else self._sent
            # What the user should know though the call failed (it went past an assumed allowance).
            warn_all(err._warnings or [], stacklevel=4)
            raise
        if isinstance(result, dict) and isinstance(result.get("sent"), int):
            self._sent = result["sent"]
        return result

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
        q = self._request("quota", {})
        g = q["gateway"]
        times = {"resets_at": timestamp(q["resets_at"])}
        gateway = {**g, "resets_at": timestamp(g["resets_at"])} if isinstance(g, dict) else None
        return cast(Quota, {**{k: q[k] for k in QUOTA_KEYS}, **times, "gateway": gateway})

    def cache_info(self) -> CacheInfo:
        """The cache directory and how many answers it holds."""
        info = self._request("cache_info", {})
        return {"directory": info["directory"], "answers": info["answers"]}

    def cache_clear(self) -> int:
        """Drops every cached answer in the directory (the ledger is kept); returns how many."""
        return int(self._request("cache_clear", {})["cleared"])
