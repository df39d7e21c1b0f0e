"""What the generated calls (``calls_*.py``) ask of a caller, typed by what it answers.

One generated method serves both clients: it returns ``self._table(...)`` (or ``_record``,
``_table_or_data``), which :class:`~.caller.Caller` answers with a DataFrame and
:class:`~.caller.AsyncCaller` with a coroutine of one. The class parameters say which, so a type
checker (and an IDE) knows ``Client().queue()`` is a DataFrame and ``AsyncClient().queue()`` an
awaitable DataFrame.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from .caller import Progress

#: What a call shaped as a table answers (a DataFrame, or an awaitable one).
Table = TypeVar("Table")
#: What a call shaped as a record answers (a Series, or an awaitable one).
Record = TypeVar("Record")
#: What a call shaped as a table or plain data answers (the MCP tools).
TableOrData = TypeVar("TableOrData")

__all__ = ["Calls", "Progress", "Record", "Table", "TableOrData"]


class Calls(Generic[Table, Record, TableOrData]):
    """The three shapes of an answer; a caller class (Caller, AsyncCaller) gives them."""

    # (name, args, *, refresh=False[, progress=False]): an answer core shapes as a table, a record,
    # or a table or plain data (the MCP tools).
    _table: Callable[..., Table]
    _record: Callable[..., Record]
    _table_or_data: Callable[..., TableOrData]
