"""List/item pairs whose list rows carry the item's fields exactly (core/src/derive/pairs.ts)."""

from __future__ import annotations

from typing import Any

from .flow import ListItemPair

DCPI_SCORES_PATH = "/api/v1/dcpi/scores"
BRIEFS_ALL_PATH = "/api/v1/market-brief/all"

#: Members of a DCPI list row, the same as the single-market endpoint's (notes §2.5, §2.6: one stored row).
DCPI_LIST_FIELDS = ("market_slug", "market_name", "state", "iso", "latitude", "longitude", "constraint_score",
                    "excess_power_score", "time_to_power_months", "verdict", "top_risks_json", "top_opportunities_json",
                    "computed_at", "composite_score")
#: The paid numerics: masked in the list below a paid plan, and in the single answer below Developer.
DCPI_PAID_FIELDS = ("composite_score", "excess_power_score", "constraint_score", "time_to_power_months", "top_risks_json",
                    "top_opportunities_json")
_NUMERICS_FROM = {"developer", "pro", "founding", "enterprise", "research_seed", "admin", "internal"}

#: Sections of a brief in an /all page, the same as the single brief's for the same caller (notes §2.29).
BRIEF_LIST_SECTIONS = ("slug", "hero", "live_as_of", "kpis", "outlook", "power_grid", "pipeline", "operators", "ma", "comps",
                       "risk", "paywall")


def _num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _dcpi_rows(body: Any) -> list[dict[str, Any]] | None:
    """The rows of a scores list as core reads it (``DcpiScoreList``: scores, count, sort, filters)."""
    if not isinstance(body, dict) or not isinstance(body.get("scores"), list) or not _num(body.get("count")):
        return None
    if not isinstance(body.get("sort"), str) or not isinstance(body.get("filters"), dict):
        return None
    return [r for r in body["scores"] if isinstance(r, dict)]


def _brief_rows(body: Any) -> list[dict[str, Any]] | None:
    """The briefs of an /all page; one that failed to build on the service (``ok: false``) is left out."""
    if not isinstance(body, dict) or not isinstance(body.get("briefs"), list):
        return None
    return [b for b in body["briefs"] if isinstance(b, dict) and b.get("ok") is not False]


#: GET /api/v1/dcpi/scores answers ``dcpi(slug, fields=...)`` for the markets it holds. A paid numeric
#: shown in the list may still be null in the single answer below Developer: only a tier the service
#: stated at Developer or above takes them from the list.
DCPI_FROM_SCORES = ListItemPair(
    list_path=DCPI_SCORES_PATH,
    widen_query="",
    key_field="market_slug",
    rows=_dcpi_rows,
    may_carry=lambda field, tier: field in DCPI_LIST_FIELDS and (field not in DCPI_PAID_FIELDS or (tier is not None and tier in _NUMERICS_FROM)),
    withholds=lambda body, row, field: field in (body.get("_locked_fields") or []) or (row.get("locked") is True and field in DCPI_PAID_FIELDS),
)

#: A GET /api/v1/market-brief/all page answers ``brief(slug, fields=...)`` for the briefs it holds. A
#: section below the caller's tier is null or empty in both answers alike; null is never served.
BRIEF_FROM_ALL = ListItemPair(
    list_path=BRIEFS_ALL_PATH,
    widen_query="",
    key_field="slug",
    rows=_brief_rows,
    may_carry=lambda field, tier: field.split(".")[0] in BRIEF_LIST_SECTIONS,
    withholds=lambda body, row, field: "_locked_fields" in body,
)
