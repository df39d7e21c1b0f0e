"""Typed errors of the Python API, one for each of core's (core/src/errors.ts).

Every failure is a :class:`DchubError` carrying the service's own words where it gave any. A bad
argument is a :class:`ValidationError`, which is also a :class:`ValueError` and names the
parameter (``err.param``); it is raised before any request is sent. Messages never contain the
API key: the client redacts it from anything the service echoes.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

__all__ = [
    "DchubError", "ValidationError", "AuthError", "GatedPreviewError", "NotFoundError", "RateLimitError",
    "QuotaSpentError", "ServerError", "NetworkError", "SchemaDriftError", "GatedPreviewWarning",
    "AssumedAllowanceWarning", "StaleAnswerWarning", "error_from_response",
]


class DchubError(Exception):
    """Base of every DC Hub failure: ``kind``, HTTP ``status`` (when the service answered), ``body``."""

    kind = "error"

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

    def __init__(self, message: str, *, status: int, body: Any = None, auth_instructions: str | None = None,
                 required_plan: str | None = None):
        super().__init__(message, status=status, body=body)
        self.auth_instructions = auth_instructions
        self.required_plan = required_plan


class GatedPreviewError(AuthError):
    """A 402 paid preview instead of the data: what was shown, how much is hidden, how to unlock."""

    def __init__(self, message: str, *, status: int, body: Any = None, preview: Any = None,
                 hidden_count: int | None = None, unlock_url: str | None = None):
        super().__init__(message, status=status, body=body, auth_instructions=unlock_url)
        self.preview = preview
        self.hidden_count = hidden_count
        self.unlock_url = unlock_url


class NotFoundError(DchubError):
    kind = "not_found"

    def __init__(self, message: str, *, body: Any = None):
        super().__init__(message, status=404, body=body)


class RateLimitError(DchubError):
    """429: ``retry_after_seconds`` (Retry-After or the body) and ``reset_at`` when the service said."""

    kind = "rate_limit"

    def __init__(self, message: str, *, status: int | None = 429, body: Any = None,
                 retry_after_seconds: float | None = None, reset_at: str | None = None):
        super().__init__(message, status=status, body=body)
        self.retry_after_seconds = retry_after_seconds
        self.reset_at = reset_at


class QuotaSpentError(RateLimitError):
    """Today's allowance is spent (confirmed by the service): no request was sent."""

    def __init__(self, limit: int, reset_at: str):
        super().__init__(f"daily allowance of {limit} calls is spent; it resets at {reset_at}", status=None, reset_at=reset_at)
        self.limit = limit


class ServerError(DchubError):
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

    def __init__(self, path: str, message: str, *, body: Any = None):
        super().__init__(f"response did not match at {path or '(root)'}: {message}", body=body)
        self.path = path


class GatedPreviewWarning(UserWarning):
    """A 200 gated preview: the data came, but part of it is withheld (see ``df.attrs['preview']``)."""


class AssumedAllowanceWarning(UserWarning):
    """The daily allowance is only assumed (the service has not confirmed the key's tier) and is exceeded."""


class StaleAnswerWarning(UserWarning):
    """The service failed or the allowance is spent: the last cached answer was served, with its age."""


def _text(v: Any) -> str | None:
    return v if isinstance(v, str) and v.strip() else None


def _one_line(s: str, limit: int = 200) -> str:
    s = re.sub(r"\s+", " ", s).strip()
    return s if len(s) <= limit else s[: limit - 1] + "…"


def error_from_response(status: int, body: Any, headers: Mapping[str, str] | None = None) -> DchubError:
    """Maps an HTTP status and its (possibly JSON) body to the matching typed error."""
    b: dict[str, Any] = body if isinstance(body, dict) else {}
    if isinstance(body, str) and re.search(r"<\s*(!doctype|html|head|body)\b", body[:500], re.I):
        return ServerError(
            f"HTTP {status}: the service's gateway answered an HTML error page; try again in a minute", status=status, body=None
        )
    words = _text(b.get("message")) or _text(b.get("error")) or _text(b.get("human_message"))
    if words is None and isinstance(body, str) and body.strip():
        words = _one_line(body)
    reason = words or f"HTTP {status}"
    if status in (400, 413, 422):
        err = _text(b.get("error"))
        param = _text(b.get("param"))
        if param is None and err:
            m = re.match(r"^([a-z_][a-z0-9_.]*):", err, re.I)
            param = m.group(1) if m else None
        param = param or "request"
        msg = re.sub(rf"^{re.escape(param)}:\s*", "", err or reason)
        return ValidationError(param, msg, status=status, body=body)
    if status == 402 and (b.get("status") == "paid_preview" or "preview" in b or b.get("_gated") is True):
        action = b.get("agent_action") if isinstance(b.get("agent_action"), dict) else {}
        unlock = _text(b.get("upgrade_url")) or _text(b.get("_signup_url")) or _text(action.get("url"))
        hidden = b.get("_hidden_count")
        return GatedPreviewError(
            f"{reason}{f' (unlock: {unlock})' if unlock else ''}",
            status=status, body=body,
            preview=b.get("preview_data", b.get("data", b.get("preview"))),
            hidden_count=hidden if isinstance(hidden, int) else None,
            unlock_url=unlock,
        )
    if status in (401, 402, 403):
        return AuthError(
            reason, status=status, body=body,
            auth_instructions=_text(b.get("auth_instructions")) or _text(b.get("get_key_url")) or _text(b.get("signup_url")),
            required_plan=_text(b.get("required_plan")) or _text(b.get("_required_tier")),
        )
    if status == 404:
        return NotFoundError(reason, body=body)
    if status == 429:
        retry = None
        header = (headers or {}).get("retry-after")
        for candidate in (header, b.get("retry_after"), b.get("retry_after_seconds")):
            try:
                retry = float(candidate)  # type: ignore[arg-type]
                break
            except (TypeError, ValueError):
                continue
        return RateLimitError(reason, status=status, body=body, retry_after_seconds=retry, reset_at=_text(b.get("resets_at")))
    return ServerError(reason, status=status, body=body)
