"""Core's answers as pandas objects.

Each column in the dtype of the kind core gave it, ``attrs`` as core described the answer, and its
warnings raised as this package's warning classes.

Kinds and dtypes: ``number`` → ``Float64``, ``integer`` → ``Int64``, ``date`` → timezone-aware
``datetime64[ns, UTC]``, ``boolean`` → ``boolean``, ``text`` → ``string``; blanks are ``NA``.
"""

from __future__ import annotations

import math
import os
import warnings
from typing import Any, TypeAlias, TypeVar

import pandas as pd

from .errors import (
    AssumedAllowanceWarning,
    DchubError,
    GatedPreviewWarning,
    StaleAnswerWarning,
)

#: A JSON value, as core answers plain data.
Json: TypeAlias = "dict[str, Json] | list[Json] | str | int | float | bool | None"

_DTYPES = {"number": "Float64", "integer": "Int64", "boolean": "boolean", "text": "string"}
_WARNINGS: dict[str, type[Warning]] = {
    "preview": GatedPreviewWarning,
    "stale": StaleAnswerWarning,
    "allowance": AssumedAllowanceWarning,
    "note": UserWarning,
}


def _column(c: dict[str, Any]) -> pd.Series:
    name, kind, values = str(c["name"]), str(c["kind"]), list(c["values"])
    if kind == "date":
        try:
            times: pd.Series = pd.to_datetime(
                pd.Series(values, dtype="object"), utc=True, format="ISO8601"
            )
            times.name = name
            return times
        except (ValueError, TypeError):
            kind = "text"  # a time pandas cannot read: keep the text
    cells = [pd.NA if v is None else v for v in values]
    column: pd.Series = pd.Series(cells, dtype=_DTYPES.get(kind, "string"), name=name)
    return column


def timestamp(v: Any) -> pd.Timestamp | None:
    """An ISO time as a UTC Timestamp (a time without a zone is UTC); None when it is not one."""
    if not isinstance(v, str) or not v.strip():
        return None
    try:
        t = pd.Timestamp(v)
    except (ValueError, TypeError):
        return None
    utc: pd.Timestamp = t.tz_localize("UTC") if t.tzinfo is None else t.tz_convert("UTC")
    return utc


def _attrs(a: dict[str, Any]) -> dict[str, Any]:
    out = dict(a)
    if "as_of" in out:
        out["as_of"] = timestamp(out["as_of"])
    return out


def warn_all(items: list[dict[str, Any]], stacklevel: int) -> None:
    """Core's warnings as this package's warning classes (by category)."""
    for w in items:
        category = _WARNINGS.get(str(w.get("category")), UserWarning)
        warnings.warn(str(w.get("message", "")), category, stacklevel=stacklevel + 1)


def _warn(answer: dict[str, Any], stacklevel: int) -> None:
    warn_all(answer.get("warnings") or [], stacklevel + 1)


def _pandas(answer: dict[str, Any]) -> pd.DataFrame | pd.Series | None:
    """A table as a DataFrame, a record as a Series, with their ``attrs``; None for plain data."""
    shape = answer.get("shape")
    obj: pd.DataFrame | pd.Series
    if shape == "table":
        cols = [_column(c) for c in answer["columns"]]
        obj = pd.DataFrame({c.name: c for c in cols}, columns=[c.name for c in cols])
    elif shape == "record":
        fields = {str(k): (pd.NA if v is None else v) for k, v in answer["fields"]}
        obj = pd.Series(fields, dtype="object")
    else:
        return None
    obj.attrs.update(_attrs(answer.get("attrs") or {}))
    return obj


def to_table_or_data(answer: dict[str, Any], *, stacklevel: int = 3) -> pd.DataFrame | Json:
    """A table as a DataFrame, plain data as it is; warnings raised."""
    if answer.get("shape") == "data":
        _warn(answer, stacklevel)
        data: Json = answer.get("data")
        return data
    return _shaped(answer, pd.DataFrame, stacklevel + 1)


def to_table(answer: dict[str, Any], *, stacklevel: int = 3) -> pd.DataFrame:
    """An answer core shapes as a table, as a DataFrame; warnings raised."""
    return _shaped(answer, pd.DataFrame, stacklevel + 1)


def to_record(answer: dict[str, Any], *, stacklevel: int = 3) -> pd.Series:
    """An answer core shapes as a record, as a Series of its fields; warnings raised."""
    return _shaped(answer, pd.Series, stacklevel + 1)


_Shaped = TypeVar("_Shaped", pd.DataFrame, pd.Series)


def _shaped(answer: dict[str, Any], kind: type[_Shaped], stacklevel: int) -> _Shaped:
    obj = _pandas(answer)
    if not isinstance(obj, kind):
        raise DchubError(
            f"DC Hub's engine answered with {answer.get('shape')!r}, not a {kind.__name__}"
        )
    _warn(answer, stacklevel)
    return obj


def argument_json(args: dict[str, Any]) -> dict[str, Any]:
    """A call's arguments as JSON for core.

    A NaN or infinite number given as an argument goes as its name ("NaN", "Infinity"), so that
    core says it is not a number (as null it would read as missing); in data they stay null.
    """
    out: dict[str, Any] = jsonable(args)
    for k, v in args.items():
        if isinstance(v, float) and not math.isfinite(v):
            out[k] = "NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity")
    return out


def jsonable(v: Any) -> Any:
    """A Python value as JSON for core.

    Numpy and pandas scalars plain, NA and NaN as null, frames as records, paths as text.
    """
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
