"""Real-service variants, redirects and key hygiene, against small loopback servers of our own.

The sandbox answers the spec's shapes; these servers answer the real service's (notes §1): null
numerics, decimal strings, legacy envelopes, a brief that failed to build, an HTML gateway page,
a redirect to another origin, and a body that echoes the key.
"""

from __future__ import annotations

import json
import logging
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pandas as pd
import pytest

KEY = "dch_live_" + "0123456789abcdef" * 2  # a made-up key of the real format


class Stub:
    """A loopback HTTP server answering from a table of routes; records each request's headers."""

    def __init__(self, routes):
        self.routes = routes
        self.seen: list[tuple[str, dict[str, str]]] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                stub.seen.append((self.path, {k.lower(): v for k, v in self.headers.items()}))
                path = self.path.split("?")[0]
                status, headers, body = stub.routes.get(path, (404, {}, {"error": "not found"}))
                data = body if isinstance(body, (bytes, str)) else json.dumps(body)
                data = data.encode() if isinstance(data, str) else data
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(
                        k, v.replace("{other}", stub.other) if isinstance(v, str) else v
                    )
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *a):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.other = ""
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def stub():
    made = []

    def make(routes):
        s = Stub(routes)
        made.append(s)
        return s

    yield make
    for s in made:
        s.close()


def client(url, cache_dir, key=KEY):
    from dchub import Client

    return Client(base_url=url, api_key=key, cache_dir=cache_dir)


def test_null_numerics_decimal_strings_and_legacy_envelopes(stub, cache_dir):
    s = stub(
        {
            "/api/v1/interconnection-queue/refined": (
                200,
                {},
                {
                    # the legacy "results without envelope" shape, a decimal string and gated nulls
                    "results": [
                        {
                            "queue_id": "A-1",
                            "iso": "PJM",
                            "capacity_mw": "7.23",
                            "lat": None,
                            "lon": -77.5,
                            "queue_date": "2025-01-02",
                        },
                        {
                            "queue_id": "A-2",
                            "iso": "PJM",
                            "capacity": 120,
                            "lat": 39.1,
                            "lng": None,
                            "queue_date": None,
                        },
                        "not a record",
                    ],
                },
            ),
            "/api/v1/facilities": (
                200,
                {},
                {
                    "success": True,
                    "data": [
                        {"id": "17", "name": "X", "state": None, "country": "DE", "power_mw": None},
                        {"id": 18, "name": "Y", "state": "TX", "country": "US", "power_mw": "12.5"},
                    ],
                },
            ),
        }
    )
    hub = client(s.url, cache_dir)
    df = hub.queue(iso="PJM")
    assert list(df["queue_id"]) == ["A-1", "A-2"]
    assert str(df["capacity_mw"].dtype) == "Float64" and list(df["capacity_mw"]) == [7.23, 120.0]
    assert pd.isna(df["lat"].iloc[0]) and df["lng"].iloc[0] == -77.5 and pd.isna(df["lng"].iloc[1])
    assert pd.isna(df["queue_date"].iloc[1]) and str(df["queue_date"].dt.tz) == "UTC"
    f = hub.facilities()
    assert str(f["id"].dtype) == "Int64" and list(f["id"]) == [17, 18]
    assert (
        pd.isna(f["state"].iloc[0])
        and pd.isna(f["power_mw"].iloc[0])
        and f["power_mw"].iloc[1] == 12.5
    )


def test_a_band_in_a_numeric_column_stays_text(stub, cache_dir):
    s = stub(
        {
            "/api/v1/dcpi/leaderboard": (
                200,
                {},
                {
                    "leaderboard": [
                        {"rank": 1, "market_slug": "a", "composite_score": "10–50 MW"},
                        {"rank": 2, "market_slug": "b", "composite_score": 41.5},
                    ]
                },
            )
        }
    )
    df = client(s.url, cache_dir).dcpi()
    assert str(df["composite_score"].dtype) == "string" and list(df["composite_score"]) == [
        "10–50 MW",
        "41.5",
    ]


def test_a_brief_that_failed_to_build_is_named_not_fatal(stub, cache_dir):
    good = {
        "slug": "dallas",
        "hero": {
            "name": "Dallas",
            "verdict": "BUILD",
            "composite_score": "61.2",
            "computed_at": "2026-11-20T06:00:00Z",
        },
        "kpis": {"operational_mw": None},
        "outlook": {"word_count": 300},
        "live_as_of": {"iso": None},
    }
    s = stub(
        {
            "/api/v1/market-brief/all": (
                200,
                {},
                {
                    "as_of": "x",
                    "tier": "free",
                    "count": 2,
                    "total_available": 2,
                    "briefs": [good, {"slug": "chicago", "error": "build failed"}],
                },
            )
        }
    )
    with pytest.warns(UserWarning, match="chicago: brief failed to build"):
        df = client(s.url, cache_dir).briefs()
    assert list(df["market_slug"]) == ["dallas"] and df["composite_score"].iloc[0] == 61.2
    assert pd.isna(df["operational_mw"].iloc[0]) and df.attrs["failed"] == ["chicago"]


def test_errors_reported_with_a_200_are_errors(stub, cache_dir):
    from dchub import ServerError

    s = stub(
        {
            "/api/v1/markets/list": (
                200,
                {},
                {"success": False, "error": "tier_gating_unavailable"},
            ),
            "/api/news": (503, {}, {"ok": False, "_entity": "error", "error": "no_db"}),
        }
    )
    with pytest.raises(ServerError, match="tier_gating_unavailable"):
        client(s.url, cache_dir).markets()
    with pytest.raises(ServerError, match="no_db"):
        client(s.url, cache_dir).news()


def test_bad_request_from_the_service_names_the_parameter(stub, cache_dir):
    """Arguments the service refuses after local checks are a ValidationError with its param."""
    from dchub import ValidationError

    s = stub(
        {
            "/api/v1/interconnection-queue/refined": (
                400,
                {},
                {"error": "min_mw: must be below 100000", "param": "min_mw"},
            )
        }
    )
    hub = client(s.url, cache_dir)
    with pytest.raises(ValidationError) as info:
        hub.queue(min_mw=5)
    assert (
        info.value.param == "min_mw"
        and info.value.status == 400
        and str(info.value) == "min_mw: must be below 100000"
    )
    assert hub.requests_sent == 1


def test_an_html_gateway_page_is_one_line(stub, cache_dir):
    from dchub import ServerError

    page = (
        "<!DOCTYPE html>\n<html><head><title>502</title></head><body><h1>Bad gateway</h1>\n"
        "<p>cloudflare</p></body></html>"
    )
    s = stub({"/api/v1/markets/list": (502, {"Content-Type": "text/html"}, page)})
    with pytest.raises(ServerError) as info:
        client(s.url, cache_dir).markets()
    msg = str(info.value)
    assert "\n" not in msg and "<" not in msg and "HTML error page" in msg


def test_403_plan_wall_and_402_preview(stub, cache_dir):
    from dchub import AuthError, GatedPreviewError

    s = stub(
        {
            "/api/v1/pipeline": (
                403,
                {},
                {
                    "success": False,
                    "error": "plan_required",
                    "message": "A key on the Developer plan opens this endpoint",
                    "required_plan": "developer",
                    "upgrade_url": "https://dchub.cloud/pricing",
                },
            ),
            "/api/site-score": (
                402,
                {},
                {
                    "status": "paid_preview",
                    "preview": True,
                    "human_message": "Site scoring is paid",
                    "upgrade_url": "https://dchub.cloud/go/c/x",
                },
            ),
        }
    )
    with pytest.raises(AuthError) as wall:
        client(s.url, cache_dir).pipeline()
    assert wall.value.status == 403 and wall.value.required_plan == "developer"
    with pytest.raises(GatedPreviewError) as paid:
        client(s.url, cache_dir).site_score(39, -77)
    assert paid.value.unlock_url == "https://dchub.cloud/go/c/x"


def test_a_redirect_to_another_origin_never_carries_the_key(stub, cache_dir):
    """Core's rule for every host: with a key set, a redirect to another origin is not followed.

    The key would have to go there, or the answer would be another service's; the error says so.
    """
    from dchub import NetworkError

    other = stub(
        {
            "/api/v1/markets/list": (
                200,
                {},
                {"success": True, "data": [{"id": "dallas", "name": "Dallas"}]},
            )
        }
    )
    first = stub({"/api/v1/markets/list": (302, {"Location": "{other}/api/v1/markets/list"}, "")})
    first.other = other.url
    with pytest.raises(NetworkError, match="the API key was not sent there") as info:
        client(first.url, cache_dir).markets()
    assert other.url in str(info.value) and KEY not in str(info.value)
    assert first.seen[0][1].get("x-api-key") == KEY  # the configured service gets it
    assert other.seen == []  # the other origin gets nothing


def test_a_same_origin_redirect_keeps_the_key(stub, cache_dir):
    s = stub(
        {
            "/api/v1/markets/list": (308, {"Location": "/api/v1/markets/list/"}, ""),
            "/api/v1/markets/list/": (200, {}, {"success": True, "data": []}),
        }
    )
    client(s.url, cache_dir).markets()
    assert [h.get("x-api-key") for _, h in s.seen] == [KEY, KEY]


def test_the_key_never_shows(stub, cache_dir, caplog):
    """Not in repr, messages, attrs, log lines or cache files, even when the service echoes it."""
    from dchub import AuthError

    s = stub(
        {
            "/api/v1/markets/list": (
                200,
                {},
                {
                    "success": True,
                    "data": [{"id": "a", "name": f"echo {KEY}"}],
                    "_cite": f"cite {KEY}",
                },
            ),
            "/api/news": (
                401,
                {},
                {
                    "error": "invalid_api_key",
                    "message": f"Invalid key {KEY}",
                    "get_key_url": "https://x",
                },
            ),
        }
    )
    caplog.set_level(logging.DEBUG, logger="dchub")
    hub = client(s.url, cache_dir)
    assert (
        KEY not in repr(hub) and KEY not in str(vars(hub)) and KEY not in repr(vars(hub._session))
    )
    df = hub.markets()
    assert KEY not in df.to_csv() and KEY not in repr(df.attrs)
    with pytest.raises(AuthError) as info:
        hub.news()
    assert KEY not in str(info.value) and KEY not in json.dumps(info.value.body)
    assert KEY not in caplog.text and "GET /api/news -> 401" in caplog.text
    for p in cache_dir.rglob("*"):
        if p.is_file():
            assert KEY not in p.read_text(errors="replace"), p.name
    with pytest.raises(TypeError):
        __import__("pickle").dumps(hub)


def test_credentials_in_the_base_url_are_refused(cache_dir):
    from dchub import Client, ValidationError

    with pytest.raises(ValidationError) as info:
        Client(base_url=f"http://user:{KEY}@127.0.0.1:9", cache_dir=cache_dir)
    assert info.value.param == "base_url" and KEY not in str(info.value)


def test_environment_configures_the_client(monkeypatch, tmp_path):
    from dchub import Client

    monkeypatch.setenv("DCHUB_BASE_URL", "http://127.0.0.1:9/")
    monkeypatch.setenv("DCHUB_API_KEY", KEY)
    monkeypatch.setenv("DCHUB_CACHE_DIR", str(tmp_path / "c"))
    hub = Client()
    assert (
        hub.base_url == "http://127.0.0.1:9"
        and hub.cache_dir == str(tmp_path / "c")
        and "api_key=set" in repr(hub)
    )
    assert Client(api_key="").quota()["tier"] == "anonymous"
    monkeypatch.delenv("DCHUB_CACHE_DIR")
    from dchub import default_cache_dir

    assert Client().cache_dir == default_cache_dir()
