"""Core's answers as pandas objects: each column in the dtype of the kind core gave it, ``attrs``
as core described the answer, and its warnings raised as this package's warning classes.

Kinds and dtypes: ``number`` → ``Float64``, ``integer`` → ``Int64``, ``date`` → timezone-aware
``datetime64[ns, UTC]``, ``boolean`` → ``boolean``, ``text`` → ``string``; blanks are ``NA``.
"""

from __future__ import annotations

import math
import os
import warnings
from typing import Any

import pandas as pd

from .errors import AssumedAllowanceWarning, GatedPreviewWarning, StaleAnswerWarning

_DTYPES = {"number": "Float64", "integer": "Int64", "boolean": "boolean", "text": "string"}
_WARNINGS: dict[str, type[Warning]] = {"preview": GatedPreviewWarning, "stale": StaleAnswerWarning,
                                       "allowance": AssumedAllowanceWarning, "note": UserWarning}


def _column(c: dict[str, Any]) -> pd.Series:
    name, kind, values = c["name"], c["kind"], c["values"]
    if kind == "date":
        try:
            return pd.to_datetime(pd.Series(values, dtype="object"), utc=True,
                                  format="ISO8601").rename(name)
        except (ValueError, TypeError):
            kind = "text"  # a time pandas cannot read: keep the text
    values = [pd.NA if v is None else v for v in values]
    return pd.Series(values, dtype=_DTYPES.get(kind, "string"), name=name)


def timestamp(v: Any) -> pd.Timestamp | None:
    """An ISO time as a UTC Timestamp (a time without a zone is UTC); None when it is not one."""
    if not isinstance(v, str) or not v.strip():
        return None
    try:
        t = pd.Timestamp(v)
    except (ValueError, TypeError):
        return None
    return t.tz_localize("UTC") if t.tzinfo is None else t.tz_convert("UTC")


def _attrs(a: dict[str, Any]) -> dict[str, Any]:
    out = dict(a)
    if "as_of" in out:
        out["as_of"] = timestamp(out["as_of"])
    return out


def warn_all(items: list[dict[str, Any]], stacklevel: int) -> None:
    """Core's warnings as this package's warning classes (by category)."""
    for w in items:
        category = _WARNINGS.get(w.get("category"), UserWarning)
        warnings.warn(str(w.get("message", "")), category, stacklevel=stacklevel + 1)


def _warn(answer: dict[str, Any], stacklevel: int) -> None:
    warn_all(answer.get("warnings") or [], stacklevel + 1)


def to_pandas(answer: dict[str, Any], *, stacklevel: int = 3) -> Any:
    """A table as a DataFrame, a record as a Series, plain data as it is; warnings raised."""
    shape = answer.get("shape")
    if shape == "table":
        cols = [_column(c) for c in answer["columns"]]
        obj: Any = pd.DataFrame({c.name: c for c in cols}, columns=[c.name for c in cols])
    elif shape == "record":
        fields = {k: (pd.NA if v is None else v) for k, v in answer["fields"]}
        obj = pd.Series(fields, dtype="object")
    else:
        _warn(answer, stacklevel)
        return answer.get("data")
    obj.attrs.update(_attrs(answer.get("attrs") or {}))
    _warn(answer, stacklevel)
    return obj


def jsonable(v: Any) -> Any:
    """A Python value as JSON for core: numpy and pandas scalars plain, NA and NaN as null,
    frames as records, paths as text."""
    if isinstance(v, pd.DataFrame):
        return [jsonable(r) for r in v.to_dict("records")]
    if isinstance(v, pd.Series):
        return jsonable(v.to_dict())
    if isinstance(v, dict):
        return {str(k): jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple, set, frozenset)):
        return [jsonable(x) for x in v]
    if isinstance(v, os.PathLike):
        return os.fspath(v)
    if isinstance(v, pd.Timestamp):
        return v.isoformat()
    if v is None or isinstance(v, (str, bool, int)):
        return v
    if isinstance(v, float):
        return None if math.isnan(v) or math.isinf(v) else v
    try:
        if pd.isna(v):
            return None
    except (TypeError, ValueError):
        pass
    item = getattr(v, "item", None)
    return jsonable(item()) if callable(item) else v
