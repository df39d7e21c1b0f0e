"""``dchub.charts`` over real Client answers from the sandbox: core's specs, shown by
JupyterLab's own Vega-Lite renderer (the MIME bundle), saved as JSON, an offline page or SVG."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from conftest import KEYS

MIME = "application/vnd.vegalite.v5+json"


@pytest.fixture
def answers(hub):
    queue = hub.queue(iso="PJM,ERCOT", limit=400)
    ranked = hub.rank(
        queue.rename(columns={"queue_id": "id"})[["id", "lat", "lng", "capacity_mw", "fiber_km"]]
        .dropna()
        .head(12),
        {"capacity_mw": 1, "fiber_km": -1},
        top_k=6,
    )
    return {
        "queue": queue,
        "board": hub.dcpi(limit=15),
        "scores": hub.dcpi_scores(),
        "ranked": ranked,
        "site": hub.site_score(39.04, -77.49, capacity_mw=100),
        "briefs": hub.briefs(),
    }


def facts(chart) -> dict:
    return chart.spec["usermeta"]["dchub"]


def test_every_chart_is_a_vega_lite_v5_bundle(answers):
    from dchub import charts

    q = answers["queue"]
    made = {
        "queue_map": charts.queue_map(q),
        "queue_mix": charts.queue_mix(q),
        "queue_time_to_power": charts.queue_time_to_power(q, max_ttp_months=36),
        "leaderboard": charts.leaderboard(answers["board"]),
        "markets_map": charts.markets_map(answers["scores"]),
        "market_quadrant": charts.market_quadrant(answers["scores"]),
        "market_time_to_power": charts.market_time_to_power(answers["briefs"], max_ttp_months=30),
        "ranking": charts.ranking(answers["ranked"]),
        "site_score": charts.site_score(answers["site"]),
    }
    for name, chart in made.items():
        data, meta = chart._repr_mimebundle_()
        # The default renderer ("both"): the spec and a static picture (see test_chart_pictures.py).
        assert set(data) - {"image/svg+xml", "image/png"} == {MIME, "text/plain"}, name
        assert meta[MIME]["embed_options"]["actions"] is False, name
        spec = data[MIME]
        assert (
            spec["$schema"].endswith("/vega-lite/v5.json")
            and spec["description"]
            and facts(chart)["chart"] == name
        )
        assert '"url"' not in json.dumps(spec), name  # data inline only: works offline
        assert facts(chart)["drawn"] > 0, name
    # The map draws every survivor with coordinates (none of these lie outside the map).
    with_coords = int((q["lat"].notna() & q["lng"].notna()).sum())
    assert facts(made["queue_map"])["drawn"] == with_coords < len(q)
    footer = " | ".join(v["text"] for v in made["queue_map"].spec["vconcat"][1]["data"]["values"])
    assert f"{len(q) - with_coords} of {len(q)} projects have no coordinates" in footer
    assert q.attrs["citation"] in footer
    # The ranking is split by the weights the answer carries.
    assert answers["ranked"].attrs["objectives"] == {"capacity_mw": 1, "fiber_km": -1}
    assert facts(made["ranking"])["drawn"] == len(answers["ranked"])


def test_a_preview_says_so_and_keyless_scores_are_counted(sandbox, cache_dir):
    from dchub import Client, charts

    anon = Client(base_url=sandbox.url, api_key="", cache_dir=cache_dir)
    with pytest.warns(UserWarning):
        q = anon.queue(iso="PJM")
    text = " | ".join(v["text"] for v in charts.queue_mix(q).spec["vconcat"][1]["data"]["values"])
    assert (
        f"Gated preview: {len(q)} of {q.attrs['preview']['total_available']:,} rows shown." in text
    )
    free = Client(base_url=sandbox.url, api_key=KEYS["free"], cache_dir=cache_dir)
    board = free.dcpi(limit=10)
    chart = charts.leaderboard(board)
    assert facts(chart)["omitted"]["no_score"] == int(board["composite_score"].isna().sum())


def test_save_json_offline_html_and_svg(answers, tmp_path):
    from dchub import charts

    chart = charts.queue_mix(answers["queue"])
    assert (
        json.loads((tmp_path / "c.json").read_text() if chart.save(tmp_path / "c.json") else "")
        == chart.spec
    )
    chart.save(tmp_path / "c.html")
    page = (tmp_path / "c.html").read_text()
    assert "<script>" in page and "cdn" not in page.lower() and "vegaLite.compile" in page
    chart.save(tmp_path / "c.svg")
    assert (tmp_path / "c.svg").read_text().startswith("<svg") and "Queued capacity" in (
        tmp_path / "c.svg"
    ).read_text()
    with pytest.raises(ValueError, match="json, .html, .svg or .png"):
        chart.save(tmp_path / "c.gif")


def test_bad_input_is_named(answers):
    from dchub import ValidationError, charts

    with pytest.raises(TypeError, match="DataFrame or Series"):
        charts.queue_map([{"lat": 1}])  # type: ignore[arg-type]
    empty = pd.DataFrame({"lat": [], "lng": []})
    assert facts(charts.queue_map(empty))["drawn"] == 0
    with pytest.raises(ValidationError, match="unknown chart"):
        charts._chart("pie", answers["queue"])


def test_charts_width_lays_every_chart_out_to_it(answers, monkeypatch):
    """charts.width = 500: every chart's views fit 500 px and its legends go below (a narrow
    notebook or a side-by-side view); a width that is not one is named."""
    import re

    from dchub import charts

    q = answers["queue"]

    def made() -> dict[str, str]:
        return {
            "queue_mix": json.dumps(charts.queue_mix(q).spec),
            "queue_map": json.dumps(charts.queue_map(q).spec),
            "leaderboard": json.dumps(charts.leaderboard(answers["board"]).spec),
            "market_quadrant": json.dumps(charts.market_quadrant(answers["scores"]).spec),
        }

    def widths(spec: str) -> list[int]:
        return [int(w) for w in re.findall(r'"width": (\d+)', spec)]

    wide = made()
    assert max(widths(wide["queue_map"])) > 500  # each chart's own width
    monkeypatch.setattr(charts, "width", 500)
    for name, spec in made().items():
        assert widths(spec) and max(widths(spec)) <= 500, (name, widths(spec))
        assert '"orient": "right"' not in spec, name  # no legend beside a narrow chart
    assert '"orient": "bottom"' in made()["queue_mix"]
    monkeypatch.setattr(charts, "width", 50)
    with pytest.raises(ValueError, match="charts.width"):
        charts.queue_mix(q)
