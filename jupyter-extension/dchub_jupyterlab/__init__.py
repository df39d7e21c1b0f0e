"""DC Hub panel for JupyterLab (prebuilt frontend extension)."""

try:
    from ._version import __version__
except ImportError:  # not built through hatch (e.g. a bare source checkout)
    __version__ = "0.0.0+unknown"


def _jupyter_labextension_paths():
    """Where JupyterLab finds the prebuilt extension inside this package."""
    return [{"src": "labextension", "dest": "@dchub/jupyterlab"}]
