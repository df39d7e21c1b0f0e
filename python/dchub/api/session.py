"""A caller's session in the engine, and core's tables of names.

One session per :class:`~dchub_jupyterlab.Client`, one for the Jupyter relay.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from typing import Any

from .engine import ENGINE, RestartNeeded, current_env
from .errors import DchubError
from .secret import Secret, wrapped

__all__ = ["Secret", "SessionRef"]


class SessionRef:
    """A caller's session in the engine: opened again after a restart, closed with its Client."""

    def __init__(self, params: dict[str, Any]) -> None:
        # The key arrives wrapped (Client wraps it first thing): no frame here holds it as text.
        self._key = wrapped(params.get("api_key"))
        self._params = {k: v for k, v in params.items() if k != "api_key"}
        self._id: str | None = None
        self._generation = -1
        self.facts: dict[str, Any] = {}
        ENGINE.remember_secret(
            self._key.reveal() if self._key is not None else os.environ.get("DCHUB_API_KEY")
        )
        self._open()

    def _open(self) -> None:
        key = {"api_key": self._key} if self._key is not None else {}
        self.facts = ENGINE.request(
            "open", {**self._params, **key, "env": current_env()}, retry=False
        )
        self._id = self.facts["session"]
        self._generation = ENGINE.generation

    def call(
        self, method: str, params: dict[str, Any], *, progress: Callable[[str], None] | None = None
    ) -> Any:
        """A request in this session (``params`` plus the session), restarting the engine once."""
        for attempt in (1, 2):
            if self._generation != ENGINE.generation or ENGINE.pid is None:
                self._open()
            try:
                return ENGINE.request(
                    method, {**params, "session": self._id}, progress=progress, retry=attempt == 1
                )
            except RestartNeeded:
                self._generation = -1
        raise DchubError("DC Hub's engine stopped twice")  # not reached: the second stop is raised

    def close(self) -> None:
        """Closes the session in the engine, if that engine still runs."""
        if self._id is not None and self._generation == ENGINE.generation and ENGINE.pid:
            with contextlib.suppress(DchubError):  # closing is a courtesy: the engine may have gone
                ENGINE.request("close", {"session": self._id}, retry=False)
        self._id = None


def describe(env: dict[str, str] | None = None) -> dict[str, Any]:
    """Core's tables of names (ISOs, tiers, tools, columns, methods), default cache directory."""
    for attempt in (1, 2):
        try:
            tables = ENGINE.request(
                "describe", {"env": env if env is not None else current_env()}, retry=attempt == 1
            )
        except RestartNeeded:
            continue
        if not isinstance(tables, dict):
            raise DchubError("DC Hub's engine answered describe with no tables")
        return tables
    raise DchubError("DC Hub's engine stopped twice")


def engine_request(method: str, params: dict[str, Any]) -> Any:
    """A request outside any session (charts), starting the engine again once if it stopped."""
    for attempt in (1, 2):
        try:
            return ENGINE.request(method, params, retry=attempt == 1)
        except RestartNeeded:
            continue
    raise DchubError("DC Hub's engine stopped twice")
