"""The DC Hub relay: the Jupyter server adds the API key, so the browser never holds it.

Routes (under the server's ``base_url``):

* ``GET dchub/config``: ``{"proxy": true, "has_key": bool, "base_url": str}`` (never the key).
* ``GET|POST dchub/proxy/<path>``: relays to ``$DCHUB_BASE_URL/<path>`` (default
  https://dchub.cloud) with ``X-API-Key: $DCHUB_API_KEY`` when set. Only the API is reachable:
  ``api/...``, ``mcp`` and ``openapi.json``.

Both need an authenticated Jupyter session (``@tornado.web.authenticated``).
"""

from __future__ import annotations

import json
import os
import re
from urllib.parse import unquote

import tornado.web
from jupyter_server.base.handlers import APIHandler
from jupyter_server.utils import url_path_join
from tornado.httpclient import AsyncHTTPClient, HTTPRequest

DEFAULT_BASE_URL = "https://dchub.cloud"

#: Upstream paths the relay serves; anything else is refused with 404.
_ALLOWED_PATH = re.compile(r"^(?:api/[A-Za-z0-9._~!$&'()*+,;=:@%/-]+|mcp|openapi\.json)$")

#: Request headers passed on to the service. Cookies and Jupyter's Authorization never are.
_FORWARD_REQUEST_HEADERS = ("Accept", "Content-Type", "If-None-Match", "Mcp-Session-Id", "Mcp-Protocol-Version", "Last-Event-ID")

#: Response headers passed back to the browser (plus every X-RateLimit-* header).
_FORWARD_RESPONSE_HEADERS = (
    "Content-Type",
    "Content-Disposition",
    "ETag",
    "Retry-After",
    "Mcp-Session-Id",
    "X-Total-Available",
    "X-Market-Brief-Mode",
    "X-Market-Brief-Tier",
    "X-Canonical-Path",
)

_TIMEOUT_SECONDS = 60.0


def api_key() -> str | None:
    """The key from the server's environment (blank counts as none)."""
    key = os.environ.get("DCHUB_API_KEY", "").strip()
    return key or None


def service_base_url() -> str:
    """The service root from ``DCHUB_BASE_URL``, with exactly one trailing slash."""
    base = os.environ.get("DCHUB_BASE_URL", "").strip() or DEFAULT_BASE_URL
    return base.rstrip("/") + "/"


def is_allowed_path(path: str) -> bool:
    """Whether ``path`` (as sent, percent-encoded) names part of the API and cannot climb out of it."""
    if not _ALLOWED_PATH.match(path):
        return False
    decoded = unquote(path)
    segments = decoded.split("/")
    return not any(s in ("", ".", "..") for s in segments) and "\\" not in decoded and "?" not in decoded and "#" not in decoded


class ConfigHandler(APIHandler):
    """Tells the frontend the relay exists and whether the server holds a key."""

    @tornado.web.authenticated
    def get(self) -> None:
        self.set_header("Cache-Control", "no-store")
        self.finish(json.dumps({"proxy": True, "has_key": api_key() is not None, "base_url": service_base_url().rstrip("/")}))


class ProxyHandler(APIHandler):
    """Relays GET and POST requests to the DC Hub service, adding the server's key.

    An API handler: unauthenticated requests get 403 (not a login redirect), and each call
    counts as API activity for idle culling.
    """

    @tornado.web.authenticated
    async def get(self, path: str) -> None:
        await self._relay("GET")

    @tornado.web.authenticated
    async def post(self, path: str) -> None:
        await self._relay("POST")

    def _upstream_path(self) -> str:
        # The raw (still percent-encoded) path, not tornado's decoded argument, so what is checked
        # is exactly what is sent.
        prefix = url_path_join(self.base_url, "dchub/proxy/")
        raw = self.request.path
        return raw[len(prefix):] if raw.startswith(prefix) else ""

    def _refuse(self, status: int, error: str, message: str) -> None:
        self.set_status(status)
        self.set_header("Cache-Control", "no-store")
        self.finish(json.dumps({"error": error, "message": message}))

    async def _relay(self, method: str) -> None:
        path = self._upstream_path()
        if not is_allowed_path(path):
            self._refuse(404, "not_relayed", "the DC Hub relay serves api/..., mcp and openapi.json only")
            return
        url = service_base_url() + path
        if self.request.query:
            url += "?" + self.request.query

        headers = {name: self.request.headers[name] for name in _FORWARD_REQUEST_HEADERS if name in self.request.headers}
        key = api_key()
        if key:
            headers["X-API-Key"] = key
        body = self.request.body if method == "POST" else None
        request = HTTPRequest(
            url,
            method=method,
            headers=headers,
            body=body if body is not None else (b"" if method == "POST" else None),
            # Redirects are passed back, not followed: following would send the key to wherever
            # the redirect points.
            follow_redirects=False,
            request_timeout=_TIMEOUT_SECONDS,
            decompress_response=True,
        )
        try:
            response = await AsyncHTTPClient().fetch(request, raise_error=False)
        except Exception as err:  # connection refused, DNS, TLS, timeout
            self.log.warning("DC Hub relay: %s %s failed: %s", method, path, err)
            self._refuse(502, "upstream_unreachable", f"cannot reach the DC Hub service ({type(err).__name__})")
            return

        if response.code == 599:  # tornado's "no HTTP answer" (timeout, refused connection)
            self._refuse(502, "upstream_unreachable", f"cannot reach the DC Hub service ({response.reason or 'no answer'})")
            return

        self.set_status(response.code, response.reason)
        content_type = response.headers.get("Content-Type", "application/octet-stream")
        for name in _FORWARD_RESPONSE_HEADERS:
            value = response.headers.get(name)
            if value is not None:
                self.set_header(name, value)
        for name, value in response.headers.get_all():
            if name.lower().startswith("x-ratelimit-"):
                self.set_header(name, value)
        self.set_header("Cache-Control", "no-store")
        if response.code == 304:
            self.finish(set_content_type=content_type)
            return
        payload = response.body or b""
        if key and key.encode() in payload:
            # The service never echoes keys; if something upstream ever does, it stops here.
            payload = payload.replace(key.encode(), b"[redacted]")
        self.finish(payload, set_content_type=content_type)


def setup_handlers(web_app) -> None:
    """Adds the relay routes under the server's base URL."""
    base_url = web_app.settings.get("base_url", "/")
    web_app.add_handlers(
        ".*$",
        [
            (url_path_join(base_url, "dchub/config"), ConfigHandler),
            (url_path_join(base_url, "dchub/proxy/(.*)"), ProxyHandler),
        ],
    )
