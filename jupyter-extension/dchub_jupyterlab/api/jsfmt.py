"""JavaScript's text forms of values, so that cache keys match the ones core (TypeScript) makes.

Core names a cached answer by ``String(n)`` of each number and ``URLSearchParams.toString()`` of the
query; a POST by a fingerprint of ``JSON.stringify(body)``. The same call from Python must produce
the same text, or the CLI's cache and the notebook's would not be one cache.
"""

from __future__ import annotations

import json
import math
from decimal import Decimal
from typing import Any

__all__ = ["js_number", "js_json", "form_encode", "encode_uri_component", "cyrb53"]

_MASK = 0xFFFFFFFF


def js_number(value: float | int) -> str:
    """``String(n)`` in JavaScript: shortest round-trip digits, exponent below 1e-6 and from 1e21."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        value = float(value) if abs(value) >= 2**53 else value
        if isinstance(value, int):
            return str(value)
    x = float(value)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "0"
    sign, digits, exp = Decimal(repr(x)).normalize().as_tuple()
    ds = "".join(map(str, digits))
    k = len(ds)
    n = exp + k  # position of the decimal point relative to the digits
    if k <= n <= 21:
        out = ds + "0" * (n - k)
    elif 0 < n <= 21:
        out = ds[:n] + "." + ds[n:]
    elif -6 < n <= 0:
        out = "0." + "0" * (-n) + ds
    else:
        e = n - 1
        mant = ds[0] + ("." + ds[1:] if k > 1 else "")
        out = f"{mant}e{'+' if e >= 0 else '-'}{abs(e)}"
    return ("-" if sign else "") + out


def js_json(value: Any) -> str:
    """``JSON.stringify(value)``: no spaces, JavaScript number forms, key order kept."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return js_number(value) if math.isfinite(value) else "null"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        return "{" + ",".join(f"{json.dumps(str(k), ensure_ascii=False)}:{js_json(v)}" for k, v in value.items() if v is not _UNDEFINED) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(js_json(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


#: A dict value JSON.stringify leaves out (JavaScript's `undefined`).
_UNDEFINED = object()


_FORM_SAFE = frozenset(b"*-._0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_URI_SAFE = frozenset(b"-_.!~*'()0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


def _percent(text: str, safe: frozenset, space_plus: bool) -> str:
    out = []
    for b in text.encode("utf-8", "surrogatepass"):
        if b in safe:
            out.append(chr(b))
        elif b == 0x20 and space_plus:
            out.append("+")
        else:
            out.append(f"%{b:02X}")
    return "".join(out)


def form_encode(pairs: list[tuple[str, str]]) -> str:
    """``new URLSearchParams(pairs).toString()`` (application/x-www-form-urlencoded)."""
    return "&".join(f"{_percent(k, _FORM_SAFE, True)}={_percent(v, _FORM_SAFE, True)}" for k, v in pairs)


def encode_uri_component(text: str) -> str:
    """``encodeURIComponent(text)``."""
    return _percent(text, _URI_SAFE, False)


def _imul(a: int, b: int) -> int:
    return (a * b) & _MASK


def cyrb53(text: str) -> str:
    """Core's caller fingerprint (cyrb53 over UTF-16 code units), in base 36."""
    h1, h2 = 0xDEADBEEF, 0x41C6CE57
    units = text.encode("utf-16-le", "surrogatepass")
    for i in range(0, len(units), 2):
        c = units[i] | (units[i + 1] << 8)
        h1 = _imul(h1 ^ c, 2654435761)
        h2 = _imul(h2 ^ c, 1597334677)
    h1 = _imul(h1 ^ (h1 >> 16), 2246822507) ^ _imul(h2 ^ (h2 >> 13), 3266489909)
    h2 = _imul(h2 ^ (h2 >> 16), 2246822507) ^ _imul(h1 ^ (h1 >> 13), 3266489909)
    n = (h2 & 0x1FFFFF) * 4294967296 + (h1 & _MASK)
    return _base36(n)


def _base36(n: int) -> str:
    if n == 0:
        return "0"
    alphabet = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = []
    while n:
        n, r = divmod(n, 36)
        out.append(alphabet[r])
    return "".join(reversed(out))


def format_age(ms: float) -> str:
    """A duration for people, worded as core's ``formatAge``: ``45 s``, ``12 min``, ``3 h 5 min``, ``2 days``."""
    s = max(0, math.floor(ms / 1000 + 0.5))  # Math.round: halves up, not to even
    if s < 60:
        return f"{s} s"
    m = s // 60
    if m < 60:
        return f"{m} min"
    h = m // 60
    if h < 48:
        return f"{h} h {m % 60} min" if m % 60 else f"{h} h"
    return f"{h // 24} days"
