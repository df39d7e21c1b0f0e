"""Charts that render everywhere and never misstate a total (issue 27), over real Client answers
from the sandbox: each chart's MIME bundle per ``charts.renderer``, its static picture drawn by
core's Vega in the engine, ``save("x.png")``, and subtitles that say what part of the whole a chart
shows (the call's limit, a gated preview) and nothing for a whole answer."""

from __future__ import annotations

import base64
import struct

import pytest

MIME = "application/vnd.vegalite.v5+json"
PICTURES = {"image/svg+xml", "image/png"}


def subtitle(chart) -> list[str]:
    s = chart.spec["title"].get("subtitle")
    return [] if s is None else [s] if isinstance(s, str) else list(s)


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


@pytest.fixture
def renderer():
    from dchub import charts

    before = charts.renderer
    yield charts
    charts.renderer = before


def test_each_renderer_carries_what_it_says(hub, renderer):
    charts = renderer
    q = hub.queue(iso="PJM,ERCOT", limit=1000)
    small, big = charts.queue_mix(q), charts.queue_map(q)
    assert charts.renderer == "both"
    data, meta = small._repr_mimebundle_()
    assert set(data) == {MIME, "text/plain", "image/svg+xml"}
    assert data["image/svg+xml"].startswith("<svg") and "Queued capacity" in data["image/svg+xml"]
    # A map of hundreds of projects is over the SVG threshold: a PNG at the chart's size.
    data, meta = big._repr_mimebundle_()
    assert set(data) == {MIME, "text/plain", "image/png"}
    w, h = png_size(base64.b64decode(data["image/png"]))
    assert (w, h) == (meta["image/png"]["width"], meta["image/png"]["height"])
    charts.renderer = "vega-lite"
    assert set(small._repr_mimebundle_()[0]) == {MIME, "text/plain"}
    charts.renderer = "static"
    data, meta = small._repr_mimebundle_()
    assert set(data) == {"text/plain", "image/svg+xml"} and MIME not in meta
    charts.renderer = "svg"  # type: ignore[assignment]
    with pytest.raises(ValueError, match="vega-lite, static, both"):
        small._repr_mimebundle_()


def test_save_png_at_twice_the_size(hub, tmp_path):
    from dchub import charts

    chart = charts.queue_time_to_power(hub.queue(iso="PJM,ERCOT,MISO"), max_ttp_months=36)
    p = chart.picture()
    chart.save(tmp_path / "ttp.png")
    w, h = png_size((tmp_path / "ttp.png").read_bytes())
    assert (w, h) == (round(p["width"] * 2), round(p["height"] * 2))


def test_subtitles_state_shown_and_total(hub, sandbox, cache_dir):
    from dchub import Client, charts

    limited = hub.queue(iso="PJM,ERCOT")  # the call's default limit: 200
    total = limited.attrs["count_total_matching"]
    assert len(limited) == 200 < total
    for name in ("queue_map", "queue_mix", "queue_time_to_power"):
        lines = subtitle(getattr(charts, name)(limited))
        assert lines[0] == f"200 of {total:,} matching projects (the call's limit)", name
        if name != "queue_map":
            how = " ".join(lines[1:])
            assert "of these 200 only" in how, name
            assert ("limit=1000" in how) == (total <= 1000), name
    whole = hub.queue(iso="PJM", limit=1000)
    assert len(whole) == whole.attrs["count_total_matching"]
    for name in ("queue_map", "queue_mix", "queue_time_to_power"):
        assert not any(" of " in line for line in subtitle(getattr(charts, name)(whole))), name
    anon = Client(base_url=sandbox.url, api_key="", cache_dir=cache_dir)
    with pytest.warns(UserWarning):
        preview = anon.queue(iso="PJM")
    n, of = len(preview), preview.attrs["preview"]["total_available"]
    assert n < of
    assert subtitle(charts.queue_mix(preview))[0] == f"{n} of {of:,} projects (gated preview)"


def test_a_picture_that_fails_leaves_the_interactive_chart(hub, renderer, monkeypatch):
    from dchub import DchubError

    charts = renderer
    chart = charts.queue_mix(hub.queue(iso="PJM"))

    def refuse(method, params):
        raise DchubError("engine refused to draw")

    monkeypatch.setattr(charts, "engine_request", refuse)
    with pytest.warns(UserWarning, match="static picture was not drawn"):
        data, _ = chart._repr_mimebundle_()
    assert set(data) == {MIME, "text/plain"}
    charts.renderer = "static"
    with pytest.raises(DchubError, match="refused"):
        chart._repr_mimebundle_()
