"""The Python API of DC Hub (``from dchub_jupyterlab import Client``); see :mod:`.client`."""

from .client import Client
from .errors import (
    AssumedAllowanceWarning,
    AuthError,
    DchubError,
    GatedPreviewError,
    GatedPreviewWarning,
    NetworkError,
    NotFoundError,
    QuotaSpentError,
    RateLimitError,
    SchemaDriftError,
    ServerError,
    StaleAnswerWarning,
    ValidationError,
)
from .session import describe


def default_cache_dir() -> str:
    """The directory of cached answers and the daily ledger when none is given.

    The platform's user cache directory (core's rule, the one the ``dchub`` CLI follows).
    """
    return str(describe()["default_cache_dir"])


__all__ = [
    "Client",
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
    "StaleAnswerWarning",
    "AssumedAllowanceWarning",
    "default_cache_dir",
    "describe",
]
