"""The Python API is typed from core's schemas: the generated modules are current, a type checker
holds a caller to them, and the error classes are core's (no sandbox needed)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap

from conftest import ROOT

#: Code a type checker must accept: the calls as documented, their answers as typed.
ACCEPTED = """
    import pandas as pd
    from dchub import Client, ValidationError

    hub = Client(cache=False, derive="widen")
    survivors: pd.DataFrame = hub.queue(iso=["PJM", "MISO"], min_mw=200)
    hub.queue(iso="PJM,MISO", max_ttp_months=36.5, baseload_only=True, limit=50, refresh=True)
    score: pd.Series = hub.site_score(39.04, -77.49, capacity_mw=100)
    ranked: pd.DataFrame = hub.rank(survivors, {"overall_score": 1}, mode="percentile")
    hub.chain("overall_score:1,fiber_km:-1", iso="ERCOT", progress=print)
    board: pd.DataFrame = hub.dcpi(verdict="BUILD", limit=10)
    one: pd.Series = hub.dcpi("nova", ["verdict", "composite_score"])
    hub.deals(deal_type="merger", year=2024)
    hub.fuel_mix("ISONE")
    answer = hub.tool("get_news", limit=3)
    frame = answer if isinstance(answer, pd.DataFrame) else pd.DataFrame()
    left: int = hub.quota()["remaining"]
    share = hub.quota()["gateway"]
    team: int | None = share["team_limit"] if share else None
    held: int = hub.cache_info()["answers"]
    err = ValidationError("min_mw", "must be at least 0")
"""

#: Code a type checker must refuse, one call each (the line marked `# refused`).
REFUSED = {
    "iso_number": "hub.queue(iso=123)  # refused",
    "site_score_text": 'hub.site_score("a", "b")  # refused',
    "unknown_argument": "hub.queue(isos=['PJM'])  # refused",
    "deal_type_word": 'hub.deals(deal_type="mergers")  # refused',
    "tool_name": 'hub.tool("get_everything")  # refused',
    "quota_key": 'hub.quota()["remainder"]  # refused',
    "record_not_table": 'frame: pd.DataFrame = hub.dcpi("nova")  # refused',
    "clock_hook": "Client(now=lambda: 0.0)  # refused",
    "error_class": "from dchub import NotFoundError as E\nn: int = E('x')  # refused",
}


def _module(body: str) -> str:
    head = "import pandas as pd\nfrom dchub import Client\n\nhub = Client()\n"
    return head + textwrap.dedent(body) + "\n"


def test_the_generated_modules_are_what_core_s_schemas_generate():
    # scripts/gen-python.mjs writes them; --check compares (with core built and the venv's ruff).
    p = subprocess.run(
        ["node", str(ROOT / "scripts" / "gen-python.mjs"), "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 0, p.stderr or p.stdout


def test_a_type_checker_accepts_the_documented_calls_and_refuses_the_wrong_ones(tmp_path):
    files = {"accepted": textwrap.dedent(ACCEPTED)}
    files.update({name: _module(line) for name, line in REFUSED.items()})
    for name, text in files.items():
        (tmp_path / f"{name}.py").write_text(text)
    # The package as checked out (not an installed copy), checked as a user's code is: --strict.
    env = {**os.environ, "MYPYPATH": str(ROOT / "python")}
    cache = ROOT / "python" / ".mypy_cache"
    args = ["--strict", "--python-version", "3.10", "--cache-dir", str(cache), "--no-error-summary"]
    p = subprocess.run(
        [sys.executable, "-m", "mypy", *args, *sorted(f"{n}.py" for n in files)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    errors: dict[str, list[str]] = {}
    for line in p.stdout.splitlines():
        m = re.match(r"(\w+)\.py:(\d+): error: (.*)", line)
        if m:
            errors.setdefault(m.group(1), []).append(f"{m.group(2)}: {m.group(3)}")
    assert "accepted" not in errors, "\n".join(errors["accepted"]) + "\n" + p.stderr
    for name, text in files.items():
        if name == "accepted":
            continue
        marked = next(i for i, t in enumerate(text.splitlines(), 1) if t.endswith("# refused"))
        assert [e for e in errors.get(name, []) if e.startswith(f"{marked}: ")], (name, p.stdout)


def test_each_error_class_core_reports_is_the_python_class_of_that_name():
    from dchub.api import errors
    from dchub.api.core_types import ERROR_TYPES

    for name, spec in ERROR_TYPES.items():
        cls = getattr(errors, name)
        assert cls.kind == spec.kind, name
        assert cls.__bases__[0].__name__ == spec.base, name


def test_an_engine_error_becomes_its_class_with_core_s_fields():
    from dchub import DchubError, QuotaSpentError, RateLimitError, ValidationError
    from dchub.api.errors import error_from_engine

    data = {"type": "QuotaSpentError", "kind": "rate_limit", "status": 429, "body": None}
    spent = error_from_engine("allowance spent", -32000, {**data, "limit": 10, "reset_at": "t"})
    assert isinstance(spent, QuotaSpentError) and isinstance(spent, RateLimitError)
    assert (spent.limit, spent.reset_at, spent.retry_after_seconds) == (10, "t", None)
    assert str(spent) == "allowance spent" and spent.kind == "rate_limit"
    said = {"type": "ValidationError", "param": "min_mw"}
    bad = error_from_engine("min_mw: must be at least 0", -32000, said)
    assert (
        isinstance(bad, ValidationError) and isinstance(bad, ValueError) and bad.param == "min_mw"
    )
    assert str(bad) == "min_mw: must be at least 0"
    crashed = error_from_engine("boom", -32603, {})
    assert type(crashed) is DchubError and str(crashed) == "DC Hub's engine failed: boom"
