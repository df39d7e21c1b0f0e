"""Contract: Python's daily ledger is core's, step for step.

The same scripted days run through core's ``QuotaLedger`` (Node, over its ``DirectoryStore``) and
through Python's, each in its own directory; after every step both must have answered the same
(granted or refused, the same warning, the same snapshot) and stored the same state text, byte for
byte. The scripts cover what the ledger decides on: an assumed allowance (warns, never refuses), a
stated one (headers with a daily limit, whoami, a 429), the real service's bare per-minute
Remaining, a new day, a caller-stated tier, and a state written by an older version.
"""

from __future__ import annotations

import json
import subprocess

import pytest

from conftest import ROOT

DAY0 = 1_795_300_000_000  # 2026-11-21T22:26:40Z: a day ends within a script
DAY = 86_400_000

NODE = r"""
import { readFileSync } from 'node:fs';
import { QuotaLedger } from '@dchub/core';
import { DirectoryStore } from '@dchub/core/node';
const { dir, caller, opts, steps } = JSON.parse(readFileSync(0, 'utf8'));
let now = steps.length ? steps[0].now : 0;
const store = new DirectoryStore(dir);
const out = [];
for (const step of steps) {
  now = step.now;
  // A new ledger per step, as each CLI run makes one (state read back from the directory).
  const ledger = new QuotaLedger(store, caller, { ...opts, now: () => now });
  let result = null;
  if (step.op === 'seed') await store.set(`dchub:quota:${caller}`, step.text);
  else if (step.op === 'reserve') result = await ledger.reserveCall(step.n ?? 1);
  else if (step.op === 'release') await ledger.release(step.n ?? 1);
  else if (step.op === 'correct') await ledger.correct(new Headers(step.headers));
  else if (step.op === 'confirm') await ledger.confirm(step.facts);
  else if (step.op === 'exhaust') await ledger.exhaust();
  const snap = await ledger.snapshot();
  out.push({ result, snap, text: (await store.get(`dchub:quota:${caller}`)) ?? null });
}
process.stdout.write(JSON.stringify(out));
"""


class Headers(dict):
    """Case-insensitive lookups like the HTTP headers the ledger is given."""

    def get(self, key, default=None):
        for k, v in self.items():
            if k.lower() == key.lower():
                return v
        return default


def run_core(tmp_path, caller, opts, steps):
    d = tmp_path / "core"
    p = subprocess.run(["node", "--input-type=module", "-e", NODE], cwd=ROOT / "core",
                       input=json.dumps({"dir": str(d), "caller": caller, "opts": opts, "steps": steps}),
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def run_python(tmp_path, caller, opts, steps):
    from dchub_jupyterlab.api.ledger import QuotaLedger
    from dchub_jupyterlab.api.store import DirectoryStore

    store = DirectoryStore(tmp_path / "python")
    out = []
    for step in steps:
        ledger = QuotaLedger(store, caller, tier=opts.get("tier"), confirmed=opts.get("confirmed", False),
                             now=lambda: step["now"])
        result = None
        op = step["op"]
        if op == "seed":
            store.set(f"dchub:quota:{caller}", step["text"])
        elif op == "reserve":
            ok, warning = ledger.reserve(step.get("n", 1))
            result = {"ok": ok, **({"warning": warning} if warning else {})}
        elif op == "release":
            ledger.release(step.get("n", 1))
        elif op == "correct":
            ledger.correct(Headers(step["headers"]))
        elif op == "confirm":
            ledger.confirm(**step["facts"])
        elif op == "exhaust":
            ledger.exhaust()
        snap = ledger.snapshot()
        out.append({"result": result, "snap": {"day": snap["day"], "used": snap["used"], "limit": snap["limit"],
                                               "tier": snap["tier"], "confirmed": snap["confirmed"],
                                               "remaining": snap["remaining"], "resetsAt": snap["resets_at"]},
                    "text": store.get(f"dchub:quota:{caller}")})
    return out


def steps_of(*ops):
    """Timestamps: each op a minute after the last; an op {"op": "next_day"} moves a day on."""
    t, out = DAY0, []
    for o in ops:
        if o.get("op") == "next_day":
            t += DAY
            continue
        t += 60_000
        out.append({**o, "now": t})
    return out


R = {"op": "reserve"}
SCRIPTS = {
    "keyed, assumed: warns past the free tier's 10 and never refuses": (
        {"tier": "free"}, steps_of(*[R] * 12, {"op": "release"}, R)),
    "keyless, the spec's headers state the allowance, then it refuses": (
        {"tier": "anonymous"},
        steps_of(R, {"op": "correct", "headers": {"X-RateLimit-Limit": "10", "X-RateLimit-Remaining": "6",
                                                   "X-RateLimit-Reset": "1795478400", "X-RateLimit-Tier": "anonymous"}},
                 *[R] * 8)),
    "the real per-minute Remaining alone says nothing about the day": (
        {"tier": "free"},
        steps_of(R, {"op": "correct", "headers": {"X-RateLimit-Remaining": "119"}},
                 {"op": "correct", "headers": {"X-RateLimit-Remaining": "118", "X-RateLimit-Tier": "pro"}},
                 *[R] * 3, {"op": "correct", "headers": {"X-RateLimit-Limit": "2000", "X-RateLimit-Remaining": "117",
                                                          "X-RateLimit-Tier": "pro"}}, R)),
    "a 429 makes the day spent and known; the next day starts known with the stated limit": (
        {"tier": "free"},
        steps_of(R, R, {"op": "exhaust"}, R, {"op": "next_day"}, R, R)),
    "whoami states the calls left": (
        {"tier": "free"},
        steps_of(R, {"op": "confirm", "facts": {"remaining": 40}}, R,
                 {"op": "confirm", "facts": {"tier": "identified", "limit": 50, "remaining": 1}}, R, R)),
    "a tier the caller states is known from the start": (
        {"tier": "starter", "confirmed": True}, steps_of(*[R] * 3, {"op": "reserve", "n": 198}, R)),
    "an older state's `confirmed` is read as assumed": (
        {"tier": "free"},
        steps_of({"op": "seed", "text": json.dumps({"day": "2026-11-21", "used": 10, "limit": 10, "tier": "free",
                                                   "confirmed": True}, separators=(",", ":"))},
                 R, R, {"op": "next_day"}, R)),
    "an unreadable state starts a fresh, assumed day": (
        {"tier": "anonymous"}, steps_of({"op": "seed", "text": "{not json"}, R, R)),
}


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_python_ledger_is_cores(tmp_path, name):
    opts, steps = SCRIPTS[name]
    caller = "127.0.0.1:8787:kcontract"
    core = run_core(tmp_path, caller, opts, steps)
    python = run_python(tmp_path, caller, opts, steps)
    for i, (c, p) in enumerate(zip(core, python, strict=True)):
        assert p == c, f"step {i} ({steps[i]['op']}): python {p} != core {c}"
    # The script means something: at least one state was written and one decision made.
    assert any(c["result"] for c in core) and core[-1]["text"]


def test_refusal_and_warning_are_what_core_decides(tmp_path):
    """Spelled out for one script, so a change on both sides at once still fails here."""
    opts, steps = SCRIPTS["keyless, the spec's headers state the allowance, then it refuses"]
    out = run_python(tmp_path, "h:anon", opts, steps)
    results = [o["result"] for o in out if o["result"] is not None]
    # One call, then the headers say 4 are used: 6 more go, the last 2 are refused without a request.
    assert [r["ok"] for r in results] == [True] * 7 + [False] * 2
    assert json.loads(out[-1]["text"]) == {"day": "2026-11-21", "used": 10, "limit": 10, "tier": "anonymous", "known": True}
    opts, steps = SCRIPTS["keyed, assumed: warns past the free tier's 10 and never refuses"]
    out = run_python(tmp_path, "h:kfree", opts, steps)
    results = [o["result"] for o in out if o["result"] is not None]
    assert all(r["ok"] for r in results)
    assert results[10]["warning"] == ("more than the assumed 10 calls a day (free tier) were used; "
                                      "the service has not stated its limit, so calls continue")
    assert "warning" not in results[9]
