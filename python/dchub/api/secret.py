"""An API key wrapped before it travels: no repr, traceback's locals or ``vars()`` shows it.

The key is revealed in one place only, the engine's encoding of a request line, into bytes that no
frame keeps (see ``engine.encode_request``).
"""

from __future__ import annotations


class Secret:
    """An API key that never shows in a repr, a traceback's locals or ``vars()``."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        """The key itself, to send it to the engine."""
        return self._value

    def __repr__(self) -> str:
        return "Secret(***)"

    __str__ = __repr__

    def __reduce__(self) -> tuple[type[Secret], tuple[str]]:
        raise TypeError("an API key is not picklable")


def wrapped(key: object) -> Secret | None:
    """A key as given (text or already wrapped) as a Secret; None when there is none."""
    if isinstance(key, Secret):
        return key
    return Secret(key) if isinstance(key, str) else None
