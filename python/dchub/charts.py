"""Charts of the Client's answers, drawn by JupyterLab's own Vega-Lite renderer (offline).

    from dchub_jupyterlab import Client, charts
    df = Client().queue(iso="PJM,MISO", min_mw=100)
    charts.queue_map(df)          # displays; .spec is the Vega-Lite dict; .save("map.html")

The specifications are core's (``core/src/charts``, through the engine): Python passes the frame's
rows and its ``attrs`` (citation, as-of, preview, staleness) and shows what comes back.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pandas as pd

from .api.frames import jsonable
from .api.session import engine_request

MIME = "application/vnd.vegalite.v5+json"

__all__ = [
    "Chart",
    "queue_map",
    "queue_mix",
    "queue_time_to_power",
    "leaderboard",
    "markets_map",
    "market_quadrant",
    "market_time_to_power",
    "ranking",
    "site_score",
]


class Chart:
    """A Vega-Lite v5 chart: shown by JupyterLab, ``.spec`` as a dict, ``.save(path)``."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec

    @property
    def facts(self) -> dict[str, Any]:
        """What was drawn and left out (``{"chart", "rows", "drawn", "omitted"}``)."""
        return dict((self.spec.get("usermeta") or {}).get("dchub") or {})

    def __repr__(self) -> str:
        title = (self.spec.get("title") or {}).get("text", "chart")
        f = self.facts
        return f"<DC Hub chart: {title} ({f.get('drawn', '?')} of {f.get('rows', '?')} drawn)>"

    def _repr_mimebundle_(
        self, include: Any = None, exclude: Any = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        # No actions: "Open in Vega Editor" would send the data online.
        return {MIME: self.spec, "text/plain": repr(self)}, {
            MIME: {"embed_options": {"actions": False}}
        }

    def save(self, path: str | os.PathLike[str]) -> str:
        """Writes the chart: ``.json`` (the spec), ``.html`` (works offline) or ``.svg``."""
        p = os.fspath(path)
        ext = os.path.splitext(p)[1].lower()
        if ext == ".json":
            text = json.dumps(self.spec, indent=2, ensure_ascii=False)
        elif ext in (".html", ".svg"):
            text = engine_request("chart_file", {"spec": self.spec, "format": ext[1:]})["text"]
        else:
            raise ValueError(f"path: must end in .json, .html or .svg, got {p!r}")
        with open(p, "w", encoding="utf-8") as f:
            f.write(text)
        return p


def _data(obj: pd.DataFrame | pd.Series) -> dict[str, Any]:
    """The rows of an answer and what its attrs say about it, in the names core reads."""
    rows = [jsonable(obj.to_dict())] if isinstance(obj, pd.Series) else jsonable(obj)
    a = obj.attrs
    preview = a.get("preview") if isinstance(a.get("preview"), dict) else None
    as_of = a.get("as_of")
    return {
        "rows": rows,
        "as_of": as_of.isoformat() if isinstance(as_of, pd.Timestamp) else as_of,
        "citation": a.get("citation"),
        "preview": jsonable(preview),
        "stale": bool(a.get("stale")),
        "age_seconds": a.get("age_seconds"),
        "stale_reason": a.get("stale_reason"),
    }


def _chart(name: str, obj: pd.DataFrame | pd.Series, **options: Any) -> Chart:
    if not isinstance(obj, (pd.DataFrame, pd.Series)):
        raise TypeError(
            f"charts.{name} takes a DataFrame or Series of a Client call, got {type(obj).__name__}"
        )
    opts = {k: v for k, v in options.items() if v is not None}
    return Chart(
        engine_request("chart", {"name": name, "data": _data(obj), "options": jsonable(opts)})[
            "spec"
        ]
    )


def queue_map(df: pd.DataFrame) -> Chart:
    """The queue survivors over US state outlines: sized by MW, coloured by fuel group."""
    return _chart("queue_map", df)


def queue_mix(df: pd.DataFrame) -> Chart:
    """Queued MW by ISO and fuel group, stacked (LBNL's *Queued Up* figure)."""
    return _chart("queue_mix", df)


def queue_time_to_power(df: pd.DataFrame, max_ttp_months: float | None = None) -> Chart:
    """Median estimated months to power per ISO, with your limit as a rule."""
    return _chart("queue_time_to_power", df, max_ttp_months=max_ttp_months)


def leaderboard(df: pd.DataFrame, top: int = 20) -> Chart:
    """The top markets by DCPI composite score, by verdict (scores, leaderboard or briefs)."""
    return _chart("leaderboard", df, top=top)


def markets_map(df: pd.DataFrame) -> Chart:
    """Markets as points coloured and shaped by verdict (a US map, or the world when needed)."""
    return _chart("markets_map", df)


def market_quadrant(df: pd.DataFrame) -> Chart:
    """Excess power against constraint, one point per market, by verdict."""
    return _chart("market_quadrant", df)


def market_time_to_power(
    df: pd.DataFrame, max_ttp_months: float | None = None, top: int = 25
) -> Chart:
    """Months to power per market, quickest first, with your limit as a rule."""
    return _chart("market_time_to_power", df, max_ttp_months=max_ttp_months, top=top)


def ranking(df: pd.DataFrame, top: int = 15) -> Chart:
    """A ranking's objective score per candidate, split by each objective's weighted share."""
    return _chart("ranking", df, top=top, objectives=df.attrs.get("objectives"))


def site_score(s: pd.Series) -> Chart:
    """A site score's components, with the overall score as a rule."""
    return _chart("site_score", s)
