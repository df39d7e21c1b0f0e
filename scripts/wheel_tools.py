"""What scripts/wheel-check.py is made of besides its checks: the step counter, running a command,
the kept wheels and fresh venvs, the sandbox, and the environment a user's shell would give."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: The Pro key the sandbox knows for the wheel check's calls.
KEY = "wheel-check-pro-key-0001"


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


def wheelhouse() -> Path:
    """Where the dependencies' wheels are kept between runs (pip's HTTP cache does not keep the
    registry's answers here): ``DCHUB_WHEELHOUSE``, else the user's cache directory."""
    given = os.environ.get("DCHUB_WHEELHOUSE", "").strip()
    if given:
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME", "").strip() or str(Path.home() / ".cache")
    return Path(base) / "dchub-wheel-check" / "wheels"


def fresh_venv(venv: Path) -> Path:
    """A venv that does not see the system's site packages; its python."""
    sh([sys.executable, "-m", "venv", str(venv)])
    cfg = (venv / "pyvenv.cfg").read_text()
    if "include-system-site-packages = false" not in cfg:
        raise RuntimeError(f"the venv sees the system's site packages:\n{cfg}")
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def pip_install(python: Path, wanted: list[str], release: Path) -> None:
    """Installs ``wanted`` (wheels of the release, requirements) from the kept wheels and the
    release when they suffice, else fetches what is missing from PyPI into the kept wheels first."""
    pip = [str(python), "-m", "pip", "--disable-pip-version-check"]
    kept = wheelhouse()
    links = ["--find-links", str(kept), "--find-links", str(release)]
    offline = [*pip, "install", "--quiet", "--no-compile", "--no-index", *links, *wanted]
    try:
        sh(offline, cwd=python.parent)
    except RuntimeError:
        # First run, or a dependency changed: fetch what is missing, then install offline.
        kept.mkdir(parents=True, exist_ok=True)
        fetch = [*pip, "download", "--quiet", "--only-binary=:all:", "-d", str(kept),
                 "--find-links", str(release), *wanted]
        sh(fetch, cwd=python.parent)
        sh(offline, cwd=python.parent)


def start_sandbox() -> tuple[subprocess.Popen[str], str]:
    """The DC Hub sandbox on a free port, on this machine's node (sandbox_process.py)."""
    sys.path.insert(0, str(ROOT / "python" / "test"))
    from sandbox_process import start_sandbox as start

    return start({"DCHUB_SEED": "wheel-check", "DCHUB_SANDBOX_KEYS": f"pro={KEY}"})


def user_env(venv: Path, home: Path) -> dict[str, str]:
    """What a user's shell would hand the venv's tools, less any node: PATH is the venv's bin
    alone, HOME a fresh directory, and nothing of DC Hub's or Node's settings."""
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    keep = ("LANG", "LC_ALL", "SYSTEMROOT", "TMPDIR", "TEMP", "TMP")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    env.update({"PATH": str(bin_dir), "HOME": str(home), "USERPROFILE": str(home),
                "XDG_CACHE_HOME": str(home / ".cache"), "JUPYTER_PLATFORM_DIRS": "1"})
    return env
