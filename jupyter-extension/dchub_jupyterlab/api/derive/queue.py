"""A refined-queue question F answered from the complete answer to a wider question G, exactly as
the service would answer F: core's rules (core/src/derive/queue.ts), the same refusals.

Every predicate where F is stricter than G is applied to G's survivors in the service's order, then
F's limit; the counts, the echo, the total, the summary and the time-to-power report are rebuilt
by the service's rules. When any part cannot be rebuilt exactly from what the survivors carry, the
answer is refused with the reason, and the caller fetches.
"""

from __future__ import annotations

import math
from typing import Any, Callable, NamedTuple

from ..queue_filters import QUEUE_ISOS, QUEUE_LIMIT_MAX, QueueFilters, normalize_iso

Row = dict[str, Any]

#: Terminal status stems that ``status=active`` drops (notes §2.21; the sandbox uses the same).
TERMINAL_STATUS = ("withdraw", "cancel", "terminat", "suspend", "commercial operation", "deactivat")
FIRM = "firm/baseload-capable"
INTERMITTENT = "intermittent"

#: Members of a queue answer in the order core's validated answer has them (its schema's).
SCHEMA_KEYS = ("_entity", "ok", "_source", "_cite", "citation", "next_session", "_gated", "_preview_only", "_required_tier",
               "_total_available", "_hidden_count", "_signup_url", "_upgrade_cta", "snapshot_id", "search_version",
               "candidate_ttl_days", "count_returned", "count_total_matching", "total_queued_mw", "filters_applied",
               "isos_excluded_by_ttp", "min_satisfiable_max_ttp_months", "results", "summary", "provenance", "note",
               "_error_mitigation")


class Derived(NamedTuple):
    """An answer derived, or why not (``value`` None and ``reason`` set)."""

    value: dict[str, Any] | None
    reason: str | None = None


def _refuse(reason: str) -> Derived:
    return Derived(None, reason)


def _num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _status_rule(s: str) -> tuple[str, str]:
    text = s.lower()
    return ("active", "") if text == "active" else ("all", "") if text == "all" else ("substring", text)


def _status_keeps(rule: tuple[str, str], status: str) -> bool:
    s = status.lower()
    kind, text = rule
    if kind == "all":
        return True
    if kind == "active":
        return not any(t in s for t in TERMINAL_STATUS)
    return text in s


def _status_relation(g: str, f: str) -> str | None:
    """F's status relative to G's: the same filter, a narrower one, or neither (None)."""
    gk, gt = _status_rule(g)
    fk, ft = _status_rule(f)
    if gk == "all":
        return "same" if fk == "all" else "narrower"
    if gk == "active":
        return "same" if fk == "active" else None
    if fk != "substring" or gt not in ft:
        return None
    return "same" if ft == gt else "narrower"


def _lower_set(xs) -> set[str]:
    return {x.lower() for x in (xs or ())}


def why_not_wider(g: QueueFilters, f: QueueFilters) -> str | None:
    """Why G does not contain F (None when every predicate of F is at least as strict as G's)."""
    if g.iso and (not f.iso or not all(i in g.iso for i in f.iso)):
        return "iso: not a subset"
    if g.min_mw is not None and (f.min_mw is None or f.min_mw < g.min_mw):
        return "min_mw: lower"
    if g.max_ttp_months is not None and (f.max_ttp_months is None or f.max_ttp_months > g.max_ttp_months):
        return "max_ttp_months: higher"
    # A label containing F's token contains every substring of it: F's union is covered token by token.
    if g.fuel_type:
        gl = _lower_set(g.fuel_type)
        if not f.fuel_type or not all(any(u in t for u in gl) for t in _lower_set(f.fuel_type)):
            return "fuel_type: not covered"
    if not _status_relation(g.status, f.status):
        return "status: not narrower"
    if g.baseload_only and not f.baseload_only:
        return "baseload_only: dropped"
    if g.geocoded_only and not f.geocoded_only:
        return "geocoded_only: dropped"
    if g.max_fiber_km is not None and (f.max_fiber_km is None or f.max_fiber_km > g.max_fiber_km):
        return "max_fiber_km: higher"
    return None


def widen_queue_filters(f: QueueFilters) -> QueueFilters:
    """The widest request likely to come back complete for F: its ISO set and status, limit 1000."""
    return QueueFilters(iso=f.iso, status=f.status, limit=QUEUE_LIMIT_MAX)


def echo_filters(f: QueueFilters) -> dict[str, Any]:
    """``filters_applied`` as the service echoes a filter set (unset predicates null)."""
    return {"baseload_only": f.baseload_only, "fuel_type": ",".join(f.fuel_type) if f.fuel_type else None,
            "geocoded_only": f.geocoded_only, "iso": ",".join(f.iso) if f.iso else None,
            "max_fiber_km": f.max_fiber_km, "max_ttp_months": f.max_ttp_months, "min_mw": f.min_mw, "status": f.status}


def _js_string(v: Any) -> str:
    """``String(v)`` for the summary's fuel-class keys (null and missing spelled as JavaScript does)."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def summarize(rows: list[Row]) -> dict[str, Any]:
    """The per-answer summary the service computes over the returned rows."""
    by_iso: dict[str, int] = {}
    by_class: dict[str, int] = {}
    geocoded = 0
    for r in rows:
        by_iso[r.get("iso")] = by_iso.get(r.get("iso"), 0) + 1
        cls = _js_string(r["fuel_class"]) if "fuel_class" in r else "undefined"
        by_class[cls] = by_class.get(cls, 0) + 1
        if r.get("lat") is not None:
            geocoded += 1
    return {"by_iso": by_iso, "by_fuel_class": by_class, "geocoded_returned": geocoded}


def _total_mw(rows: list[Row]) -> float:
    """Sum of capacity over every match, 1 decimal (``Math.round``: halves up, as JavaScript rounds)."""
    s = 0.0
    for r in rows:
        c = r.get("capacity_mw")
        s += c if _num(c) else 0
    return math.floor(s * 10 + 0.5) / 10


def ttp_cut_mitigation(value: float) -> dict[str, Any]:
    """The zero-row advice of spec §7 rule 4, as the service words it."""
    from ..jsfmt import js_number

    return {
        "error_code": "zero_row_ttp_cut",
        "error_version": 1,
        "severity": "parameter_adjustment",
        "deterministic_hint": ("No queued capacity matches this time-to-power constraint for the selected ISO(s). "
                               f"Expand max_ttp_months to at least {js_number(value)} to return rows (ISO-level average wait)."),
        "suggested_params": {"max_ttp_months": value},
    }


def is_preview(a: Any) -> bool:
    """A gated preview, or an answer that says some parameters or fields were not applied: it
    answers nothing but itself (core's ``isPreview``)."""
    if not isinstance(a, dict):
        return False
    return (a.get("_gated") is True or a.get("_preview_only") is True or "_preview_params_not_applied" in a
            or "_locked_fields" in a)


def mend_record(r: Row) -> Row:
    """The real service's record spellings folded into the spec's, as core's reader does."""
    out = r
    if "lng" not in out and "lon" in out:
        out = {**out, "lng": out["lon"]}
    if "capacity_mw" not in out and "capacity" in out:
        out = {**out, "capacity_mw": out["capacity"]}
    if "queue_id" not in out and isinstance(out.get("id"), str) and out["id"].strip():
        out = {**out, "queue_id": out["id"].strip()}
    return out


def read_queue_answer(body: Any) -> dict[str, Any] | None:
    """A queue answer as derivation reads it (records mended), or None when it is no queue answer."""
    if not isinstance(body, dict) or not isinstance(body.get("results"), list):
        return None
    if not all(isinstance(r, dict) for r in body["results"]):
        return None
    return {**body, "results": [mend_record(r) for r in body["results"]]}


def _num_or_nan(v: Any) -> float:
    """``Number(v)`` for the mitigation's suggested value."""
    if _num(v):
        return float(v)
    try:
        return float(str(v).strip()) if v is not None else math.nan
    except ValueError:
        return math.nan


def source_problem(a: dict[str, Any], g: QueueFilters) -> str | None:
    """Whether ``a`` (the answer to G) can serve as a source at all, and the service's rules agree
    with ours on it: complete, not a preview, its echo and summary rebuilt exactly."""
    if is_preview(a):
        return "a gated preview answers nothing but itself"
    results = a.get("results") or []
    if a.get("count_total_matching") != a.get("count_returned") or a.get("count_returned") != len(results):
        return "incomplete: the limit cut it"
    if a.get("filters_applied") != echo_filters(g):
        return "filters_applied is not echoed as expected"
    if "summary" in a and a["summary"] is not None and a["summary"] != summarize(results):
        return "summary is not rebuilt as expected"
    if _num(a.get("total_queued_mw")) and a["total_queued_mw"] != _total_mw(results):
        return "total_queued_mw is not rebuilt as expected"
    m = a.get("_error_mitigation")
    if m:
        suggested = (m.get("suggested_params") or {}).get("max_ttp_months") if isinstance(m, dict) else None
        if m != ttp_cut_mitigation(_num_or_nan(suggested)):
            return "_error_mitigation is worded differently"
    return None


def _known_waits(a: dict[str, Any]) -> tuple[dict[str, float] | None, str | None]:
    """ISO-level waits known from the answer: the survivors' ``estimated_ttp_months`` and the excluded report."""
    waits: dict[str, float] = {}

    def note(name: Any, t: float) -> str | None:
        iso = normalize_iso(name) if isinstance(name, str) else None
        if not iso:
            return f"unknown ISO {name!r}"
        had = waits.get(iso)
        if had is not None and had != t:
            return f"{iso} carries two waits"
        waits[iso] = t
        return None

    for r in a["results"]:
        if not _num(r.get("estimated_ttp_months")):
            continue
        bad = note(r.get("iso"), r["estimated_ttp_months"])
        if bad:
            return None, bad
    for name, t in (a.get("isos_excluded_by_ttp") or {}).items():
        if normalize_iso(name) != name:
            return None, f"isos_excluded_by_ttp spells {name!r} differently"
        bad = note(name, t)
        if bad:
            return None, bad
    return waits, None


class _Test(NamedTuple):
    name: str
    carries: Callable[[Row], bool]
    keeps: Callable[[Row], bool]


def _stricter_tests(g: QueueFilters, f: QueueFilters) -> list[_Test]:
    """Tests for the predicates where F is stricter than G (the others hold for every survivor already)."""
    tests: list[_Test] = []
    if f.iso and (not g.iso or set(f.iso) != set(g.iso)):
        isos = set(f.iso)
        tests.append(_Test("iso", lambda r: isinstance(r.get("iso"), str) and normalize_iso(r["iso"]) is not None,
                           lambda r: normalize_iso(r["iso"]) in isos))
    if f.min_mw is not None and (g.min_mw is None or f.min_mw > g.min_mw):
        mn = f.min_mw
        tests.append(_Test("min_mw", lambda r: "capacity_mw" in r,
                           lambda r: r["capacity_mw"] is not None and r["capacity_mw"] >= mn))
    if f.baseload_only and not g.baseload_only:
        # The service's own classification of each label, carried by every survivor.
        tests.append(_Test("baseload_only", lambda r: r.get("fuel_class") in (FIRM, INTERMITTENT),
                           lambda r: r.get("fuel_class") == FIRM))
    if f.fuel_type and (not g.fuel_type or _lower_set(f.fuel_type) != _lower_set(g.fuel_type)):
        tokens = list(_lower_set(f.fuel_type))
        tests.append(_Test("fuel_type", lambda r: isinstance(r.get("fuel_type"), str),
                           lambda r: any(t in r["fuel_type"].lower() for t in tokens)))
    if _status_relation(g.status, f.status) == "narrower":
        rule = _status_rule(f.status)
        tests.append(_Test("status", lambda r: isinstance(r.get("queue_status"), str),
                           lambda r: _status_keeps(rule, r["queue_status"])))
    if f.max_fiber_km is not None and (g.max_fiber_km is None or f.max_fiber_km < g.max_fiber_km):
        mx = f.max_fiber_km
        tests.append(_Test("max_fiber_km", lambda r: "fiber_km" in r,
                           lambda r: r["fiber_km"] is not None and r["fiber_km"] <= mx))
    if f.geocoded_only and not g.geocoded_only:
        tests.append(_Test("geocoded_only", lambda r: "lat" in r and "lng" in r,
                           lambda r: r["lat"] is not None and r["lng"] is not None))
    return tests


def in_schema_order(a: dict[str, Any]) -> dict[str, Any]:
    """Members in the order a validated answer has them (the schema's, then the others), like a fetched one."""
    out = {k: a[k] for k in SCHEMA_KEYS if k in a}
    out.update({k: v for k, v in a.items() if k not in out})
    return out


def derive_queue_answer(a: dict[str, Any], g: QueueFilters, f: QueueFilters) -> Derived:
    """F's answer from ``a``, the complete answer to the wider G; or why it cannot be derived exactly."""
    wider = why_not_wider(g, f)
    if wider:
        return _refuse(wider)
    problem = source_problem(a, g)
    if problem:
        return _refuse(problem)
    results: list[Row] = a["results"]
    tests = _stricter_tests(g, f)
    for t in tests:
        if not all(t.carries(r) for r in results):
            return _refuse(f"{t.name}: a survivor lacks the field it reads")

    cut = f.max_ttp_months
    scope = list(f.iso) if f.iso else list(QUEUE_ISOS)
    waits: dict[str, float] = {}
    if cut is not None:
        known, bad = _known_waits(a)
        if bad:
            return _refuse(bad)
        waits = known or {}
        unknown = [iso for iso in scope if iso not in waits]
        if unknown:
            return _refuse(f"max_ttp_months: the wait of {', '.join(unknown)} is not in the source")
        if not all(isinstance(r.get("iso"), str) and normalize_iso(r["iso"]) is not None for r in results):
            return _refuse("max_ttp_months: a survivor names an unknown ISO")
    cuts_locally = cut is not None and (g.max_ttp_months is None or cut < g.max_ttp_months)

    base = [r for r in results if all(t.keeps(r) for t in tests)] if tests else list(results)
    survivors = [r for r in base if waits[normalize_iso(r["iso"])] <= cut] if cuts_locally else base
    rows = survivors[: f.limit]

    out: dict[str, Any] = {**a, "count_returned": len(rows), "count_total_matching": len(survivors),
                           "filters_applied": {**(a.get("filters_applied") or {}), **echo_filters(f)}, "results": rows}
    if _num(a.get("total_queued_mw")):
        out["total_queued_mw"] = _total_mw(survivors)
    if "summary" in a and a["summary"] is not None:
        out["summary"] = {**a["summary"], **summarize(rows)}
    for k in ("isos_excluded_by_ttp", "min_satisfiable_max_ttp_months", "_error_mitigation"):
        out.pop(k, None)
    if cut is None:
        return Derived(in_schema_order(out))

    excluded = [iso for iso in scope if waits[iso] > cut]
    out["isos_excluded_by_ttp"] = {iso: waits[iso] for iso in excluded}
    out["min_satisfiable_max_ttp_months"] = min(waits[iso] for iso in scope)
    if not survivors and excluded:
        # The advice names the smallest wait among the cut ISOs that hold rows matching every other
        # predicate. An ISO G's own cut removed may hold such rows unseen; its wait is above G's cut,
        # so above every ISO the source shows, and matters only when none of those holds rows.
        g_cut = g.max_ttp_months
        seen = [iso for iso in excluded if g_cut is None or waits[iso] <= g_cut]
        unseen = [iso for iso in excluded if iso not in seen]
        with_rows = [iso for iso in seen if any(normalize_iso(r["iso"]) == iso for r in base)]
        if with_rows:
            out["_error_mitigation"] = ttp_cut_mitigation(min(waits[iso] for iso in with_rows))
        elif unseen:
            return _refuse(f"_error_mitigation: whether {', '.join(unseen)} holds matching rows is not in the source")
    return Derived(in_schema_order(out))


__all__ = ["Derived", "why_not_wider", "widen_queue_filters", "echo_filters", "summarize", "ttp_cut_mitigation",
           "is_preview", "read_queue_answer", "source_problem", "derive_queue_answer"]
