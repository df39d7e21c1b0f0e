"""How narrower questions are answered from wider answers: core's derive policy (core/src/derive/policy.ts).

- ``off``: every question is its own request (and its own cache entry);
- ``exact``: a fresh cached wider answer that provably contains the answer serves it locally;
  otherwise the exact question is sent;
- ``widen``: like ``exact``, and a queue question that must go to the network is sent in its widest
  likely-complete form (its ISO set and status, limit 1000) and a DCPI item as the scores list, so
  that later related questions cost nothing.
"""

from __future__ import annotations

from typing import Any

from ..errors import ValidationError
from ..ledger import DAILY_ALLOWANCE

DERIVE_MODES = ("off", "exact", "widen")
#: Daily allowances at or under this many calls widen by default; larger ones ask exactly.
WIDEN_UP_TO_DAILY_CALLS = 500


def default_derive_mode(tier: str | None, daily_limit: int | None = None) -> str:
    """The default mode of a caller. Keyless callers get gated previews, which answer nothing but
    themselves, so widening would only spend their calls: ``exact``. Small allowances (free,
    starter, developer) widen; large ones (Pro, Enterprise) ask exactly."""
    if not tier or tier == "anonymous":
        return "exact"
    limit = DAILY_ALLOWANCE.get(tier, daily_limit)
    return "widen" if limit is not None and limit <= WIDEN_UP_TO_DAILY_CALLS else "exact"


def parse_derive_mode(v: Any) -> str | None:
    """A mode from a setting (``off``, ``exact``, ``widen``; ``False``/``"no"``/``"0"`` mean off);
    None when unset. Anything else raises :class:`ValidationError` naming ``derive``."""
    if v is None or v == "":
        return None
    if v is False:
        return "off"
    s = str(v).strip().lower()
    if s in ("false", "no", "0", "none"):
        return "off"
    if s in DERIVE_MODES:
        return s
    raise ValidationError("derive", f"must be off, exact or widen (or False), got {v!r}")
