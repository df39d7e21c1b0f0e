"""The queue's list parameters (``iso``, ``fuel_type``) read by the Python API exactly as core reads
them (core/src/schemas/queue.ts ``listPattern``): the same texts and lists accepted — a trailing
separator (``PJM,``, ``solar;``) included — the same values, and the same words when refused.
Checked against core itself (node, core/dist), on chosen cases and on generated ones."""

from __future__ import annotations

import json
import random
import subprocess

import pytest
from conftest import ROOT

from dchub_jupyterlab.api.errors import ValidationError
from dchub_jupyterlab.api.queue_filters import queue_filters, queue_query

CHOSEN = {
    "iso": ["PJM,", "PJM;", "pjm , miso ;", "PJM,MISO,", "iso_ne;ercot;", "ISO NE", "isone", "ISO-NE,PJM", "PJM,PJM",
            "PJM,,MISO", ",PJM", ",", " ; ", "PJM;;", "p-j-m", "NOPE,PJM", "PJM,NOPE", "x" * 50, "", "   ", "PJM\n",
            "\tPJM\t,\tMISO\t", ["PJM", ""], ["PJM", "MISO,"], ["", "PJM"], [], ["PJM", 5], 5, True, {"a": 1}],
    "fuel_type": ["solar;", "gas,", "gas, nuclear", "gas;solar;", "gas;;solar", ";gas", " gas ", "combined  cycle",
                  "a" * 24, "a" * 25, "gas\t;solar", "solar/storage+wind-1", " gas;", "gas ;", "gas,,", "",
                  ["gas", ""], ["gas", "solar"], [1], 2.5, "é"],
}

CORE = """
const { QueueFilters, safeParseParams } = await import(process.argv[1]);
const cases = JSON.parse(process.argv[2]);
console.log(JSON.stringify(cases.map(([k, v]) => {
  const r = safeParseParams(QueueFilters, { [k]: v });
  return r.success ? { ok: r.data[k] ?? null } : { error: `${r.param}: ${r.message}` };
})));
"""


def core_reads(cases: list[tuple[str, object]]) -> list[dict]:
    script = (ROOT / "core" / "dist" / "index.js").as_uri()
    p = subprocess.run(["node", "--input-type=module", "-e", CORE, script, json.dumps(cases)], capture_output=True, text=True, check=True)
    return json.loads(p.stdout)


def python_reads(name: str, v: object) -> dict:
    try:
        got = getattr(queue_filters(**{name: v}), name)
    except ValidationError as e:
        return {"error": str(e)}
    return {"ok": list(got) if got else None}


def generated(name: str, n: int, seed: int) -> list[str]:
    """Texts near the rules' edges: ISO names or fuel words, separators, spaces, stray marks."""
    rnd = random.Random(seed)
    words = ["PJM", "ercot", "Miso", "CAISO", "spp", "NYISO", "ISO-NE", "iso ne", "ISO_NE", "isone", "NOPE"] if name == "iso" else \
        ["gas", "solar", "wind", "storage", "combined cycle", "solar/storage", "a+b", "x-1", "a" * 24, "a" * 25, "é"]
    parts = [",", ";", " ", "  ", "\t", ",,", "", "-", "_"]
    return ["".join(rnd.choice(parts) + rnd.choice(words) if rnd.random() < 0.8 else rnd.choice(parts) for _ in range(rnd.randint(1, 4)))
            + rnd.choice(["", "", ",", ";", " ,", ", "]) for _ in range(n)]


@pytest.mark.parametrize("name", ["iso", "fuel_type"])
def test_same_reading_as_core(name):
    values = CHOSEN[name] + generated(name, 400, seed=12)
    core = core_reads([(name, v) for v in values])
    mismatches = [(v, c, p) for v, c in zip(values, core) if (p := python_reads(name, v)) != c]
    assert not mismatches, mismatches[:5]
    # Both rules are exercised: some accepted, some refused.
    assert sum("ok" in c for c in core) > 20 and sum("error" in c for c in core) > 20


def test_trailing_separator_adds_nothing():
    assert queue_query(iso="PJM,", fuel_type="solar;") == queue_query(iso="PJM", fuel_type="solar")
    assert queue_query(iso=["PJM", "MISO", ""]) == [("iso", "PJM,MISO")]
    with pytest.raises(ValidationError, match=r'^iso: unknown ISO "PJM,,MISO"'):
        queue_filters(iso="PJM,,MISO")
    with pytest.raises(ValidationError, match=r"^fuel_type: must be fuel labels of 1-24 letters"):
        queue_filters(fuel_type=";gas")
