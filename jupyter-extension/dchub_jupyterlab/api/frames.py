"""Answers as pandas objects: typed columns, blanks as NA (never 0), the citation in ``attrs``.

A column becomes numeric (``Float64``, or ``Int64`` for counts and ranks) when every value present is
a number or, in a column known to be numeric, a decimal string (``"7.23"``, as the real service
sometimes sends); timestamps become timezone-aware (UTC) when every value present parses; the
rest is ``string`` (``boolean`` for flags). Nothing is coerced that would lose a value: a column
holding a band such as ``"10–50 MW"`` stays text.
"""

from __future__ import annotations

import json
import numbers
import re
import warnings
from typing import Any, Iterable, Sequence

import pandas as pd

from .errors import GatedPreviewWarning
from .shapes import records_of

#: Columns whose values are numbers (decimal strings there are read as numbers).
NUMERIC = frozenset({
    "capacity_mw", "lat", "lng", "lon", "fiber_km", "estimated_ttp_months", "composite_score", "excess_power",
    "excess_power_score", "constraint_score", "queue_wait_months", "operational_mw", "pipeline_mw", "vacancy_pct",
    "lease_rate", "outlook_word_count", "time_to_power_months", "quality_score", "total_power_mw",
    "pipeline_mw_total", "avg_kwh_price_usd", "power_mw", "latitude", "longitude", "relevance_score", "value",
    "mw", "capacity", "investment", "percentage", "total_queue_gw", "large_load_queue_gw", "objective_score",
    "score", "facility_count", "operator_count", "total_installed_mw", "ai_ready_mw", "deployable_mw", "acres",
    "overall_score", "year", "rank", "id", "corridor_count", "model_replies", "api_call_count", "http_5xx_seen",
})
#: Numeric columns that hold whole numbers (nullable Int64).
INTEGER = frozenset({"rank", "id", "facility_count", "operator_count", "outlook_word_count", "year", "corridor_count",
                     "model_replies", "api_call_count", "http_5xx_seen"})
#: Columns that hold dates or times.
DATES = frozenset({"queue_date", "live_as_of", "computed_at", "as_of", "published_at", "date", "evaluated_at",
                   "timestamp", "discovered_at", "total_queue_gw_as_of", "generated_at", "last_updated"})

_NUMERIC_TEXT = re.compile(r"^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$")


def _blank(v: Any) -> bool:
    return v is None or (isinstance(v, str) and not v.strip()) or (isinstance(v, float) and v != v)


def _is_number(v: Any) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


def scalar(v: Any) -> Any:
    """A value a DataFrame cell holds: scalars as they are, lists of scalars joined, objects as JSON."""
    if isinstance(v, (list, tuple)) and all(not isinstance(x, (dict, list)) for x in v):
        return ", ".join("" if x is None else str(x) for x in v)
    if isinstance(v, (dict, list)):
        return json.dumps(v, ensure_ascii=False)
    return v


def typed_series(name: str, values: Sequence[Any]) -> pd.Series:
    present = [v for v in values if not _blank(v)]
    if not present:
        if name in DATES:
            return pd.Series([pd.NaT] * len(values), dtype="datetime64[ns, UTC]", name=name)
        if name in NUMERIC:
            return pd.Series([pd.NA] * len(values), dtype="Int64" if name in INTEGER else "Float64", name=name)
        return pd.Series([pd.NA] * len(values), dtype="string", name=name)
    if all(isinstance(v, bool) for v in present):
        return pd.Series([pd.NA if _blank(v) else v for v in values], dtype="boolean", name=name)
    numeric_ok = all(_is_number(v) or (isinstance(v, str) and _NUMERIC_TEXT.match(v)) for v in present)
    if numeric_ok and (name in NUMERIC or any(_is_number(v) for v in present)):
        nums = [pd.NA if _blank(v) else float(v) for v in values]
        if name in INTEGER and all(x is pd.NA or float(x).is_integer() for x in nums):
            return pd.Series([x if x is pd.NA else int(x) for x in nums], dtype="Int64", name=name)
        return pd.Series(nums, dtype="Float64", name=name)
    if name in DATES or name.endswith("_at"):
        if all(isinstance(v, str) for v in present):
            try:
                parsed = pd.to_datetime(pd.Series([None if _blank(v) else v for v in values], dtype="object"),
                                        utc=True, format="ISO8601")
                return parsed.rename(name)
            except (ValueError, TypeError):
                pass  # not every value is a time: keep the text
    return pd.Series([pd.NA if _blank(v) else str(scalar(v)) for v in values], dtype="string", name=name)


def frame(records: Iterable[Any], preferred: Sequence[str] = (), *, only: bool = False) -> pd.DataFrame:
    """Records as a typed DataFrame: ``preferred`` columns first, then every other scalar member."""
    rows = [r for r in records if isinstance(r, dict)]
    columns: list[str] = []
    seen: set[str] = set()
    for c in preferred:
        if c not in seen and (only or not rows or any(c in r for r in rows)):
            seen.add(c)
            columns.append(c)
    if not only:
        for r in rows:
            for k, v in r.items():
                if k not in seen and not k.startswith("_") and not isinstance(v, dict):
                    seen.add(k)
                    columns.append(k)
    data = {c: typed_series(c, [scalar(r.get(c)) for r in rows]) for c in columns}
    return pd.DataFrame(data, columns=columns)


def flatten(obj: Any, prefix: str = "") -> list[tuple[str, Any]]:
    """Every scalar leaf of a nested object as ``(dotted.path, value)``, in document order."""
    if not isinstance(obj, dict):
        return [(prefix, scalar(obj))] if prefix else []
    out: list[tuple[str, Any]] = []
    for k, v in obj.items():
        p = f"{prefix}.{k}" if prefix else str(k)
        if isinstance(v, dict):
            out.extend(flatten(v, p))
        else:
            out.append((p, scalar(v)))
    return out


def is_numeric_name(name: str) -> bool:
    """A field whose values are numbers (a decimal string there is read as one)."""
    leaf = name.split(".")[-1]
    return leaf in NUMERIC or leaf.endswith(("_cents_kwh", "_dollars_kwh", "_score", "_mw", "_pct", "_km", "_months"))


def _record_value(name: str, v: Any) -> Any:
    if v is None:
        return pd.NA
    if isinstance(v, str) and is_numeric_name(name) and _NUMERIC_TEXT.match(v):
        return float(v)  # the real service's decimal strings ("7.23"), as core reads them
    return v


def record(obj: Any, *, skip_private: bool = True) -> pd.Series:
    """A single record as a Series of its scalar leaves (``fiber.connectivity_score``, ...); blanks as NA,
    decimal strings of numeric fields as numbers."""
    pairs = [(k, v) for k, v in flatten(obj) if not (skip_private and k.split(".")[-1].startswith("_"))]
    return pd.Series({k: _record_value(k, v) for k, v in pairs}, dtype="object")


def as_timestamp(v: Any) -> pd.Timestamp | None:
    if _blank(v) or not isinstance(v, str):
        return None
    try:
        return pd.Timestamp(v).tz_localize("UTC") if pd.Timestamp(v).tzinfo is None else pd.Timestamp(v).tz_convert("UTC")
    except (ValueError, TypeError):
        return None


def preview_of(body: Any, shown: int | None = None) -> dict[str, Any] | None:
    """What a gated preview withheld (spec §5.3, notes §1.3), or None for a full answer."""
    if not isinstance(body, dict) or body.get("_gated") is not True:
        return None
    locked = body.get("_locked_fields")
    not_applied = body.get("_preview_params_not_applied")
    info = {
        "gated": True,
        "shown": shown,
        "total_available": body.get("_total_available"),
        "hidden_count": body.get("_hidden_count"),
        "required_tier": body.get("_required_tier"),
        "locked_fields": list(locked) if isinstance(locked, list) else [],
        "params_not_applied": list(not_applied) if isinstance(not_applied, list) else [],
        "upgrade": body.get("_upgrade_cta") or body.get("upgrade_url") or body.get("_signup_url"),
    }
    return info


def describe_preview(p: dict[str, Any]) -> str:
    parts = ["gated preview"]
    if p.get("shown") is not None and p.get("total_available") is not None:
        parts.append(f"{p['shown']} of {p['total_available']} rows")
    elif p.get("hidden_count"):
        parts.append(f"{p['hidden_count']} hidden")
    if p.get("locked_fields"):
        parts.append("withheld: " + ", ".join(p["locked_fields"]))
    if p.get("params_not_applied"):
        parts.append("filters not applied: " + ", ".join(p["params_not_applied"]))
    if p.get("required_tier"):
        parts.append(f"full data from the {p['required_tier']} tier")
    if p.get("upgrade"):
        parts.append(str(p["upgrade"]))
    return "; ".join(parts)


def finish(obj: pd.DataFrame | pd.Series, *, meta: dict[str, Any], citation: str | None = None, as_of: Any = None,
           preview: dict[str, Any] | None = None, note: str | None = None, **extra: Any):
    """Sets ``attrs`` (citation, as_of, preview, note, and how the answer was obtained) and warns on a preview."""
    obj.attrs.update({
        "citation": citation,
        "as_of": as_timestamp(as_of) if isinstance(as_of, str) else as_of,
        "preview": preview,
        "note": note,
        "from_cache": meta.get("from_cache", False),
        "stale": meta.get("stale", False),
        "age_seconds": meta.get("age_seconds", 0.0),
        **({"stale_reason": meta["reason"]} if meta.get("reason") else {}),
        # Answered locally from a cached wider answer: {"path", "query", "age_seconds"} of that answer.
        **({"derived_from": meta["derived_from"]} if meta.get("derived_from") else {}),
        **({"warnings": list(meta["warnings"])} if meta.get("warnings") else {}),
        **extra,
    })
    if preview:
        warnings.warn(describe_preview(preview), GatedPreviewWarning, stacklevel=3)
    return obj


def ranked_frame(body: Any, objectives: list[str]) -> pd.DataFrame:
    """The ranked sites of a rank-sites answer: rank, id, score, each objective and its normalized value."""
    rows = []
    for r in records_of(body, "results"):
        norm = r.get("normalized") if isinstance(r.get("normalized"), dict) else {}
        row = {"rank": r.get("rank"), "id": r.get("id"), "objective_score": r.get("objective_score")}
        row.update({o: r.get(o) for o in objectives})
        row.update({f"norm_{o}": norm.get(o) for o in objectives})
        row.update({k: v for k, v in r.items() if k not in row and k not in ("normalized", "missing_objectives",
                    "site_evaluation_handoff") and not isinstance(v, (dict, list))})
        rows.append(row)
    return frame(rows, ["rank", "id", "objective_score", *objectives, *[f"norm_{o}" for o in objectives]])
