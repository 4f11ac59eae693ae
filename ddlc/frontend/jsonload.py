"""JSON loading for the readers: one C pass for a document without floats (msgspec), otherwise orjson, exact
numbers when a float would lose digits, and the input errors JSON itself does not have (invalid UTF-8 with its
byte offset, ``NaN``), plus the check for strings no target can write (NUL, lone surrogates)."""

from __future__ import annotations

from decimal import Decimal
from collections.abc import Mapping
from typing import Any

import msgspec
import orjson

from .. import lazyre
from ..diagnostics import E_INPUT
from ..errors import DdlcError, Path

__all__ = ["InputError", "loads", "load", "text_error", "utf8_error"]

# A JSON number whose text a float would not keep (``2.50``, ``1e3``): such documents are parsed
# with Decimal so that ``%n`` prints the server's digits. Strings may match too; that only costs speed.
# (One leading class, so that the scan only stops at digits: six times faster on long strings.)
_INEXACT = lazyre.compile(rb"[0-9](?:\.[0-9]*0(?![0-9])|[eE][-+]?[0-9]|[0-9]{18})")  # (compiled when first met)
# ... and its cheap sieve: every match of _INEXACT is a digit followed by ".", "e", "E" or 18 more
# digits, which in the text mapped by _NUMBERS (digits -> "0", ".eE" -> ".", the rest -> " ") is a
# "0." or nineteen "0"s: one C pass and a search for a literal, about a sixth of _INEXACT's cost.
_NUMBERS = bytes(0x30 if 0x30 <= b <= 0x39 else 0x2E if b in b".eE" else 0x20 for b in range(256))
_SIEVE = lazyre.compile(rb"0(?:\.|0{18})")
_SURROGATE = lazyre.compile("[\ud800-\udfff]")


class InputError(orjson.JSONDecodeError):
    """Bytes that are no JSON document: invalid UTF-8 (``pos``: its byte offset), ``NaN``..."""

    def __init__(self, msg: str, pos: int = 0) -> None:
        ValueError.__init__(self, msg)
        self.msg, self.doc, self.pos, self.lineno, self.colno = msg, "", pos, 1, pos + 1

    def __str__(self) -> str:
        return self.msg


def loads(data: bytes) -> Any:
    """Parse one JSON text; numbers keep their exact digits when a float would lose them.

    Raises :class:`orjson.JSONDecodeError` (:class:`InputError` for invalid UTF-8 and for
    ``NaN``/``Infinity``, which are not JSON)."""
    return _load(data)[0]


class _Float(Exception):
    """A number with a fraction or an exponent, met by the first parse (:func:`_load`)."""


def _no_float(text: str) -> Any:
    raise _Float


# A document without a number that has a fraction or an exponent (JDDL trees hold strings, booleans and a few
# integers) is read by one C pass: msgspec, which stops at the first such number (its float_hook). Without
# one, the value is orjson's (msgspec's integers are Python ints, as orjson's within 64 bits and as
# json.loads's beyond, which is where _load_exact takes them) and none of the checks below can tell anything.
_DECODE = msgspec.json.Decoder(float_hook=_no_float).decode


def _load(data: bytes) -> tuple[Any, bool]:
    """``(value, suspect)``: ``suspect`` when a string of it may hold NUL or a lone surrogate."""
    try:
        value = _DECODE(data)
    except Exception:  # noqa: BLE001 - a float, or anything msgspec refuses: orjson's and json's own reading
        return _load_exact(data)
    # (msgspec refuses a lone surrogate, as orjson does: only "\u0000" can put a character no target writes)
    return value, b"\\" in data and b"\\u0000" in data


def _load_exact(data: bytes) -> tuple[Any, bool]:
    """:func:`_load` of a document with a fraction or an exponent, or one the first parse refused: numbers with
    exact digits where a float would lose them, and the error orjson (or the standard parser) gives."""
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        import json  # (here, not at the top: start-up; the standard parser is only the fallback)

        if "UTF-8" in str(exc) and json.detect_encoding(data) == "utf-8":
            raise _utf8_error(data, exc) from None
        # maybe an integer beyond 64 bits or a lone surrogate, which the standard parser takes
    else:
        if _SIEVE.search(data.translate(_NUMBERS)) is None or _INEXACT.search(data) is None:
            # (a search for one byte is memchr's: most documents hold no escape at all)
            return value, b"\\" in data and b"\\u0000" in data
        if not _has_float(value):  # the digits matched are in strings: the standard parser gives the same value
            return value, b"\\u" in data
    import json

    try:
        # (suspect whatever it holds: the standard parser decodes with surrogatepass, so a lone surrogate may come
        # from raw bytes, a byte order mark's UTF-8 or UTF-16, as well as from a "\\u" escape)
        return json.loads(data, parse_float=_decimal, parse_constant=_constant), True
    except _NonFinite as exc:
        raise InputError(f"{exc.args[0]} is not valid JSON (JSON numbers are finite)") from None
    except _OutOfRange as exc:
        raise InputError(f'invalid input syntax for type numeric: "{exc.args[0][:40]}" (a tree is a jsonb '
                         "value: its numbers are numerics, exponents within +-1000)") from None
    except (ValueError, RecursionError):
        # raises orjson.JSONDecodeError with its precise message (or parses what json could not)
        return orjson.loads(data), b"\\u0000" in data


def _has_float(value: Any) -> bool:
    """Whether a value orjson parsed holds a float, i.e. its text a number with a fraction or an exponent. One
    that holds none (its other numbers integers, exact in both) is what ``json.loads`` gives with the exact
    numbers, and raises nothing there: orjson took it, so it is valid JSON, UTF-8, without a lone surrogate."""
    stack = [value]
    pop, more = stack.pop, stack.extend
    while stack:
        v = pop()
        cls = type(v)
        if cls is dict:
            more(v.values())
        elif cls is list:
            more(v)
        elif cls is float:
            return True
    return False


class _NonFinite(ValueError):
    pass


class _OutOfRange(ValueError):
    pass


def _decimal(text: str) -> Decimal:
    """A number with a fraction or an exponent, exactly; its exponent checked as ``numeric_in`` does
    before anything is built from it (``9e999999999`` printed by ``%n`` would be a billion digits)."""
    exponent = text.partition("e")[2] or text.partition("E")[2]
    digits = exponent.lstrip("+-").lstrip("0")
    if len(digits) > 4 or int(digits or "0") > 1000:
        raise _OutOfRange(text)
    return Decimal(text)


def _constant(name: str) -> Any:
    raise _NonFinite(name)


def _utf8_error(data: bytes, exc: Exception, base: int = 0) -> orjson.JSONDecodeError:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as bad:
        return InputError(f"invalid UTF-8 at byte {base + bad.start}: {bad.reason}", base + bad.start)
    return exc  # type: ignore[return-value]


def text_error(value: Any) -> DdlcError | None:
    """The first string (or key) of ``value`` that holds NUL or a lone surrogate, as an error with
    its JSON path: no target can write either (psql cuts a line at NUL; UTF-8 has no surrogates)."""
    try:
        if b"\\u0000" not in orjson.dumps(value, default=str):
            return None  # orjson refuses lone surrogates: this one C pass clears the common case
    except (orjson.JSONEncodeError, TypeError):
        pass
    stack: list[tuple[Any, Path]] = [(value, ())]
    met: set[int] = set()  # the containers walked: each once (a library caller's value may share or hold itself)
    while stack:
        v, path = stack.pop()
        if isinstance(v, str):
            problem = _text_problem(v)
            if problem:
                return _text_err(problem, "string", v, path)
            continue
        if id(v) in met:  # (met again: its strings were read where it was first met; a cycle ends here and
            continue      # is reported by the tree check, as an object nested too deeply or repeated)
        met.add(id(v))
        if isinstance(v, Mapping):
            items = list(v.items())
            for k, _ in items:
                problem = isinstance(k, str) and _text_problem(k)
                if problem:
                    return _text_err(problem, "key", k, path)
            stack.extend((x, (*path, k)) for k, x in reversed(items))
        elif isinstance(v, list | tuple):
            stack.extend((x, (*path, i)) for i, x in reversed(list(enumerate(v))))
    return None


def _text_problem(s: str) -> str | None:
    if "\0" in s:
        return "a NUL character"
    if not s.isascii() and _SURROGATE.search(s):
        return "a lone surrogate"
    return None


def _text_err(problem: str, what: str, s: str, path: Path) -> DdlcError:
    from .streams_base import excerpt

    return DdlcError(f"{what} holds {problem}, which no target can write: {excerpt(s)}",
                     code=E_INPUT, path=path)


load = _load
utf8_error = _utf8_error


NOT_ONE = object()  # what whole_value says of JSON lines


class Broken:
    """What :func:`whole_value` says of an input that is one JSON value which does not parse: ``error`` (an
    ``orjson.JSONDecodeError`` whose message has the true line and column)."""

    __slots__ = ("error",)

    def __init__(self, error: orjson.JSONDecodeError) -> None:
        self.error = error


def whole_value(src: Any, at: int) -> Any:
    """The one JSON value the input (a ``ByteSource``; ``at``: its first non-blank byte) is, as ``load`` gives it;
    ``NOT_ONE`` for JSON lines; :class:`Broken` for one value that does not parse.

    One rule: the first non-blank line tells. When it is a whole JSON value and more follows, the input is
    JSON lines (only that line is read to tell); otherwise the input is one JSON value, read whole (a
    pretty-printed document), and a syntax error in it is one error at its true line and column, not one
    error per line read as JSON lines."""
    end = src.line_end(at)
    try:
        first = _load(src.get(at, end))
    except orjson.JSONDecodeError:
        first = None
    if first is not None:
        return NOT_ONE if src.skip_space(end) is not None else first
    data = src.get(0, src.total())
    try:
        return _load(data)
    except orjson.JSONDecodeError as exc:
        return Broken(exc)
