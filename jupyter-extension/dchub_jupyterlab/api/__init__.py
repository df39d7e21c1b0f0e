"""The Python API of DC Hub (``from dchub_jupyterlab import Client``); see :mod:`.client`."""

from .client import Client
from .errors import (AssumedAllowanceWarning, AuthError, DchubError, GatedPreviewError, GatedPreviewWarning,
                     NetworkError, NotFoundError, QuotaSpentError, RateLimitError, SchemaDriftError, ServerError,
                     StaleAnswerWarning, ValidationError)
from .session import default_cache_dir

__all__ = [
    "Client", "DchubError", "ValidationError", "AuthError", "GatedPreviewError", "NotFoundError", "RateLimitError",
    "QuotaSpentError", "ServerError", "NetworkError", "SchemaDriftError", "GatedPreviewWarning", "StaleAnswerWarning",
    "AssumedAllowanceWarning", "default_cache_dir",
]
