"""How the MCP server's tool answers are read, as core reads them (core/src/mcp-answers.ts): JSON text
(possibly followed by a Markdown upsell tail), plan walls written for a human (an AuthError in one
line, never a table of the wall's fields), and partial list previews ("3 of 10") marked partial."""

from __future__ import annotations

import json
import re
from typing import Any

from .errors import AuthError

_WALL_CODES = re.compile(r"^(pro_required|plan_required|plan_upgrade_required|upgrade_required)$")


def _str(v: Any) -> str | None:
    return v.strip() if isinstance(v, str) and v.strip() else None


def one_line(text: str, limit: int = 300) -> str:
    """Core's ``oneLine``: markup and entities out, whitespace folded, cut at ``limit``."""
    s = re.sub(r"<(script|style)[\s\S]*?</\1>", " ", text, flags=re.I)
    s = re.sub(r"<[^>]*>", " ", s).replace("&nbsp;", " ").replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    s = re.sub(r"\s+", " ", s).strip()
    return s if len(s) <= limit else s[: limit - 1] + "…"


def parse_tool_text(text: str) -> Any:
    """The JSON of a tool's text, also when a Markdown tail follows it; else the text itself."""
    t = text.strip()
    try:
        return json.loads(t)
    except ValueError:
        pass
    if t[:1] in ("{", "["):
        close = "}" if t[0] == "{" else "]"
        end, tries = t.rfind(close), 0
        while end > 0 and tries < 25:
            try:
                return json.loads(t[: end + 1])
            except ValueError:
                end, tries = t.rfind(close, 0, end), tries + 1
    return text


def _plan(tier: str) -> str:
    t = tier.strip().lower()
    return "a free API key" if t in ("identified", "free") else f"the {t.capitalize()} plan"


def tool_wall(tool: str, data: Any, is_error: bool) -> AuthError | None:
    """A plan wall (``pro_required``, ``_wall``, a human-only message) as the AuthError a caller meets."""
    if isinstance(data, dict):
        human = data.get("for_your_human") if isinstance(data.get("for_your_human"), dict) else {}
        wall = data.get("_wall") is True or bool(_WALL_CODES.match(_str(data.get("error")) or "")) or (is_error and _str(human.get("message")))
        if not wall:
            return None
        said = next((m for m in (_str(data.get("user_message")), _str(human.get("message")), _str(data.get("message")),
                                 _str(data.get("human_message"))) if m), None)
        needs = _str(data.get("required_plan")) or _str(data.get("_required_tier"))
        current = _str(data.get("current_plan"))
        url = _str(human.get("url")) or _str(data.get("upgrade_url")) or _str(data.get("pricing_url"))
        head = one_line(said, 200) if said else f"{tool} needs {_plan(needs) if needs else 'a higher plan'}"
        facts = [f"your plan: {current}" if current else None,
                 f"needs: {_plan(needs).removeprefix('the ')}" if needs and said and needs.lower() not in head.lower() else None]
        facts = [f for f in facts if f]
        tail = f"; upgrade: {url}" if url and url not in head else ""
        message = f"{head.rstrip('. ')}{' (' + ', '.join(facts) + ')' if facts else ''}{tail}" if facts or tail else head
        return AuthError(f"{tool}: {message}", status=403, body=data)
    if isinstance(data, str) and (re.search(r"\bpro_required\b", data) or
                                  (is_error and re.search(r"\b(requires|needs) (a |the )?(pro|developer|paid)\b.*plan", data, re.I))):
        return AuthError(f"{tool}: {one_line(data)}", status=403)
    return None


def tool_partial(data: Any) -> dict[str, Any] | None:
    """A list the server cut for this caller (notes §3.1: ``preview_is_partial``, ``trial_preview``,
    ``_<list>_total_in_pro``, ``continuation.gated``, or the older ``_gated`` set) as the preview
    ``attrs`` the API uses, with ``partial: True``; None when the answer is complete."""
    if not isinstance(data, dict):
        return None
    cont = data["continuation"].get("gated") if isinstance(data.get("continuation"), dict) else None
    cont = cont if isinstance(cont, dict) else {}
    totals = [(k, v) for k, v in data.items() if re.match(r"^_.+_total_(in_pro|with_key)$", k) and isinstance(v, (int, float))]
    field = (_str(data.get("_results_field")) or _str(cont.get("records_field"))
             or next((re.sub(r"^_(.+)_total_(in_pro|with_key)$", r"\1", k) for k, _ in totals
                      if isinstance(data.get(re.sub(r"^_(.+)_total_(in_pro|with_key)$", r"\1", k)), list)), None)
             or next((k for k, v in data.items() if isinstance(v, list) and all(isinstance(x, dict) for x in v)), None))
    rows = data.get(field) if field and isinstance(data.get(field), list) else None
    partial = data.get("preview_is_partial") is True or data.get("trial_preview") is True or bool(totals) or bool(cont)
    if not partial and data.get("_gated") is not True:
        return None
    shown = cont.get("records_shown") if isinstance(cont.get("records_shown"), int) else (len(rows) if rows is not None else None)
    total = next((v for k, v in totals if field and k.startswith(f"_{field}_")), None)
    if total is None and isinstance(cont.get("records_available"), int):
        total = cont["records_available"]
    if total is None and isinstance(data.get("_results_withheld"), int) and shown is not None:
        total = shown + data["_results_withheld"]
    if total is None:
        total = data.get("_total_available")
    human = data.get("for_your_human") if isinstance(data.get("for_your_human"), dict) else {}
    locked = [re.sub(r"^_(.+)_in_pro$", r"\1", k) for k, v in data.items() if re.match(r"^_.+_in_pro$", k) and v is True]
    locked += [f for f in (cont.get("fields_unlocked") or []) if isinstance(f, str)]
    locked += [f for f in (data.get("_locked_fields") or []) if isinstance(f, str)]
    return {"gated": True, "partial": True, "shown": shown, "total_available": total,
            "hidden_count": total - shown if isinstance(total, int) and isinstance(shown, int) and total > shown else None,
            "required_tier": _str(data.get("_required_tier")), "locked_fields": sorted(set(locked)), "params_not_applied": [],
            "upgrade": _str(human.get("message")) or _str(data.get("user_message")) or _str(human.get("url"))
            or _str(data.get("upgrade_url")) or _str(data.get("_upgrade_cta"))}
