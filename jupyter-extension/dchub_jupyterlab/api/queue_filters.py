"""The refined queue's predicates (spec §4.2) as core checks them (core/src/schemas/queue.ts): the ISO
names, fuel labels and status, parsed into ``QueueFilters``, and core's canonical query of a filter
set, so that both share cached answers and derive from each other's."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .errors import ValidationError
from .jsfmt import js_number
from .params import boolean, is_blank, list_param, list_pattern, number, show_value, split_tokens

QUEUE_ISOS = ("PJM", "ERCOT", "MISO", "CAISO", "SPP", "NYISO", "ISO-NE")
QUEUE_LIMIT_DEFAULT = 200
QUEUE_LIMIT_MAX = 1000


def normalize_iso(token: str) -> str | None:
    key = re.sub(r"[^A-Z0-9]", "", token.upper())
    by_key = {re.sub(r"[^A-Z0-9]", "", iso): iso for iso in QUEUE_ISOS}
    by_key["ISNE"] = "ISO-NE"
    return by_key.get(key)


def _any_case(word: str) -> str:
    return re.sub(r"[A-Z]", lambda m: f"[{m[0]}{m[0].lower()}]", word)


#: The ISO spellings accepted (core's ISO_TOKEN): canonical names, any case; ISO-NE also as ISONE, ISO NE, ISO_NE.
_ISO_LIST = list_pattern("|".join(_any_case(w) for w in [*(i for i in QUEUE_ISOS if i != "ISO-NE"), "ISO[-_ ]?NE"]))
#: A fuel label (core's FUEL_TOKEN): 1-24 letters, digits, spaces or / + - (no space at either end).
_FUEL_LIST = list_pattern(r"[A-Za-z0-9/+-](?:[A-Za-z0-9 /+-]{0,22}[A-Za-z0-9/+-])?")


def _iso_refused(v: Any) -> str:
    bad = next((t for t in split_tokens(v) if normalize_iso(t) is None), None) if isinstance(v, str) else None
    return f"unknown ISO {show_value(v if bad is None else bad)}; expected one or more of {', '.join(QUEUE_ISOS)}, comma-separated"


def iso_list(name: str, v: Any) -> list[str] | None:
    """Core's ``iso`` parameter: ISO names (any case), comma- or semicolon-separated, a trailing separator
    allowed; each once, in the order given."""
    out: list[str] = []
    for t in list_param(name, v, _ISO_LIST, _iso_refused) or []:
        iso = normalize_iso(t)
        if iso and iso not in out:
            out.append(iso)
    return out or None


def fuel_list(name: str, v: Any) -> list[str] | None:
    """Core's ``fuel_type`` parameter: fuel labels, comma- or semicolon-separated, a trailing separator allowed."""
    return list_param(name, v, _FUEL_LIST, lambda x: "must be fuel labels of 1-24 letters, digits, spaces or / + -, "
                      f"comma- or semicolon-separated, got {show_value(x)}")


@dataclass(frozen=True)
class QueueFilters:
    """The refined-queue predicates, parsed and validated (core's ``QueueFiltersT``)."""

    iso: tuple[str, ...] | None = None
    min_mw: float | None = None
    max_ttp_months: float | None = None
    fuel_type: tuple[str, ...] | None = None
    status: str = "active"
    baseload_only: bool = False
    max_fiber_km: float | None = None
    geocoded_only: bool = False
    limit: int = QUEUE_LIMIT_DEFAULT


def queue_filters(*, iso=None, min_mw=None, max_ttp_months=None, fuel_type=None, status=None, baseload_only=None,
                  max_fiber_km=None, geocoded_only=None, limit=None) -> QueueFilters:
    """The refined-queue predicates (spec §4.2) checked as core checks them (``QueueFilters``)."""
    isos = iso_list("iso", iso)
    mn = number("min_mw", min_mw, min=0)
    ttp = number("max_ttp_months", max_ttp_months, gt=0)
    fuels = fuel_list("fuel_type", fuel_type)
    if is_blank(status):
        st = "active"
    elif not isinstance(status, str) or len(status) > 64:
        raise ValidationError("status", 'must be "active", "all" or a status substring (≤64 chars)')
    else:
        st = status.strip()
    lim = number("limit", limit, integer=True, min=1, max=QUEUE_LIMIT_MAX)
    return QueueFilters(iso=tuple(isos) if isos else None, min_mw=mn, max_ttp_months=ttp,
                        fuel_type=tuple(fuels) if fuels else None, status=st,
                        baseload_only=boolean("baseload_only", baseload_only), max_fiber_km=number("max_fiber_km", max_fiber_km, min=0),
                        geocoded_only=boolean("geocoded_only", geocoded_only),
                        limit=QUEUE_LIMIT_DEFAULT if lim is None else int(lim))


def queue_params(f: QueueFilters) -> list[tuple[str, str]]:
    """Core's canonical query of a filter set (``queueSearchParams``): fixed order, unset predicates left out."""
    p: list[tuple[str, str]] = []
    if f.iso:
        p.append(("iso", ",".join(f.iso)))
    if f.min_mw is not None:
        p.append(("min_mw", js_number(f.min_mw)))
    if f.max_ttp_months is not None:
        p.append(("max_ttp_months", js_number(f.max_ttp_months)))
    if f.fuel_type:
        p.append(("fuel_type", ",".join(f.fuel_type)))
    if f.status != "active":
        p.append(("status", f.status))
    if f.baseload_only:
        p.append(("baseload_only", "true"))
    if f.max_fiber_km is not None:
        p.append(("max_fiber_km", js_number(f.max_fiber_km)))
    if f.geocoded_only:
        p.append(("geocoded_only", "true"))
    if f.limit != QUEUE_LIMIT_DEFAULT:
        p.append(("limit", js_number(f.limit)))
    return p


def queue_query(**filters: Any) -> list[tuple[str, str]]:
    """The refined-queue predicates as core's canonical query (``queueSearchParams``)."""
    return queue_params(queue_filters(**filters))
