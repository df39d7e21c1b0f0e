"""The Python API of DC Hub (``from dchub_jupyterlab import Client``); see :mod:`.client`."""

from . import errors
from .client import Client
from .errors import *  # noqa: F403 (its __all__: the error and warning classes)
from .session import describe


def default_cache_dir() -> str:
    """The directory of cached answers and the daily ledger when none is given.

    The platform's user cache directory (core's rule, the one the ``dchub`` CLI follows).
    """
    return str(describe()["default_cache_dir"])


__all__ = ["Client", "default_cache_dir", "describe"]
__all__ += errors.__all__
