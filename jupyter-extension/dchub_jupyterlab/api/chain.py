"""The chain from notebook code: queue → site score → ranking, within today's calls (``Client.chain``)."""

from __future__ import annotations

import sys
from typing import Callable

import pandas as pd

from . import params as P
from .errors import QuotaSpentError
from .shapes import isna as _isna, plain as _plain


def run_chain(hub, objectives, *, iso=None, min_mw=None, max_ttp_months=None, constraints=None, mode=None, top_k=None,
              max_sites: int = 20, budget: int | None = None, progress: Callable[[str], None] | bool = True) -> pd.DataFrame:
    """Queue → site score → ranking in one call, within today's calls (``budget``, default what is left)."""
    say = progress if callable(progress) else ((lambda m: print(f"dchub: {m}", file=sys.stderr)) if progress else (lambda m: None))
    P.parse_weights(objectives)
    start = hub.requests_sent
    left = hub._s.ledger.remaining()
    budget = left if budget is None else int(budget)
    if budget < 1:
        raise QuotaSpentError(0, hub.quota()["resets_at"].isoformat())
    say(f"the chain costs at most {max_sites + 2} calls; {left} left today")
    say("[queue] refining the interconnection queue")
    survivors = hub.queue(iso=iso, min_mw=min_mw, max_ttp_months=max_ttp_months, geocoded_only=True)
    queue_cite = survivors.attrs.get("citation")
    body_rows = survivors.to_dict("records")[:max_sites]
    candidates, skipped = [], 0
    for i, r in enumerate(body_rows):
        if _isna(r.get("lat")) or _isna(r.get("lng")):
            continue
        if hub.requests_sent - start + 2 > budget:
            skipped = len(body_rows) - i
            break
        say(f"[score] scoring {r['queue_id']} ({i + 1} of {len(body_rows)})")
        cap = None if _isna(r.get("capacity_mw")) or not r.get("capacity_mw") else float(r["capacity_mw"])
        s = hub.site_score(r["lat"], r["lng"], capacity_mw=cap)
        cand = {"id": r["queue_id"], **{k: _plain(r.get(k)) for k in ("candidate_id", "project_name", "iso", "state", "lat", "lng",
                "capacity_mw", "fiber_km", "estimated_ttp_months")}, "overall_score": _plain(s.get("overall_score"))}
        cand.update({k.split(".", 1)[1]: _plain(v) for k, v in s.items() if k.startswith("scores.")})
        cand["substations_50km"] = _plain(s.get("nearby.substations_50km"))
        candidates.append({k: (None if _isna(v) else v) for k, v in cand.items()})
    if not candidates:
        raise QuotaSpentError(budget, hub.quota()["resets_at"].isoformat())
    say(f"[rank] ranking {len(candidates)} scored sites")
    ranked = hub.rank(candidates, objectives, constraints, mode, top_k)
    say(f"[done] ranked {len(ranked)} sites with {hub.requests_sent - start} calls")
    if skipped:
        ranked.attrs["note"] = " ".join(filter(None, [ranked.attrs.get("note"),
                                        f"{skipped} survivors not scored to stay within the budget of {budget} calls."]))
    ranked.attrs["citation"] = ranked.attrs.get("citation") or queue_cite
    return ranked
