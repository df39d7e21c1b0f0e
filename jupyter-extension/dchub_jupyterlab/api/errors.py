"""Typed errors of the Python API, one for each of core's (core/src/errors.ts).

They are raised from the engine's answers one-to-one (:func:`error_from_engine`). Every failure is
a :class:`DchubError` carrying the service's own words where it gave any. A bad argument is a
:class:`ValidationError`, which is also a :class:`ValueError` and names the parameter
(``err.param``); it is raised before any request is sent. Messages never contain the API key:
core redacts it from anything the service echoes.
"""

from __future__ import annotations

from typing import Any

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
    "error_from_engine",
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

    kind = "validation"

    def __init__(self, param: str, message: str, *, status: int | None = None, body: Any = None):
        super().__init__(f"{param}: {message}", status=status, body=body)
        self.param = param


class AuthError(DchubError):
    """401 (missing or unknown key), 402 (paid preview) or 403 (plan required)."""

    kind = "auth"

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

    kind = "not_found"

    def __init__(self, message: str, *, body: Any = None):
        super().__init__(message, status=404, body=body)


class RateLimitError(DchubError):
    """429: ``retry_after_seconds`` (Retry-After or the body), ``reset_at`` if the service said."""

    kind = "rate_limit"

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

    kind = "server"


class NetworkError(DchubError):
    """The service could not be reached, or the connection dropped; ``timeout`` says which."""

    kind = "network"

    def __init__(self, message: str, *, timeout: bool = False):
        super().__init__(message)
        self.timeout = timeout


class SchemaDriftError(DchubError):
    """The answer cannot serve the call at all; ``path`` says where it went wrong."""

    kind = "schema_drift"

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


def _typed(message: str, code: Any, data: dict[str, Any]) -> DchubError:
    t, status, body = data.get("type"), data.get("status"), data.get("body")
    if t == "ValidationError":
        param = str(data.get("param") or "request")
        words = message[len(param) + 2 :] if message.startswith(f"{param}: ") else message
        return ValidationError(param, words, status=status, body=body)
    if t == "GatedPreviewError":
        return GatedPreviewError(
            message,
            status=status or 402,
            body=body,
            preview=data.get("preview"),
            hidden_count=data.get("hidden_count"),
            unlock_url=data.get("unlock_url"),
        )
    if t == "AuthError":
        return AuthError(
            message,
            status=status or 403,
            body=body,
            auth_instructions=data.get("auth_instructions"),
            required_plan=data.get("required_plan"),
            current_plan=data.get("current_plan"),
            upgrade_url=data.get("upgrade_url"),
        )
    if t == "NotFoundError":
        return NotFoundError(message, body=body)
    if t == "QuotaSpentError":
        return QuotaSpentError(
            int(data.get("limit") or 0), str(data.get("reset_at") or ""), message
        )
    if t == "RateLimitError":
        return RateLimitError(
            message,
            status=status,
            body=body,
            retry_after_seconds=data.get("retry_after_seconds"),
            reset_at=data.get("reset_at"),
        )
    if t == "ServerError":
        return ServerError(message, status=status, body=body)
    if t == "NetworkError":
        return NetworkError(message, timeout=bool(data.get("timeout")))
    if t == "SchemaDriftError":
        return SchemaDriftError(str(data.get("path") or ""), message, body=body, exact=True)
    if code == -32603:
        return DchubError(f"DC Hub's engine failed: {message}")
    return DchubError(message, status=status, body=body)
