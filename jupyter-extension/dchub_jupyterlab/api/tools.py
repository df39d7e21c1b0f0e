"""The 29 MCP tools through the official ``mcp`` SDK, with core's cache key and MCP allowance.

Each call opens a streamable-HTTP session to ``<base_url>/mcp`` (the key sent there only; the SDK
follows redirects within that origin only), is reserved against the caller's MCP allowance
(``dchub:quota:<caller>:mcp``, apart from the REST one) and cached for an hour under core's key
(``dchub:c:<caller>:MCP <service> <tool>#<sorted args>``), so the CLI's ``dchub tool`` shares both.
The SDK is asynchronous; calls run on a private event loop in a worker thread, so they also work
inside a notebook, whose own loop is already running.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import warnings
from typing import Any

from .errors import AssumedAllowanceWarning, AuthError, NetworkError, QuotaSpentError, StaleAnswerWarning, ValidationError
from .jsfmt import format_age, js_json
from .ledger import MCP_DAILY_ALLOWANCE, QuotaLedger
from .store import StoredAnswer, cache_key
from .tool_answers import parse_tool_text

MCP_TOOL_NAMES = (
    "search_facilities", "get_facility", "list_transactions", "get_market_intel", "get_news", "analyze_site",
    "compare_sites", "get_intelligence_index", "get_pipeline", "get_grid_data", "get_grid_intelligence",
    "get_energy_prices", "get_renewable_energy", "get_tax_incentives", "get_water_risk", "get_infrastructure",
    "get_fiber_intel", "get_backup_status", "get_agent_registry", "semantic_search", "get_dchub_recommendation",
    "get_market_dcpi_rank", "compare_isos", "get_interconnection_queue", "rank_markets", "find_alternatives",
    "score_facility", "ai_capacity_index", "hyperscaler_deals",
)
TOOL_LIFETIME_MS = 3_600_000

_pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="dchub-mcp")


async def _call(url: str, headers: dict[str, str], name: str, args: dict[str, Any], timeout: float) -> dict[str, Any]:
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client
    try:
        from mcp.shared._httpx_utils import create_mcp_http_client
    except ImportError:  # pragma: no cover - other SDK layouts
        create_mcp_http_client = None  # type: ignore[assignment]

    http = create_mcp_http_client(headers=headers) if create_mcp_http_client else None
    async with http if http is not None else _null():
        async with streamable_http_client(url, http_client=http) as streams:
            read, write = streams[0], streams[1]
            async with ClientSession(read, write) as session:
                await asyncio.wait_for(session.initialize(), timeout)
                res = await asyncio.wait_for(session.call_tool(name, args), timeout)
    parts = res.content or []
    text = "\n".join(getattr(p, "text", "") or "" for p in parts if getattr(p, "type", "") == "text")
    structured = getattr(res, "structured_content", getattr(res, "structuredContent", None))
    is_error = getattr(res, "is_error", getattr(res, "isError", False))
    data = structured if structured is not None else parse_tool_text(text)
    return {"tool": name, "data": data, "isError": bool(is_error), "text": text, "fromCache": False}


class _null:
    async def __aenter__(self):
        return None

    async def __aexit__(self, *exc):
        return False


def call_tool(session, name: str, args: dict[str, Any], *, timeout: float, refresh: bool = False) -> dict[str, Any]:
    """One tool call (cached, within the MCP allowance); the result dict core's ToolResult has."""
    if name not in MCP_TOOL_NAMES:
        raise ValidationError("name", f"unknown tool {js_json(name)}; one of {', '.join(MCP_TOOL_NAMES)}")
    key = cache_key(session.caller_id, session.base_url, "MCP", f"{name}#{js_json(sorted(([k, v] for k, v in args.items()), key=lambda kv: kv[0]))}")
    cache = session.cache
    now = session.now()
    hit = cache.load(key) if cache is not None else None
    hit_value = json.loads(hit.text) if hit is not None else None
    if hit is not None and not refresh and hit.expires_at > now:
        return {**hit_value, "fromCache": True}
    # Core's McpToolClient ledger (the CLI's `dchub tool`): the tier's MCP allowance, assumed.
    ledger = QuotaLedger(session.store, f"{session.caller_id}:mcp", tier="free" if session.api_key else "anonymous",
                         allowance=MCP_DAILY_ALLOWANCE, now=session.now)
    granted, allowance_warning = ledger.reserve()
    if allowance_warning:
        warnings.warn(f"DC Hub: MCP: {allowance_warning}", AssumedAllowanceWarning, stacklevel=3)

    def stale(why: str) -> dict[str, Any]:
        # Core's rule (McpToolClient): the last good answer, with its age and why, as a warning.
        line = f"served from the cache, {format_age(session.now() - hit.stored_at)} old: {why}"
        warnings.warn(f"DC Hub: MCP {name}: {line}", StaleAnswerWarning, stacklevel=4)
        return {**hit_value, "fromCache": True, "stale": True, "warnings": [line]}

    if not granted:
        snap = ledger.snapshot()
        if hit is not None:
            return stale(f"the daily MCP allowance of {snap['limit']} calls is spent")
        raise QuotaSpentError(snap["limit"], snap["resets_at"])
    headers = {"X-API-Key": session.api_key.reveal()} if session.api_key else {}
    try:
        result = _pool.submit(asyncio.run, _call(session.base_url + "mcp", headers, name, args, timeout)).result()
    except BaseException as err:  # the SDK wraps failures in exception groups
        ledger.release()
        message = session.http.scrub(NetworkError(f"MCP {name}: {_reason(err)}")).args[0]
        if "401" in message or "invalid_api_key" in message:
            raise AuthError(message, status=401) from None
        if "required" in message.lower() or "invalid" in message.lower():
            raise ValidationError("args", message) from None
        if hit is not None:
            return stale("the service could not be reached")
        raise NetworkError(message) from None
    if not result["isError"] and cache is not None:
        at = session.now()
        cache.save(key, StoredAnswer(js_json(result), at, at + TOOL_LIFETIME_MS))
    return result


def _reason(err: BaseException) -> str:
    inner = getattr(err, "exceptions", None)
    if inner:
        return _reason(inner[0])
    return f"{type(err).__name__}: {err}" if str(err) else type(err).__name__
