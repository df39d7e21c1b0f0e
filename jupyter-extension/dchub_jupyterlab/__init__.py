"""DC Hub panel for JupyterLab: prebuilt frontend extension plus a keyed relay server extension."""

try:
    from ._version import __version__
except ImportError:  # not built through hatch (e.g. a bare source checkout)
    __version__ = "0.0.0+unknown"


def _jupyter_labextension_paths():
    """Where JupyterLab finds the prebuilt extension inside this package."""
    return [{"src": "labextension", "dest": "@dchub/jupyterlab"}]


def _jupyter_server_extension_points():
    """The server extension: the DC Hub relay (`<base_url>/dchub/proxy/...`, `<base_url>/dchub/config`)."""
    return [{"module": "dchub_jupyterlab"}]


def _load_jupyter_server_extension(server_app):
    """Registers the relay handlers on the running Jupyter server."""
    from .handlers import setup_handlers

    setup_handlers(server_app.web_app)
    server_app.log.info("DC Hub relay enabled at %sdchub/proxy/", server_app.web_app.settings.get("base_url", "/"))


# Older notebook-server spelling, kept so `jupyter server extension list` finds it either way.
load_jupyter_server_extension = _load_jupyter_server_extension
