"""The notebook that draws each chart kind: its setup cell and one cell per chart, shared by the
notebook test (test_notebook_pictures.py) and the wheel check (scripts/wheel-check.py). The kernel's
environment names the service (DCHUB_BASE_URL, DCHUB_API_KEY, DCHUB_CACHE_DIR) and the renderer
(DCHUB_TEST_RENDERER)."""

from __future__ import annotations

SETUP = """import os
from dchub import Client, charts
charts.renderer = os.environ["DCHUB_TEST_RENDERER"]
hub = Client()  # DCHUB_BASE_URL, DCHUB_API_KEY, DCHUB_CACHE_DIR from the kernel's environment
queue = hub.queue(iso="PJM,ERCOT,MISO", limit=1000)
scores = hub.dcpi_scores()
board = hub.dcpi(limit=15)
briefs = hub.briefs()
sites = queue.rename(columns={"queue_id": "id"})[["id", "lat", "lng", "capacity_mw", "fiber_km"]]
ranked = hub.rank(sites.dropna().head(12), {"capacity_mw": 1, "fiber_km": -1}, top_k=6)
site = hub.site_score(39.04, -77.49, capacity_mw=100)"""

CHARTS = {
    "queue_map": "charts.queue_map(queue)",
    "queue_mix": "charts.queue_mix(queue)",
    "queue_time_to_power": "charts.queue_time_to_power(queue, max_ttp_months=36)",
    "leaderboard": "charts.leaderboard(board)",
    "markets_map": "charts.markets_map(scores)",
    "market_quadrant": "charts.market_quadrant(scores)",
    "market_time_to_power": "charts.market_time_to_power(briefs, max_ttp_months=30)",
    "ranking": "charts.ranking(ranked)",
    "site_score": "charts.site_score(site)",
}
