"""DC Hub for JupyterLab and notebooks.

* ``from dchub_jupyterlab import Client``: the Python API (DataFrames, the CLI's cache and
  allowance).
* The prebuilt JupyterLab extension (the DC Hub panel) and a keyed relay server extension.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jupyter_server.serverapp import ServerApp

    # What a type checker and an IDE see of the lazily imported API: its names, typed (the error
    # classes from their module: a checker does not follow `__all__ += errors.__all__`).
    from .api import *  # noqa: F403
    from .api.errors import *  # noqa: F403

try:
    from ._version import __version__
except ImportError:  # not built through hatch (e.g. a bare source checkout)
    __version__ = "0.0.0+unknown"


def _jupyter_labextension_paths() -> list[dict[str, str]]:
    """Where JupyterLab finds the prebuilt extension inside this package."""
    return [{"src": "labextension", "dest": "@dchub/jupyterlab"}]


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    """The server extension: the DC Hub relay (``dchub/proxy/...``, ``dchub/config``)."""
    return [{"module": "dchub_jupyterlab"}]


def _load_jupyter_server_extension(server_app: ServerApp) -> None:
    """Registers the relay handlers on the running Jupyter server."""
    from .handlers import setup_handlers

    setup_handlers(server_app.web_app)
    server_app.log.info(
        "DC Hub relay enabled at %sdchub/proxy/", server_app.web_app.settings.get("base_url", "/")
    )


# Older notebook-server spelling, kept so `jupyter server extension list` finds it either way.
load_jupyter_server_extension = _load_jupyter_server_extension


def _api() -> Any:
    # import_module, not `from . import api`, which asks this module's __getattr__ for `api`.
    return importlib.import_module(f"{__name__}.api")


def __getattr__(name: str) -> Any:
    # The API (pandas, the engine) is imported on first use: the server extension stays light. Its
    # names are the API package's own (`api.__all__`), listed once there.
    if not name.startswith("_") and name != "api":
        api = _api()
        if name in api.__all__:
            return getattr(api, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_api().__all__))
