"""Jupyter server configuration for the Galata UI tests (never use in production)."""

from jupyterlab.galata import configure_jupyter_server

configure_jupyter_server(c)  # noqa: F821 (`c` is provided by the config loader)

# CI containers often run as root; the server refuses to start as root unless told.
c.ServerApp.allow_root = True  # noqa: F821
