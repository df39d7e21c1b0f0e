"""Every method of the Python API against a running sandbox: shapes, typed columns, attrs."""

from __future__ import annotations

import warnings

import pandas as pd
import pytest

from conftest import KEYS, PROFILE


def is_float(s: pd.Series) -> bool:
    return str(s.dtype) in ("Float64", "Int64")


def test_queue_typed_columns_and_attrs(hub, sandbox):
    df = hub.queue(iso="PJM,MISO", min_mw=200, max_ttp_months=36)
    body = sandbox.get(
        "/api/v1/interconnection-queue/refined?iso=PJM,MISO&min_mw=200&max_ttp_months=36",
        KEYS["pro"],
    )
    assert len(df) == body["count_returned"] > 3
    assert list(df["queue_id"]) == [r["queue_id"] for r in body["results"]]
    assert is_float(df["capacity_mw"]) and (df["capacity_mw"] >= 200).all()
    assert (
        str(df["queue_date"].dtype).startswith("datetime64")
        and str(df["queue_date"].dt.tz) == "UTC"
    )
    assert str(df["iso"].dtype) == "string" and set(df["iso"]) <= {"PJM", "MISO"}
    # blanks are NA, never 0: the rows without coordinates have NA, not 0.0
    missing = [i for i, r in enumerate(body["results"]) if r.get("lat") is None]
    assert all(pd.isna(df["lat"].iloc[i]) for i in missing)
    assert (df["lat"].dropna() != 0).all()
    assert df.attrs["citation"] == body["_cite"]
    assert isinstance(df.attrs["as_of"], pd.Timestamp) and df.attrs["as_of"].tzinfo is not None
    assert (
        df.attrs["preview"] is None
        and df.attrs["count_total_matching"] == body["count_total_matching"]
    )


def test_queue_hint_when_the_cut_empties_the_set(hub):
    df = hub.queue(max_ttp_months=10)
    assert df.attrs["note"] and df.attrs["suggested_max_ttp_months"] > 10


def test_keyless_queue_is_a_preview_that_says_what_is_withheld(sandbox, cache_dir):
    from dchub import Client, GatedPreviewWarning

    anon = Client(base_url=sandbox.url, api_key="", cache_dir=cache_dir)
    with pytest.warns(GatedPreviewWarning, match="withheld: capacity_mw"):
        df = anon.queue(iso="PJM")
    p = df.attrs["preview"]
    assert p["gated"] and p["shown"] == len(df) == 3 and p["total_available"] > 3
    assert "capacity_mw" in p["locked_fields"]
    assert df["capacity_mw"].isna().all()  # withheld numerics are NA, not 0


def test_site_score_series(hub, sandbox):
    s = hub.site_score(39.04, -77.49, capacity_mw=100)
    body = sandbox.get(
        "/api/site-score?lat=39.04&lon=-77.49&capacity_mw=100&capacity=100", KEYS["pro"]
    )
    assert isinstance(s, pd.Series)
    assert s["overall_score"] == body["overall_score"]
    assert s["fiber.connectivity_score"] == body["fiber"]["connectivity_score"]
    assert s.attrs["note"] == body["interpretation"] and "site score" in s.attrs["citation"]


def test_rank_and_chain(hub):
    q = hub.queue(iso="ERCOT", geocoded_only=True, limit=6)
    cands = q.rename(columns={"queue_id": "id"})[["id", "lat", "lng", "capacity_mw", "fiber_km"]]
    r = hub.rank(cands, {"capacity_mw": 1, "fiber_km": -1}, top_k=4)
    assert list(r.columns[:5]) == ["rank", "id", "objective_score", "capacity_mw", "fiber_km"]
    assert list(r["rank"]) == [1, 2, 3, 4] and str(r["rank"].dtype) == "Int64"
    assert r["objective_score"].is_monotonic_decreasing
    msgs: list[str] = []
    c = hub.chain(
        "overall_score:1,fiber_km:-1",
        iso="ERCOT",
        min_mw=100,
        max_sites=3,
        top_k=2,
        progress=msgs.append,
    )
    assert len(c) == 2 and "overall_score" in c.columns
    assert any(m.startswith("[score]") for m in msgs) and msgs[-1].startswith("[done]")


def test_parcel_from_dict_text_and_file(hub, tmp_path):
    poly = {
        "type": "Polygon",
        "coordinates": [[[-97.0, 32.0], [-97.0, 32.01], [-96.99, 32.01], [-97.0, 32.0]]],
    }
    s = hub.parcel(poly, capacity_mw=50)
    assert s["total_acres"] > 0 and s["site_evaluation_handoff.analyze_site.capacity_mw"] == 50
    f = tmp_path / "parcel.geojson"
    f.write_text(
        '{"type":"Feature","properties":{},"geometry":' + __import__("json").dumps(poly) + "}"
    )
    sent = hub.requests_sent
    again = hub.parcel(str(f), capacity_mw=50)
    assert (
        again["total_acres"] == s["total_acres"] and hub.requests_sent == sent
    )  # the same body is cached


def test_briefs_every_page_and_diff(hub, sandbox):
    all_ = sandbox.get("/api/v1/market-brief/all?limit=500", KEYS["pro"])
    # The real service fails to build one brief a day (notes §2.29): left out of the frame, named.
    failed = [b["slug"] for b in all_["briefs"] if b.get("ok") is False]
    assert len(failed) == (1 if PROFILE == "real" else 0)
    df = hub.briefs()
    assert len(df) == all_["total_available"] - len(failed) and df.attrs["failed"] == failed
    if failed:
        assert df.attrs["note"] == f"{failed[0]}: brief failed to build on the service"
    assert list(df.columns[:3]) == ["market_slug", "market_name", "verdict"]
    assert is_float(df["composite_score"]) and str(df["computed_at"].dt.tz) == "UTC"
    assert (
        df.attrs["citation"].startswith("DC Hub Power Index")
        and df.attrs["as_of"] == df["computed_at"].max()
    )
    page = hub.briefs(limit=5, offset=5)
    assert list(page["market_slug"]) == [
        b["slug"] for b in all_["briefs"][5:10] if b.get("ok") is not False
    ]
    diff = hub.briefs_diff("2000-01-01T00:00:00Z")
    assert len(diff) == len(df) and diff.attrs["changed_total"] == len(df) + len(failed)


def test_briefs_and_diff_read_every_page(sandbox, cache_dir):
    """All 232 briefs of the Enterprise tier: a first page of 50, then the rest; /diff the same."""
    from dchub import Client

    hub = Client(base_url=sandbox.url, api_key=KEYS["enterprise"], cache_dir=cache_dir)
    every = sandbox.get("/api/v1/market-brief/all?limit=500", KEYS["enterprise"])
    total = every["total_available"]
    assert total > 50
    built = total - sum(
        1 for b in every["briefs"] if b.get("ok") is False
    )  # the real service fails one a day
    df = hub.briefs()
    assert len(df) == built == df["market_slug"].nunique() and hub.requests_sent == 2
    diff = hub.briefs_diff("2000-01-01T00:00:00Z")
    # The tier is known by now, so /diff is read in pages of its size (500): one request (core).
    assert len(diff) == built and diff.attrs["changed_total"] == total and hub.requests_sent == 3


def test_brief_dcpi_markets(hub, sandbox):
    b = hub.brief("dallas")
    assert b["hero.name"] == "Dallas" and b.attrs["citation"].startswith("DC Hub Power Index")
    d = hub.dcpi("dallas")
    assert d["market_slug"] == "dallas" and isinstance(d.attrs["as_of"], pd.Timestamp)
    board = hub.dcpi(limit=10)
    assert len(board) == 10 and list(board["rank"]) == list(range(1, 11))
    assert str(board["computed_at"].dtype).startswith("datetime64")
    with pytest.raises(ValueError, match="limit: must be at most 100"):
        hub.dcpi(limit=500)
    m = hub.markets()
    assert len(m) > 10 and is_float(m["total_power_mw"])
    one = hub.market("dallas")
    assert one["market.id"] == "dallas"


def test_facilities_news_deals_pipeline(hub):
    f = hub.facilities("equinix", country="us", limit=10)
    assert 0 < len(f) <= 10 and (f["country"] == "US").all()
    n = hub.news(limit=5)
    assert (
        len(n) == 5
        and str(n["published_at"].dt.tz) == "UTC"
        and n["published_at"].is_monotonic_decreasing
    )
    d = hub.deals(limit=7, year=2025)
    assert len(d) <= 7 and (d["year"] == 2025).all() and is_float(d["value"])
    p = hub.pipeline(status="construction", limit=5)
    assert len(p) == 5 and (p["status"] == "construction").all() and is_float(p["capacity"])
    assert p.attrs["note"].startswith("capacity in MW")


def test_fuel_mix_prices_grid_regions_receipts(hub, sandbox):
    fm = hub.fuel_mix("iso-ne")
    assert fm.attrs["iso"] == "ISONE" and abs(float(fm["percentage"].sum()) - 100) < 1
    assert isinstance(fm.attrs["as_of"], pd.Timestamp)
    pr = hub.prices("TX")
    # The real service sends the four *_price_cents_kwh as decimal strings ("7.23"): numbers here.
    raw = sandbox.get("/api/energy/prices/TX", KEYS["pro"])
    assert isinstance(raw["industrial_price_cents_kwh"], str if PROFILE == "real" else float)
    assert pr["state"] == "TX" and isinstance(pr["industrial_price_cents_kwh"], float)
    assert pr["industrial_price_cents_kwh"] == float(raw["industrial_price_cents_kwh"])
    assert any(k.startswith("price_trend_12mo.") for k in pr.index)
    g = hub.grid_regions()
    assert len(g) == 5 and g.attrs["provenance"]["cite_as"] and g.attrs["preview"] is None
    assert is_float(g["total_queue_gw"])
    r = hub.receipts()
    assert len(r) > 0 and "run_id" in r.columns


def test_tool_answers_a_table_or_data(hub):
    t = hub.tool("search_facilities", query="equinix")
    assert isinstance(t, pd.DataFrame) and len(t) > 0 and t.attrs["tool"] == "search_facilities"
    d = hub.tool("get_market_dcpi_rank", market_slug="dallas")
    assert isinstance(d, dict) and d["market_slug"] == "dallas"
    with pytest.raises(ValueError, match="unknown tool"):
        hub.tool("drop_tables")
    # The key reaches the MCP server: a Pro tool answers a Pro key (keyless, it is a plan wall).
    site = hub.tool("analyze_site", lat=39.04, lon=-77.49)
    assert site is not None and "pro_required" not in str(site)


def test_quota_costs_nothing(hub):
    before = hub.requests_sent
    q = hub.quota()
    # Before any answer the key's tier is only assumed (free), and not confirmed.
    assert hub.requests_sent == before and q["tier"] == "free" and q["confirmed"] is False
    hub.news(limit=3)
    after = hub.quota()
    # The service's X-RateLimit-* headers confirm the tier and the allowance.
    assert (
        after["tier"] == "pro"
        and after["confirmed"] is True
        and after["limit"] == 2000
        and after["used"] >= 1
    )


def test_cache_serves_repeats_without_a_request(hub):
    hub.queue(iso="SPP")
    sent = hub.requests_sent
    df = hub.queue(iso="spp")  # the same call, spelled differently
    assert hub.requests_sent == sent and df.attrs["from_cache"] is True
    hub.queue(iso="SPP", refresh=True)
    assert hub.requests_sent == sent + 1


@pytest.mark.parametrize(
    "call, param",
    [
        (lambda h: h.queue(min_mw=-5), "min_mw"),
        (lambda h: h.queue(min_mw="abc"), "min_mw"),
        (lambda h: h.queue(iso="PJX"), "iso"),
        (lambda h: h.queue(limit=2.5), "limit"),
        (lambda h: h.site_score(95, 0), "lat"),
        (lambda h: h.site_score(None, 0), "lat"),
        (lambda h: h.facilities(country="USA"), "country"),
        (lambda h: h.deals(deal_type="swap"), "deal_type"),
        (lambda h: h.pipeline(status="done"), "status"),
        (lambda h: h.fuel_mix("ABC"), "iso"),
        (lambda h: h.briefs_diff("yesterday"), "since"),
        (lambda h: h.rank([{"id": 1}], {"x": 0}), "objectives.x"),
        (lambda h: h.parcel({"type": "Point", "coordinates": [0, 0]}), "geometry.type"),
        (
            lambda h: h.parcel({"type": "Polygon", "coordinates": [[[0, 0], [0, 1], [0, 0]]]}),
            "geometry.coordinates.0",
        ),
        (lambda h: h.brief(""), "slug"),
    ],
)
def test_bad_arguments_raise_before_any_request(hub, call, param):
    from dchub import ValidationError

    with pytest.raises(ValidationError) as info:
        call(hub)
    assert isinstance(info.value, ValueError)
    assert info.value.param == param and str(info.value).startswith(f"{param}: ")
    assert hub.requests_sent == 0 and hub.quota()["used"] == 0


def test_min_mw_message_is_cores(hub):
    with pytest.raises(ValueError, match=r"^min_mw: must be at least 0, got -5$"):
        hub.queue(min_mw=-5)


def test_no_warnings_on_full_answers(hub):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        hub.queue(iso="CAISO", limit=5)
        hub.grid_regions()
