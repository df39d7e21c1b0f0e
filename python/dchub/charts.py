"""Charts of the Client's answers: interactive where a Vega-Lite renderer is, else a picture.

    from dchub import Client, charts
    df = Client().queue(iso="PJM,MISO", min_mw=100)
    charts.queue_map(df)          # displays; .spec is the Vega-Lite dict; .save("map.png")

The specifications are core's (``core/src/charts``, through the engine): Python passes the frame's
rows and its ``attrs`` (citation, as-of, preview, total matching, staleness) and shows what comes
back. What a notebook saves is chosen by ``charts.renderer``, as Altair's renderers:

- ``"both"`` (the default): the Vega-Lite spec (JupyterLab shows it, interactive) and a static
  picture drawn by core's own Vega in the engine (VS Code, Colab, Notebook 7, nbconvert HTML and
  PDF, GitHub's notebook view show it): an SVG, or a PNG when the SVG is over 256 KiB (a queue map).
- ``"vega-lite"``: the spec alone (smallest; a line of text where no renderer is).
- ``"static"``: the picture alone.
"""

from __future__ import annotations

import base64
import json
import os
import warnings
from typing import Any, Literal, get_args

import pandas as pd

from .api.errors import DchubError
from .api.frames import jsonable
from .api.session import engine_request

MIME = "application/vnd.vegalite.v5+json"

Renderer = Literal["vega-lite", "static", "both"]
RENDERERS: tuple[str, ...] = get_args(Renderer)

renderer: Renderer = "both"
"""What a chart's MIME bundle carries: ``"vega-lite"``, ``"static"`` or ``"both"`` (the default)."""

width: int | None = None
"""The width (px) every chart is laid out to, axes, legends and footer included: under 640 the
legends go below and the subtitles wrap. ``None`` (the default): each chart's own width."""

__all__ = [
    "Chart",
    "Renderer",
    "renderer",
    "width",
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


def _renderer() -> Renderer:
    if renderer not in RENDERERS:
        raise ValueError(
            f"charts.renderer: must be one of {', '.join(RENDERERS)}, got {renderer!r}"
        )
    return renderer


class Chart:
    """A Vega-Lite v5 chart, a picture where no renderer is; ``.spec``, ``.save(path)``."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self._picture: dict[str, Any] | None = None

    @property
    def facts(self) -> dict[str, Any]:
        """What was drawn and left out (``{"chart", "rows", "drawn", "omitted"}``)."""
        return dict((self.spec.get("usermeta") or {}).get("dchub") or {})

    def __repr__(self) -> str:
        title = (self.spec.get("title") or {}).get("text", "chart")
        f = self.facts
        return f"<DC Hub chart: {title} ({f.get('drawn', '?')} of {f.get('rows', '?')} drawn)>"

    def picture(self) -> dict[str, Any]:
        """The static picture core's Vega draws: ``{mime, text or base64, width, height}``."""
        if self._picture is None:
            self._picture = engine_request("chart_file", {"spec": self.spec, "format": "picture"})
        return self._picture

    def _repr_mimebundle_(
        self, include: Any = None, exclude: Any = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        mode = _renderer()
        data: dict[str, Any] = {"text/plain": repr(self)}
        meta: dict[str, Any] = {}
        if mode in ("vega-lite", "both"):
            data[MIME] = self.spec
            # No actions: "Open in Vega Editor" would send the data online.
            meta[MIME] = {"embed_options": {"actions": False}}
        if mode in ("static", "both"):
            try:
                p = self.picture()
            except DchubError as e:
                if mode == "static":
                    raise
                # The interactive chart still shows; only the picture for other viewers is missing.
                warnings.warn(
                    f"DC Hub: the chart's static picture was not drawn: {e}", stacklevel=2
                )
                return data, meta
            data[p["mime"]] = p.get("text", p.get("base64"))
            if p["mime"] == "image/png":
                meta[p["mime"]] = {"width": round(p["width"]), "height": round(p["height"])}
        return data, meta

    def save(self, path: str | os.PathLike[str]) -> str:
        """Writes the chart: ``.json`` (the spec), ``.html`` (offline), ``.svg`` or ``.png``."""
        p = os.fspath(path)
        ext = os.path.splitext(p)[1].lower()
        if ext == ".png":
            answer = engine_request("chart_file", {"spec": self.spec, "format": "png"})
            with open(p, "wb") as b:
                b.write(base64.b64decode(answer["base64"]))
            return p
        if ext == ".json":
            text = json.dumps(self.spec, indent=2, ensure_ascii=False)
        elif ext in (".html", ".svg"):
            text = engine_request("chart_file", {"spec": self.spec, "format": ext[1:]})["text"]
        else:
            raise ValueError(f"path: must end in .json, .html, .svg or .png, got {p!r}")
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
        "count_total_matching": a.get("count_total_matching"),
        "stale": bool(a.get("stale")),
        "age_seconds": a.get("age_seconds"),
        "stale_reason": a.get("stale_reason"),
    }


def _width() -> int | None:
    if width is not None and (isinstance(width, bool) or not isinstance(width, int) or width < 200):
        raise ValueError(f"charts.width: must be whole pixels, 200 or more, got {width!r}")
    return width


def _chart(name: str, obj: pd.DataFrame | pd.Series, **options: Any) -> Chart:
    if not isinstance(obj, (pd.DataFrame, pd.Series)):
        raise TypeError(
            f"charts.{name} takes a DataFrame or Series of a Client call, got {type(obj).__name__}"
        )
    opts = {k: v for k, v in {**options, "width": _width()}.items() if v is not None}
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
