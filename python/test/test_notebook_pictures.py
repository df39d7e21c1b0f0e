"""A notebook that draws each chart kind, run by nbclient on an ipykernel with the dchub package
(issue 27): under the default renderer its saved outputs carry a static picture for each kind, and
``jupyter nbconvert --to html`` of it shows them. Run once per renderer, it measures what each chart
kind adds to a saved notebook (written to test-results/notebook-chart-sizes.json)."""

from __future__ import annotations

import base64
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from chart_notebook import CHARTS, SETUP
from nbclient import NotebookClient

from conftest import KEYS, ROOT

MIME = "application/vnd.vegalite.v5+json"
PICTURES = ("image/svg+xml", "image/png")

def run_notebook(path: Path, renderer: str) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(SETUP)] + [
        nbformat.v4.new_code_cell(code, metadata={"chart": name}) for name, code in CHARTS.items()
    ]
    os.environ["DCHUB_TEST_RENDERER"] = renderer
    NotebookClient(
        nb, timeout=180, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    ).execute()
    nbformat.write(nb, path)
    return nbformat.read(path, as_version=4)


def chart_outputs(nb: nbformat.NotebookNode) -> dict[str, list]:
    return {c.metadata["chart"]: c.outputs for c in nb.cells if "chart" in c.metadata}


@pytest.fixture
def kernel_env(sandbox, cache_dir, monkeypatch):
    monkeypatch.setenv("DCHUB_BASE_URL", sandbox.url)
    monkeypatch.setenv("DCHUB_API_KEY", KEYS["pro"])
    monkeypatch.setenv("DCHUB_CACHE_DIR", str(cache_dir))


def test_saved_notebook_carries_pictures_and_nbconvert_shows_them(kernel_env, tmp_path):
    path = tmp_path / "charts.ipynb"
    nb = run_notebook(path, "both")
    sizes: dict[str, dict[str, int]] = {}
    for name, outputs in chart_outputs(nb).items():
        data = [o for o in outputs if o.output_type == "execute_result"][0].data
        pictures = [m for m in PICTURES if m in data]
        assert MIME in data and len(pictures) == 1, name
        sizes[name] = {
            "both": len(json.dumps(outputs, indent=1)),
            "picture": pictures[0] == "image/png",
        }
    saved = path.read_text()
    assert KEYS["pro"] not in saved
    # nbconvert's HTML shows a picture per chart: an <img> of the SVG or of the PNG.
    html = tmp_path / "charts.html"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "jupyter",
            "nbconvert",
            "--to",
            "html",
            str(path),
            "--output",
            str(html),
        ],
        check=True,
        capture_output=True,
    )
    page = html.read_text()
    svgs = re.findall(r"<img[^>]*src=\"data:image/svg\+xml;base64,([^\"]+)\"", page)
    imgs = len(re.findall(r"<img[^>]*src=\"data:image/png;base64,", page))
    pngs = sum(1 for s in sizes.values() if s["picture"])
    assert (len(svgs), imgs) == (len(CHARTS) - pngs, pngs)
    drawn = " ".join(base64.b64decode(s).decode() for s in svgs)
    assert "Queued capacity by ISO and fuel" in drawn and "Time to power by ISO" in drawn
    assert KEYS["pro"] not in page
    # What each chart kind adds to the saved notebook, per renderer.
    for renderer in ("vega-lite", "static"):
        other = run_notebook(tmp_path / f"charts-{renderer}.ipynb", renderer)
        for name, outputs in chart_outputs(other).items():
            data = [o for o in outputs if o.output_type == "execute_result"][0].data
            assert (MIME in data) == (renderer == "vega-lite"), name
            assert any(m in data for m in PICTURES) == (renderer == "static"), name
            sizes[name][renderer] = len(json.dumps(outputs, indent=1))
    out = ROOT / "test-results" / "notebook-chart-sizes.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(sizes, indent=1))
    for name, s in sizes.items():
        assert s["vega-lite"] < s["both"] and s["static"] < s["both"], name
