"""The DC Hub relay: the Jupyter server answers the panel through core.

So the browser never holds the key, and the panel, the kernels and the ``dchub`` CLI share one
cache and one allowance.

Routes (under the server's ``base_url``), each behind Jupyter's authentication:

* ``GET dchub/config``: ``{"proxy": true, "has_key": bool, "base_url": str, "engine": true}``.
* ``GET dchub/quota``: the relay's daily ledger (calls left today; no call spent; behind a team
  gateway, the token's share and the team's allowance it stated).
* ``GET|POST dchub/proxy/<path>``: handed to core's relay (one engine per server, the server's
  ``DCHUB_API_KEY``, ``DCHUB_BASE_URL`` and cache directory). Core answers from the shared cache,
  derives narrower queue questions from wide answers, keeps the ledger, adds the key only for the
  service, and relays only ``api/...``, ``mcp`` and ``openapi.json``.
"""

from __future__ import annotations

import json
import threading
from typing import Any

import tornado.web
from jupyter_server.base.handlers import APIHandler
from jupyter_server.utils import url_path_join
from tornado.ioloop import IOLoop

from dchub.api.core_types import QUOTA_KEYS
from dchub.api.errors import DchubError
from dchub.api.session import SessionRef

#: Request headers handed on (an MCP exchange needs its own); cookies and Jupyter's never are.
_FORWARD_REQUEST_HEADERS = (
    "Accept",
    "Content-Type",
    "If-None-Match",
    "Mcp-Session-Id",
    "Mcp-Protocol-Version",
    "Last-Event-ID",
)


class _Relay:
    """The server's one caller session in the engine, opened on first use.

    Its base URL, key and cache directory come from the server's environment, else the key
    ``dchub login`` stored.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._session: SessionRef | None = None

    def session(self) -> SessionRef:
        """The session, opened if it is not yet (a key core refuses raises, naming the fault)."""
        with self._lock:
            if self._session is None:
                self._session = SessionRef({})
            return self._session


RELAY = _Relay()


class ConfigHandler(APIHandler):
    """Tells the frontend the relay exists and whether the server holds a key."""

    @tornado.web.authenticated
    def get(self) -> None:
        """The relay's configuration (never the key); a key core refuses is said, not shown."""
        self.set_header("Cache-Control", "no-store")
        try:
            facts = RELAY.session().facts
            config = {"has_key": bool(facts.get("has_key")), "base_url": facts.get("base_url", "")}
        except DchubError as err:
            config = {"has_key": False, "base_url": "", "key_error": str(err)}
        self.finish(json.dumps({"proxy": True, "engine": True, **config}))


class QuotaHandler(APIHandler):
    """The relay's daily ledger: calls left today for the server's key (no call spent)."""

    @tornado.web.authenticated
    async def get(self) -> None:
        """The ledger's state as JSON, or 502 naming what failed in the engine."""
        self.set_header("Cache-Control", "no-store")
        try:
            q = await IOLoop.current().run_in_executor(None, RELAY.session().call, "quota", {})
        except DchubError as err:
            self.set_status(502)
            self.finish(json.dumps({"error": "engine", "message": str(err)}))
            return
        # The ledger's day, and behind a team gateway what it stated and core's line for it (the
        # panel shows the line as is): the quota's keys as core states them.
        self.finish(json.dumps({k: q.get(k) for k in QUOTA_KEYS}))


class ProxyHandler(APIHandler):
    """Hands GET and POST requests to core's relay.

    An API handler: unauthenticated requests get 403 (not a login redirect), and each call counts
    as API activity for idle culling.
    """

    @tornado.web.authenticated
    async def get(self, path: str) -> None:
        """Relays a GET (the panel's data calls)."""
        await self._relay("GET")

    @tornado.web.authenticated
    async def post(self, path: str) -> None:
        """Relays a POST (ranking, MCP)."""
        await self._relay("POST")

    def _upstream_path(self) -> str:
        # The raw (still percent-encoded) path, not tornado's decoded argument: core checks exactly
        # what it sends.
        prefix = url_path_join(self.base_url, "dchub/proxy/")
        raw = self.request.path
        return raw[len(prefix) :] if raw.startswith(prefix) else ""

    async def _relay(self, method: str) -> None:
        headers = {
            name.lower(): self.request.headers[name]
            for name in _FORWARD_REQUEST_HEADERS
            if name in self.request.headers
        }
        params: dict[str, Any] = {
            "method": method,
            "path": self._upstream_path(),
            "query": self.request.query,
            "headers": headers,
        }
        if method == "POST":
            params["body"] = self.request.body.decode("utf-8", "replace")
        try:
            answer = await IOLoop.current().run_in_executor(
                None, RELAY.session().call, "relay", params
            )
        except DchubError as err:
            self.log.warning("DC Hub relay: %s %s failed: %s", method, params["path"], err)
            self.set_status(502)
            self.set_header("Cache-Control", "no-store")
            self.finish(json.dumps({"error": "engine", "message": str(err)}))
            return
        self.set_status(int(answer["status"]))
        for name, value in (answer.get("headers") or {}).items():
            self.set_header(name, value)
        self.set_header("Cache-Control", "no-store")
        body = answer.get("body") or ""
        self.finish(body.encode("utf-8"))


def setup_handlers(web_app: Any) -> None:
    """Adds the relay routes under the server's base URL."""
    base_url = web_app.settings.get("base_url", "/")
    web_app.add_handlers(
        ".*$",
        [
            (url_path_join(base_url, "dchub/config"), ConfigHandler),
            (url_path_join(base_url, "dchub/quota"), QuotaHandler),
            (url_path_join(base_url, "dchub/proxy/(.*)"), ProxyHandler),
        ],
    )
