"""Reading answers tolerantly: the record lists, citations and brief rows of the service's shapes.

The real service's envelopes vary (``{success, data}``, ``{results}``, a bare list); these helpers
take whichever is there and keep what can be read (see real-service notes §1).
"""

from __future__ import annotations

import json
import os
from typing import Any

import pandas as pd

from .errors import ValidationError

DEFAULT_CITATION = "DC Hub, dchub.cloud, CC-BY-4.0"


def cite(body: Any, fallback: str | None = DEFAULT_CITATION) -> str | None:
    if not isinstance(body, dict):
        return fallback
    c = body.get("citation")
    prov = body.get("provenance")
    return (body.get("_cite") or (c.get("cite_as") if isinstance(c, dict) else c if isinstance(c, str) else None)
            or (prov.get("cite_as") if isinstance(prov, dict) else None) or fallback)


def records_of(body: Any, *keys: str) -> list[dict[str, Any]]:
    """The first list of records under ``keys`` (the real service's envelopes vary), dicts only."""
    if isinstance(body, list):
        return [r for r in body if isinstance(r, dict)]
    if isinstance(body, dict):
        for k in (*keys, "results", "data", "items"):
            v = body.get(k)
            if isinstance(v, list):
                return [r for r in v if isinstance(r, dict)]
            if isinstance(v, dict) and isinstance(v.get(k), list):
                return [r for r in v[k] if isinstance(r, dict)]
    return []


def brief_row(b: dict[str, Any]) -> dict[str, Any] | None:
    """A brief (JSON) as a row of the brief CSV; None when it has no ``hero`` (failed to build)."""
    hero = b.get("hero")
    if not isinstance(hero, dict):
        return None
    k = b.get("kpis") if isinstance(b.get("kpis"), dict) else {}
    top = k.get("top_operator")
    outlook = b.get("outlook") if isinstance(b.get("outlook"), dict) else {}
    live = b.get("live_as_of") if isinstance(b.get("live_as_of"), dict) else {}
    qw = hero.get("queue_wait_months")
    return {
        "market_slug": b.get("slug") or hero.get("slug"), "market_name": hero.get("name"), "verdict": hero.get("verdict"),
        "composite_score": hero.get("composite_score"), "excess_power": hero.get("excess_power"),
        "constraint_score": hero.get("constraint_score"), "queue_wait_months": qw if qw is not None else k.get("queue_months"),
        "iso": hero.get("iso"), "state": hero.get("state"), "operational_mw": k.get("operational_mw"),
        "pipeline_mw": k.get("pipeline_mw"), "facility_count": k.get("facility_count"), "vacancy_pct": k.get("vacancy_pct"),
        "lease_rate": k.get("lease_rate"), "top_operator": top.get("name") if isinstance(top, dict) else top,
        "outlook_word_count": outlook.get("word_count"), "live_as_of": live.get("iso"), "computed_at": hero.get("computed_at"),
    }


def page_limit(tier: str | None) -> int:
    return 500 if (tier or "").strip().lower() in ("pro", "enterprise", "founding") else 50


def isna(v: Any) -> bool:
    try:
        return v is None or bool(pd.isna(v))
    except (TypeError, ValueError):
        return False


def plain(v: Any) -> Any:
    """numpy/pandas scalars as plain Python values (JSON and the cache key need them)."""
    if isna(v):
        return None
    if isinstance(v, pd.Timestamp):
        return v.isoformat()
    item = getattr(v, "item", None)
    return item() if callable(item) and not isinstance(v, (str, bytes)) else v


def read_geometry(g: Any) -> Any:
    if isinstance(g, (str, os.PathLike)):
        s = os.fspath(g)
        if not s.lstrip().startswith("{") and os.path.exists(s):
            with open(s, encoding="utf-8") as f:
                s = f.read()
        try:
            g = json.loads(s)
        except ValueError:
            raise ValidationError("geometry", "is neither GeoJSON text nor a readable GeoJSON file") from None
    if isinstance(g, dict) and g.get("type") == "FeatureCollection":
        feats = g.get("features") or []
        g = feats[0] if feats else None
    if isinstance(g, dict) and g.get("type") == "Feature":
        g = g.get("geometry")
    return g
