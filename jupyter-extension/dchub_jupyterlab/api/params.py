"""Argument rules of core (core/src/schemas/params.ts and the per-resource schemas), in Python.

Each checker takes the typed value or its text, returns the normalized value, and raises
:class:`~.errors.ValidationError` naming the parameter with core's words (``min_mw: must be at
least 0, got -5``) before any request is sent. The query texts they produce are the ones core
sends, so both share cached answers.
"""

from __future__ import annotations

import math
import numbers
import re
from datetime import datetime
from typing import Any, Iterable, Sequence

from .errors import ValidationError
from .jsfmt import encode_uri_component, js_json, js_number

FUEL_MIX_ISOS = ("ERCOT", "PJM", "CAISO", "MISO", "SPP", "NYISO", "ISONE")
DEAL_TYPES = ("acquisition", "investment", "joint_venture", "lease", "development", "merger")
PIPELINE_STATUSES = ("construction", "announced", "all")
RANK_MODES = ("relative", "absolute", "percentile")
PARCEL_MAX_VERTICES = 10_000
PARCEL_MAX_MEMBERS = 100
RANK_MAX_CANDIDATES = 1000

_TRUE = {"1", "true", "yes", "y", "on"}
_FALSE = {"0", "false", "no", "n", "off"}


def show(v: Any) -> str:
    """How core shows a value in a message: strings quoted (JSON), the rest as text."""
    if isinstance(v, str):
        return js_json(v)
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "null"
    if isinstance(v, numbers.Real):
        return js_number(float(v))
    return str(v)


def is_blank(v: Any) -> bool:
    return v is None or (isinstance(v, str) and not v.strip()) or (isinstance(v, float) and math.isnan(v))


def number(name: str, v: Any, *, min: float | None = None, max: float | None = None, gt: float | None = None,
           integer: bool = False, required: bool = False) -> float | int | None:
    if is_blank(v):
        if required:
            raise ValidationError(name, "is required")
        return None
    if isinstance(v, numbers.Real) and not isinstance(v, bool):
        n = float(v)
    elif isinstance(v, str):
        try:
            n = float(v.strip())
        except ValueError:
            n = math.nan
    else:
        n = math.nan
    if not math.isfinite(n):
        raise ValidationError(name, f"must be a number, got {show(v)}")
    if integer and not n.is_integer():
        raise ValidationError(name, f"must be a whole number, got {show(v)}")
    if gt is not None and not n > gt:
        raise ValidationError(name, f"must be greater than {js_number(gt)}, got {js_number(n)}")
    if min is not None and n < min:
        raise ValidationError(name, f"must be at least {js_number(min)}, got {js_number(n)}")
    if max is not None and n > max:
        raise ValidationError(name, f"must be at most {js_number(max)}, got {js_number(n)}")
    return int(n) if n.is_integer() and abs(n) < 2**53 else n


def boolean(name: str, v: Any, fallback: bool = False) -> bool:
    if is_blank(v):
        return fallback
    if isinstance(v, bool):
        return v
    if isinstance(v, numbers.Real) and v in (0, 1):
        return v == 1
    s = v.strip().lower() if isinstance(v, str) else ""
    if s in _TRUE:
        return True
    if s in _FALSE:
        return False
    raise ValidationError(name, f"must be true or false, got {show(v)}")


def text(name: str, v: Any, *, max_length: int | None = None, required: bool = False) -> str | None:
    if is_blank(v):
        if required:
            raise ValidationError(name, "is required")
        return None
    if isinstance(v, bool) or not isinstance(v, (str, numbers.Real)):
        raise ValidationError(name, f"must be text, got {show(v)}")
    s = (v if isinstance(v, str) else js_number(float(v))).strip()
    if max_length is not None and len(s) > max_length:
        raise ValidationError(name, f"must be at most {max_length} characters")
    return s


def choice(name: str, v: Any, values: Sequence[str], *, aliases: dict[str, str] | None = None,
           fallback: str | None = None) -> str | None:
    if is_blank(v):
        return fallback
    by_key = {x.lower(): x for x in values}
    by_key.update({k.lower(): x for k, x in (aliases or {}).items()})
    hit = by_key.get(v.strip().lower()) if isinstance(v, str) else None
    if hit is None:
        raise ValidationError(name, f"must be one of {', '.join(values)}, got {show(v)}")
    return hit


#: JavaScript's whitespace (``\s`` and ``String.prototype.trim``), so lists split and trim as core's do.
JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_S = f"[{JS_SPACE}]"


def show_value(v: Any, limit: int = 40) -> str:
    """Core's ``showValue``: text quoted (JSON), a list or an object named, cut after ``limit`` characters."""
    if isinstance(v, (list, tuple)):
        s = "a list"
    elif isinstance(v, dict) or not (v is None or isinstance(v, (str, bool, numbers.Real))):
        s = "an object"
    else:
        s = show(v)
    units = s.encode("utf-16-le")  # JavaScript cuts UTF-16 code units
    return units[: 2 * limit].decode("utf-16-le", errors="ignore") + "…" if len(units) > 2 * limit else s


def list_pattern(token: str) -> re.Pattern[str]:
    """Core's ``listPattern``: tokens separated by ``,`` or ``;`` (space around them allowed), a trailing
    separator allowed (``PJM,``, ``solar;``); no empty item, no leading separator."""
    return re.compile(rf"{_S}*(?:{token})(?:{_S}*[,;]{_S}*(?:{token}))*(?:{_S}*[,;])?{_S}*")


def split_tokens(s: str) -> list[str]:
    """Core's ``splitTokens``: split on ``,`` and ``;``, trimmed, empty items dropped."""
    return [t for t in (p.strip(JS_SPACE) for p in re.split(r"[,;]", s)) if t]


def list_param(name: str, v: Any, pattern: re.Pattern[str], refused) -> list[str] | None:
    """Core's ``listParam``: text matching ``pattern``, or a list of texts joined with commas; blank
    (None, empty or blank text, an empty list) is not given; anything else raises ``refused(value)``."""
    if isinstance(v, (list, tuple)) and all(isinstance(t, str) for t in v):
        v = ",".join(v)
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return None
    if isinstance(v, str) and re.fullmatch(f"{_S}*", v):
        return None
    if not isinstance(v, str) or not pattern.fullmatch(v):
        raise ValidationError(name, refused(v))
    return split_tokens(v)


def query_pairs(values: dict[str, Any]) -> list[tuple[str, str]]:
    """Core's ``query({...})``: unset values left out, numbers in JavaScript's text form."""
    out = []
    for k, v in values.items():
        if v is None or v == "":
            continue
        if isinstance(v, bool):
            out.append((k, "true" if v else "false"))
        elif isinstance(v, numbers.Real):
            out.append((k, js_number(v)))
        else:
            out.append((k, str(v)))
    return out


def field_list(name: str, v: Any) -> list[str]:
    """Field names or dotted paths: a comma-separated text or a list (core's ``fieldsArg``)."""
    items = v.split(",") if isinstance(v, str) else list(v) if isinstance(v, (list, tuple)) else None
    if items is None:
        raise ValidationError(name, f"must be a field name or a list of them, got {show(v)}")
    out = [str(x).strip() for x in items if str(x).strip()]
    if any(len(x) > 120 for x in out):
        raise ValidationError(name, "must be at most 120 characters")
    return out


def site_score_query(lat, lon, capacity_mw=None, state=None) -> list[tuple[str, str]]:
    la = number("lat", lat, min=-90, max=90, required=True)
    lo = number("lon", lon, min=-180, max=180, required=True)
    st = text("state", state, max_length=2)
    cap = number("capacity_mw", capacity_mw, gt=0, max=100000)
    p = [("lat", js_number(la)), ("lon", js_number(lo))]
    if st:
        p.append(("state", st))
    if cap is not None:
        # Both spellings: the spec's capacity_mw and the real service's capacity.
        p += [("capacity_mw", js_number(cap)), ("capacity", js_number(cap))]
    return p


def slug(name: str, v: Any, max_length: int = 120) -> str:
    s = v.strip() if isinstance(v, str) else (js_number(v) if isinstance(v, numbers.Real) and not isinstance(v, bool) else "")
    if not s:
        raise ValidationError(name, "is required")
    if len(s) > max_length:
        raise ValidationError(name, f"must be at most {max_length} characters")
    return encode_uri_component(s)


def iso_time(name: str, v: Any) -> str:
    s = v.isoformat() if isinstance(v, datetime) else (str(v) if v is not None else "")
    try:
        datetime.fromisoformat(s.replace("Z", "+00:00"))
    except ValueError:
        raise ValidationError(name, f"must be an ISO 8601 time, got {js_json(s)}") from None
    return s


def country_code(name: str, v: Any) -> str | None:
    if is_blank(v):
        return None
    s = v.strip() if isinstance(v, str) else ""
    if not re.fullmatch(r"[A-Za-z]{2}", s):
        raise ValidationError(name, f"must be an ISO 3166-1 alpha-2 country code (two letters, e.g. US), got {show(v)}")
    return s.upper()


# ---------------------------------------------------------------- parcel (schemas/parcel.ts)


def _short(v: Any) -> str:
    s = show(v)
    return s if len(s) <= 40 else s[:40] + "…"


def check_geometry(g: Any) -> None:
    """Core's ``readParcelGeometry``: a Polygon or MultiPolygon with >=3-point outer rings, or the bad field."""

    def fail(path: Iterable[Any], message: str):
        raise ValidationError(".".join(["geometry", *map(str, path)]), message)

    if g is None:
        fail([], "is required: a GeoJSON Polygon or MultiPolygon with >=3-point outer rings")
    if not isinstance(g, dict):
        fail([], f"must be a GeoJSON object, got {_short(g)}")
    kind = g.get("type").lower() if isinstance(g.get("type"), str) else ""
    if kind not in ("polygon", "multipolygon"):
        fail(["type"], f"must be Polygon or MultiPolygon, got {_short(g.get('type'))}")
    coords = g.get("coordinates")
    if not isinstance(coords, list) or not coords:
        fail(["coordinates"], "must be a non-empty array")
    polygons = [coords] if kind == "polygon" else coords
    if len(polygons) > PARCEL_MAX_MEMBERS:
        fail(["coordinates"], f"has {len(polygons)} member polygons; at most {PARCEL_MAX_MEMBERS} are accepted")
    vertices = 0
    for i, poly in enumerate(polygons):
        base = ["coordinates"] if kind == "polygon" else ["coordinates", i]
        if not isinstance(poly, list) or not poly:
            fail(base, "must be a non-empty array of rings")
        for ring in poly:
            if not isinstance(ring, list):
                fail(base, "must be an array of rings (arrays of [lng, lat])")
            vertices += len(ring)
        if vertices > PARCEL_MAX_VERTICES:
            fail(["coordinates"], f"has more than {PARCEL_MAX_VERTICES} vertices; simplify the geometry")
    for i, poly in enumerate(polygons):
        base = ["coordinates", 0] if kind == "polygon" else ["coordinates", i, 0]
        ring = []
        for j, p in enumerate(poly[0]):
            if not isinstance(p, list) or len(p) < 2:
                fail([*base, j], f"must be a [lng, lat] pair, got {_short(js_json(p) if _jsonable(p) else str(p))}")
            lng, lat = p[0], p[1]
            for idx, value, what, bound in ((0, lng, "longitude", 180), (1, lat, "latitude", 90)):
                if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
                    fail([*base, j, idx], f"{what} must be a number, got {_short(value)}")
                if value < -bound or value > bound:
                    fail([*base, j, idx], f"{what} must be between -{bound} and {bound}, got {js_number(value)}")
            ring.append((lng, lat))
        if len(ring) > 1 and ring[0] == ring[-1]:
            ring.pop()
        distinct = len(set(ring))
        if distinct < 3:
            fail(base, f"an outer ring needs at least 3 distinct points, got {distinct}")


def _jsonable(v: Any) -> bool:
    try:
        js_json(v)
        return True
    except TypeError:
        return False


# ---------------------------------------------------------------- ranking (schemas/ranking.ts)


def parse_weights(spec: Any) -> dict[str, float]:
    """Objectives as ``{field: weight}`` or the CLI's ``"field:weight,..."``."""
    if isinstance(spec, str):
        out: dict[str, float] = {}
        for item in (s.strip() for s in spec.split(",")):
            if not item:
                continue
            k, _, w = item.partition(":")
            out[k.strip()] = w.strip()  # type: ignore[assignment]
        spec = out
    if spec is None:
        raise ValidationError("objectives", "objectives required: {field: weight} — +weight maximizes, -weight minimizes")
    if not isinstance(spec, dict):
        raise ValidationError("objectives", "must be an object {field: weight}")
    result: dict[str, float] = {}
    for k, w in spec.items():
        n = number(f"objectives.{k}", w)
        if n is None:
            raise ValidationError(f"objectives.{k}", f"weight must be a number, got {show(w)}")
        if n == 0:
            raise ValidationError(f"objectives.{k}", "weight must be non-zero (+ maximizes, - minimizes)")
        result[str(k)] = n
    if not result:
        raise ValidationError("objectives", "objectives required: {field: weight} — +weight maximizes, -weight minimizes")
    return result


def parse_bounds(spec: Any) -> dict[str, dict[str, float]] | None:
    """Constraints as ``{field: {min?, max?}}`` or the CLI's ``"field:min:max,..."``."""
    if spec is None or spec == "":
        return None
    if isinstance(spec, str):
        parsed: dict[str, dict[str, Any]] = {}
        for item in (s.strip() for s in spec.split(",")):
            if not item:
                continue
            k, lo, hi = (item.split(":") + ["", ""])[:3]
            parsed[k.strip()] = {**({"min": lo} if lo.strip() else {}), **({"max": hi} if hi.strip() else {})}
        spec = parsed
    if not isinstance(spec, dict):
        raise ValidationError("constraints", "must be an object {field: {min?, max?}}")
    out: dict[str, dict[str, float]] = {}
    for k, c in spec.items():
        if not isinstance(c, dict):
            raise ValidationError(f"constraints.{k}", "must be an object {min?, max?}")
        lo = number(f"constraints.{k}.min", c.get("min"))
        hi = number(f"constraints.{k}.max", c.get("max"))
        if lo is None and hi is None:
            raise ValidationError(f"constraints.{k}", "needs min or max")
        if lo is not None and hi is not None and lo > hi:
            raise ValidationError(f"constraints.{k}", f"min {js_number(lo)} is above max {js_number(hi)}")
        out[str(k)] = {**({"min": lo} if lo is not None else {}), **({"max": hi} if hi is not None else {})}
    return out
