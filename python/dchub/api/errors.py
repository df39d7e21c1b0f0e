"""Typed errors of the Python API, one for each of core's (core/src/errors.ts).

They are raised from the engine's answers one-to-one (:func:`error_from_engine`): each class core
reports is the class of the same name here, its kind and fields as core's table says
(:data:`.core_types.ERROR_TYPES`, generated from core/src/engine/errors.ts). Every failure is
a :class:`DchubError` carrying the service's own words where it gave any. A bad argument is a
:class:`ValidationError`, which is also a :class:`ValueError` and names the parameter
(``err.param``); it is raised before any request is sent. Messages never contain the API key:
core redacts it from anything the service echoes.
"""

from __future__ import annotations

from typing import Any

from .core_types import ERROR_TYPES, RPC_CODES

__all__ = [
    "DchubError",
    "ValidationError",
    "AuthError",
    "GatedPreviewError",
    "NotFoundError",
    "RateLimitError",
    "QuotaSpentError",
    "ServerError",
    "NetworkError",
    "SchemaDriftError",
    "GatedPreviewWarning",
    "AssumedAllowanceWarning",
    "StaleAnswerWarning",
]


class DchubError(Exception):
    """Base of every DC Hub failure: ``kind``, HTTP ``status`` (if one came), ``body``.

    ``explanations``: what the service explained beyond the message (a hint, the valid names it
    suggests, where to get a key), one line each; the message ends with them, a line each.
    """

    kind = "error"
    explanations: list[str] = []
    # Set from the engine's answer: the requests the client had sent (a failed call counts), and
    # what the user should be warned of though the call failed.
    _sent: int | None = None
    _warnings: list[dict[str, Any]] | None = None

    def __init__(self, message: str, *, status: int | None = None, body: Any = None):
        super().__init__(message)
        self.status = status
        self.body = body

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"


class ValidationError(DchubError, ValueError):
    """A bad argument (checked before any call is spent), or a 400 from the service."""

    def __init__(self, param: str, message: str, *, status: int | None = None, body: Any = None):
        super().__init__(f"{param}: {message}", status=status, body=body)
        self.param = param


class AuthError(DchubError):
    """401 (missing or unknown key), 402 (paid preview) or 403 (plan required)."""

    def __init__(
        self,
        message: str,
        *,
        status: int,
        body: Any = None,
        auth_instructions: str | None = None,
        required_plan: str | None = None,
        current_plan: str | None = None,
        upgrade_url: str | None = None,
    ):
        super().__init__(message, status=status, body=body)
        self.auth_instructions = auth_instructions
        self.required_plan = required_plan
        self.current_plan = current_plan
        self.upgrade_url = upgrade_url


class GatedPreviewError(AuthError):
    """A 402 paid preview instead of the data: what was shown, how much is hidden, how to unlock."""

    def __init__(
        self,
        message: str,
        *,
        status: int,
        body: Any = None,
        preview: Any = None,
        hidden_count: int | None = None,
        unlock_url: str | None = None,
    ):
        super().__init__(message, status=status, body=body, auth_instructions=unlock_url)
        self.preview = preview
        self.hidden_count = hidden_count
        self.unlock_url = unlock_url


class NotFoundError(DchubError):
    """404: the service has no such resource (a market, a brief, a path)."""

    def __init__(self, message: str, *, body: Any = None):
        super().__init__(message, status=404, body=body)


class RateLimitError(DchubError):
    """429: ``retry_after_seconds`` (Retry-After or the body), ``reset_at`` if the service said."""

    def __init__(
        self,
        message: str,
        *,
        status: int | None = 429,
        body: Any = None,
        retry_after_seconds: float | None = None,
        reset_at: str | None = None,
    ):
        super().__init__(message, status=status, body=body)
        self.retry_after_seconds = retry_after_seconds
        self.reset_at = reset_at


class QuotaSpentError(RateLimitError):
    """Today's allowance is spent (confirmed by the service): no request was sent."""

    def __init__(self, limit: int, reset_at: str, message: str | None = None):
        super().__init__(
            message or f"daily allowance of {limit} calls is spent; it resets at {reset_at}",
            status=None,
            reset_at=reset_at,
        )
        self.limit = limit


class ServerError(DchubError):
    """5xx after the retries (GETs), or at once (POSTs); the service's words when it gave any."""


class NetworkError(DchubError):
    """The service could not be reached, or the connection dropped; ``timeout`` says which."""

    def __init__(self, message: str, *, timeout: bool = False):
        super().__init__(message)
        self.timeout = timeout


class SchemaDriftError(DchubError):
    """The answer cannot serve the call at all; ``path`` says where it went wrong."""

    def __init__(self, path: str, message: str, *, body: Any = None, exact: bool = False):
        super().__init__(
            message if exact else f"response did not match at {path or '(root)'}: {message}",
            body=body,
        )
        self.path = path


class GatedPreviewWarning(UserWarning):
    """A 200 gated preview: the data came, part of it withheld (see ``df.attrs['preview']``)."""


class AssumedAllowanceWarning(UserWarning):
    """The daily allowance, only assumed (the service has not stated the tier), is exceeded."""


class StaleAnswerWarning(UserWarning):
    """The service failed or the allowance is spent: the last cached answer, with its age."""


def error_from_engine(message: str, code: Any, data: dict[str, Any]) -> DchubError:
    """The error core reported (``data["type"]`` names the class), as the matching Python class.

    What the service explained beyond the message (``data["explanations"]``) follows it, a line
    each.
    """
    said = [str(x) for x in data.get("explanations") or [] if str(x).strip()]
    err = _typed("\n".join([message, *said]), code, data)
    err.explanations = said
    return err


#: This module's class of each class core reports: ERROR_TYPES names them, this module defines them.
_CLASSES: dict[str, type[DchubError]] = {name: globals()[name] for name in ERROR_TYPES}
for _name, _type in ERROR_TYPES.items():
    _CLASSES[_name].kind = _type.kind


def _typed(message: str, code: Any, data: dict[str, Any]) -> DchubError:
    """The class core named, with core's message, status, body and the fields its table lists."""
    name = str(data.get("type"))
    if name not in ERROR_TYPES:
        if code == RPC_CODES["internal"]:
            return DchubError(f"DC Hub's engine failed: {message}")
        return DchubError(message, status=data.get("status"), body=data.get("body"))
    err = DchubError.__new__(_CLASSES[name])
    DchubError.__init__(err, message, status=data.get("status"), body=data.get("body"))
    for field in ERROR_TYPES[name].fields:
        setattr(err, field, data.get(field))
    return err
