"""DC Hub for JupyterLab: the panel (a prebuilt labextension) and the relay (a server extension).

The Python API is the ``dchub`` package, which this one depends on; its names are re-exported
here, so ``from dchub_jupyterlab import Client, charts`` keeps working.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jupyter_server.serverapp import ServerApp

    # What a type checker sees of the re-exported API (the error classes from their module).
    from dchub import charts as charts
    from dchub.api import *  # noqa: F403
    from dchub.api.errors import *  # noqa: F403

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


def __getattr__(name: str) -> Any:
    # The API's names, from `dchub` on first use (pandas and the engine stay out of the server's
    # start until the relay is called).
    if not name.startswith("_"):
        dchub = importlib.import_module("dchub")
        if name == "charts" or name in dchub._api().__all__:
            return getattr(dchub, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(importlib.import_module("dchub").__dir__()))
