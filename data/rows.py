"""How records are stored: JSON as the store writes it, the few conversions between a record's values and
its columns, and :class:`Rows`, which reads a record from a row and gives its values to write.

A record is a dataclass whose fields are the columns of the same names. A field stored other than as it is
says so where it is declared (``resigned: bool = column(FLAG, default=False)``); a field no column holds
(``GameRecord.seats``) is declared :func:`derived`, and the repository gives it to :meth:`Rows.read`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Generic, TypeVar

import orjson

from data.engine import Row

R = TypeVar("R")


def dumps(value: Any) -> str:
    """JSON as the store writes it: compact, in UTF-8 as it is.

    Written by orjson: in the scale bench's bursts an action writes 3.3 values of 6.8 KB on average (its
    game's state, its board's outbox row with the whole view), 58 µs on the event loop against 199 with
    ``json``. What orjson refuses (an integer beyond 64 bits) the standard library writes. (A float that is
    not a number would be written as ``null``, where ``json`` wrote ``NaN``: no state or view holds one.)"""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # orjson.JSONEncodeError
        return json.dumps(value, separators=(",", ":"))


def loads(text: str | bytes) -> Any:
    """A value the store wrote (by :func:`dumps`, or by ``json`` before it), read by orjson (an action reads
    5.1 values of 4.0 KB: 60 µs against 84); what orjson refuses (``NaN``, an integer beyond 64 bits) by the
    standard library."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def _dumps_or_null(value: Any) -> str | None:
    return dumps(value) if value else None


def _loads_or_none(text: str | None) -> Any:
    return loads(text) if text else None


@dataclass(frozen=True, slots=True)
class Conversion:
    """How a value is written to its column (``write``) and read back (``read``)."""

    read: Callable[[Any], Any]
    write: Callable[[Any], Any]


FLAG = Conversion(bool, int)
"""A boolean, stored as 0 or 1 (the schema's flags are ``INTEGER`` columns on both engines)."""
JSON = Conversion(loads, dumps)
"""A JSON value (a list, a dict), stored as its text."""
MAYBE_JSON = Conversion(_loads_or_none, _dumps_or_null)
"""A JSON value that may be missing: ``None`` or an empty value is stored as ``NULL`` and read as ``None``."""

_CONVERSION, _DERIVED = "data.rows.conversion", "data.rows.derived"
"""The field metadata :class:`Rows` reads: how a field is stored, or that no column holds it."""


def column(conversion: Conversion, **options: Any) -> Any:
    """A record field stored by ``conversion``; ``options`` are :func:`dataclasses.field`'s (``default``…)."""
    return field(metadata={_CONVERSION: conversion}, **options)


def derived(**options: Any) -> Any:
    """A record field that no column holds: the repository works it out and gives it to :meth:`Rows.read`."""
    return field(metadata={_DERIVED: True}, **options)


class Rows(Generic[R]):
    """The one mapping between a record class and rows: each field not :func:`derived` is read from the
    column of its name and written to it, converted as its declaration says (as it is otherwise)."""

    __slots__ = ("_reads", "_record", "_writes")

    def __init__(self, record: type[R]) -> None:
        self._record = record
        stored = [f for f in fields(record) if not f.metadata.get(_DERIVED)]  # type: ignore[arg-type]
        conversions = {f.name: f.metadata.get(_CONVERSION) for f in stored}
        self._reads = tuple((name, c and c.read) for name, c in conversions.items())
        self._writes = {name: c and c.write for name, c in conversions.items()}

    def read(self, row: Row, **given: Any) -> R:
        """The record a row holds, with its :func:`derived` fields ``given``."""
        for name, convert in self._reads:
            value = row[name]
            given[name] = value if convert is None else convert(value)
        return self._record(**given)

    def values(self, record: R, names: Sequence[str]) -> tuple[Any, ...]:
        """What ``record``'s fields ``names`` are written as, in that order (a statement's arguments)."""
        out = []
        for name in names:
            value, convert = getattr(record, name), self._writes[name]
            out.append(value if convert is None else convert(value))
        return tuple(out)
