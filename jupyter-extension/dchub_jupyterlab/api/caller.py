"""The one call path of :class:`~dchub_jupyterlab.Client`, and the account calls.

A caller holds its session in the engine, counts the requests it sent, raises core's warnings and
turns answers into pandas objects; it reads the quota and the cache.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

import pandas as pd

from .errors import DchubError
from .frames import jsonable, timestamp, to_pandas, to_record, to_table, warn_all
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
        **internal: Any,
    ) -> None:
        #: Tests move time: a callable giving "now" in ms, sent with each call.
        self._now: Callable[[], float] | None = internal.pop("now", None)
        if internal:
            raise TypeError(f"Client() got unexpected arguments: {', '.join(sorted(internal))}")
        self._session = SessionRef(
            {
                "base_url": base_url,
                "api_key": api_key,
                "cache_dir": os.fspath(cache_dir) if cache_dir else None,
                "cache": cache,
                "timeout": timeout,
                "retries": retries,
                "tier": tier,
                "derive": derive,
            }
        )
        self.timeout = timeout
        self._sent = 0

    def __repr__(self) -> str:
        key = "set" if self._session.facts.get("has_key") else "none (keyless preview tier)"
        return f"Client(base_url={self.base_url!r}, api_key={key}, cache_dir={self.cache_dir!r})"

    def __reduce__(self) -> Any:
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

    def _answer(self, name: str, args: dict[str, Any], refresh: bool) -> dict[str, Any]:
        answer = self._request("call", {"method": name, "args": jsonable(args), "refresh": refresh})
        if not isinstance(answer, dict):
            raise DchubError(f"DC Hub's engine gave {name} no answer")
        return answer

    # Each of the three is called by a Client method, so a warning points at the user's line.
    def _call(self, name: str, args: dict[str, Any], *, refresh: bool = False) -> Any:
        """An answer as core shaped it: a DataFrame, a Series, or plain data."""
        return to_pandas(self._answer(name, args, refresh), stacklevel=4)

    def _table(self, name: str, args: dict[str, Any], *, refresh: bool = False) -> pd.DataFrame:
        """An answer core shapes as a table."""
        return to_table(self._answer(name, args, refresh), stacklevel=4)

    def _record(self, name: str, args: dict[str, Any], *, refresh: bool = False) -> pd.Series:
        """An answer core shapes as a record."""
        return to_record(self._answer(name, args, refresh), stacklevel=4)

    # ------------------------------------------------------------ account

    def quota(self) -> dict[str, Any]:
        """Calls left today from the shared ledger (no call spent).

        Behind a team gateway ``via_gateway`` is True, ``limit`` and ``remaining`` are the token's
        share (else the team's) as the gateway stated them, ``gateway`` holds both, and ``line``
        says it in words ("via the team gateway: ...").
        """
        q = self._request("quota", {})
        g = q.get("gateway")
        return {
            "tier": q["tier"],
            "limit": q["limit"],
            "used": q["used"],
            "remaining": q["remaining"],
            "resets_at": timestamp(q["resets_at"]),
            "confirmed": q["confirmed"],
            "via_gateway": q.get("via_gateway") is True,
            "gateway": {**g, "resets_at": timestamp(g.get("resets_at"))}
            if isinstance(g, dict)
            else None,
            "line": str(q.get("line") or ""),
        }

    def cache_info(self) -> dict[str, Any]:
        """The cache directory and how many answers it holds."""
        info = self._request("cache_info", {})
        return {"directory": info["directory"], "answers": info["answers"]}

    def cache_clear(self) -> int:
        """Drops every cached answer in the directory (the ledger is kept); returns how many."""
        return int(self._request("cache_clear", {})["cleared"])
