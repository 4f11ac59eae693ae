"""The JDDL template expander: an exact re-implementation of openGauss's
``deparse_ddl_json_to_string`` (``ddljson.cpp``), see ``jddl-shapes.md`` §1.

``expand(tree)`` gives the server's text byte for byte (``raw`` mode, blank runs included);
``ddlc.quoting.canonicalize`` turns it into canonical GaussDB text. Errors are the server's
messages as one :class:`~ddlc.errors.DdlcError` carrying the JSON path of the offending value and
the ``fmt`` being expanded.

Both key dialects are read: ``objname``/``object_name``, ``schemaname``/``schema_name``,
``typename``/``type_name`` (and ``attrname``/``attr_name``/``attribute_name``) inside ``%D``/``%T``.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from ..diagnostics import E_DEPTH, E_EXPAND
from ..errors import DdlcError, Path
from ..quoting import quote_ident, quote_literal

MAX_DEPTH = 256

# A parsed fmt is a tuple of tokens: a literal ``str`` or a spec tuple
# ``(name, sep_or_None, conv)``; a parse error becomes ``(None, message, None)`` at its position so
# that errors surface in the same order as on the server (left to right).
_Spec = tuple[str | None, str | None, str | None]
_CACHE: dict[str, tuple[str | _Spec, ...]] = {}
_CONVERSIONS = frozenset("IDTLsn")
# Bounded expansion: the deparser's fmt strings name an element at most 4 times (the AUTO_INCREMENT
# back-fill block's colname) and never expand one object twice through %s. A forged tree could make
# the text grow with the square of its size (a fmt naming a long array a thousand times) or
# exponentially (objects nested 30 deep, each fmt naming its child twice: 2^30 copies). Past REPEATS
# names of one element in a fmt, or REPEATS expansions of one object, the tree is refused; so the
# text is at most REPEATS^2 times the tree.
REPEATS = 8


def parse_fmt(fmt: str) -> tuple[str | _Spec, ...]:
    toks = _CACHE.get(fmt)
    if toks is not None:
        return toks
    out: list[str | _Spec] = []
    buf: list[str] = []
    named: dict[str, int] = {}
    i, n = 0, len(fmt)
    while i < n:
        j = fmt.find("%", i)
        if j < 0:
            buf.append(fmt[i:])
            break
        buf.append(fmt[i:j])
        i = j + 1
        if i >= n:
            out.append("".join(buf))
            buf.clear()
            out.append((None, "unterminated format specifier", None))
            break
        c = fmt[i]
        if c == "%":
            buf.append("%")
            i += 1
            continue
        if buf:
            out.append("".join(buf))
            buf.clear()
        if c != "{":
            out.append((None, "missing conversion name in conversion specifier", None))
            break
        close = fmt.find("}", i + 1)
        if close < 0:
            out.append((None, "unterminated format specifier", None))
            break
        inner = fmt[i + 1 : close]
        colon = inner.find(":")
        if colon < 0:
            name, sep = inner, None
        else:
            name, sep = inner[:colon], inner[inner.rfind(":") + 1 :]
        if close + 1 >= n:
            out.append((None, "unterminated format specifier", None))
            break
        conv = fmt[close + 1]
        if conv not in _CONVERSIONS:
            out.append((None, f'invalid conversion specifier "{conv}"', None))
            break
        out.append((name, sep, conv))
        named[name] = named.get(name, 0) + 1
        if named[name] > REPEATS:
            out.append((None, f'element "{name}" is named more than {REPEATS} times in one fmt (the server '
                              "never names an element more than 4 times)", None))
            break
        i = close + 2
    if buf:
        out.append("".join(buf))
    toks = tuple(t for t in out if t != "")
    if len(_CACHE) < 4096:
        _CACHE[fmt] = toks
    return toks


def _jsonb_type(v: Any) -> int:
    if v is None:
        return 0
    if isinstance(v, bool):
        return 3
    if isinstance(v, str):
        return 1
    if isinstance(v, int | float | Decimal):
        return 2
    return 18  # arrays and objects inside a document are binary containers


def json_terms(v: Any) -> str:
    """A value as JSON names it, for people: ``the number 1``, ``an array of 2 elements``, ``null``."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return f"the boolean {'true' if v else 'false'}"
    if isinstance(v, str):
        shown = v if len(v) <= 40 else v[:37] + "..."
        return f"the string {shown!r}"
    if isinstance(v, int | float | Decimal):
        return f"the number {v}"
    if isinstance(v, list):
        return f"an array of {len(v)} element{'' if len(v) == 1 else 's'}"
    return "an object"


_KIND = {"I": "string", "D": "struct", "T": "struct", "L": "string", "s": "string or struct", "n": "numeric"}


def numeric_out(v: int | float | Decimal) -> str:
    """The server's numeric output for ``%n`` (a value below 1 loses its leading zero)."""
    if isinstance(v, int):
        return str(v)
    d = v if isinstance(v, Decimal) else Decimal(repr(v))
    text = format(d, "f")
    if text.startswith("0."):
        text = text[1:]
    elif text.startswith("-0."):
        text = "-" + text[2:]
    return text


def _member(obj: Mapping[str, Any], *names: str) -> Any:
    for name in names:
        if name in obj:
            return obj[name]
    return _MISSING


_MISSING = object()


class _Expander:
    __slots__ = ("document", "seen", "render")

    def __init__(self, document: str | None, render: bool = True) -> None:
        self.document = document
        self.seen: dict[int, int] = {}  # id of an object -> how many times it was expanded
        self.render = render  # False: only the server's errors are wanted (:func:`check`), not the text

    def fail(self, message: str, path: Path, fmt: str | None, hint: str | None = None) -> DdlcError:
        return DdlcError(message, code=E_EXPAND, path=path, document=self.document, fmt=fmt, hint=hint)

    def expand(self, obj: Mapping[str, Any], path: Path, depth: int, out: list[str]) -> None:
        if depth > MAX_DEPTH:
            raise DdlcError(
                f"tree nested deeper than {MAX_DEPTH} levels", code=E_DEPTH, path=path,
                document=self.document,
            )
        times = self.seen[id(obj)] = self.seen.get(id(obj), 0) + 1
        if times > REPEATS:
            raise self.fail(f"an object expanded more than {REPEATS} times (the server expands each once)", path,
                            None)
        fmt = obj.get("fmt", _MISSING)
        if fmt is _MISSING:
            raise self.fail('missing element "fmt" in JSON object', path, None)
        if not isinstance(fmt, str):
            raise self.fail('element "fmt" is not of type string', path + ("fmt",), None)
        for tok in parse_fmt(fmt):
            if type(tok) is str:
                out.append(tok)
                continue
            name, sep, conv = tok  # type: ignore[misc]
            if name is None:
                raise self.fail(sep, path + ("fmt",), fmt)  # type: ignore[arg-type]
            value = obj.get(name, _MISSING)
            vpath = path + (name,)
            if value is _MISSING:
                raise self.fail(f'element "{name}" not found', vpath, fmt)
            if sep is None:
                self.convert(value, conv, name, vpath, fmt, depth, out)
                continue
            if not isinstance(value, list):
                raise self.fail(f'element "{name}" is not a JSON array', vpath, fmt)
            first = True
            for idx, elem in enumerate(value):
                if isinstance(elem, dict):
                    present = elem.get("present", True)
                    if present is False:
                        continue
                    if present is not True:
                        raise self.fail(
                            'element "present" is not of type boolean', vpath + (idx, "present"), fmt
                        )
                if not first:
                    out.append(sep)
                first = False
                self.convert(elem, conv, name, vpath + (idx,), fmt, depth, out)

    def convert(
        self, v: Any, conv: str, name: str, path: Path, fmt: str, depth: int, out: list[str]
    ) -> None:
        if conv == "s":
            if type(v) is str:
                out.append(v)
                return
            if isinstance(v, dict):
                present = v.get("present", True)
                if present is False:
                    return
                if present is not True:
                    raise self.fail('element "present" is not of type boolean', path + ("present",), fmt)
                try:
                    self.expand(v, path, depth + 1, out)
                except RecursionError:
                    raise DdlcError(
                        "tree nested too deeply", code=E_DEPTH, path=path, document=self.document
                    ) from None
                return
            if isinstance(v, list):  # the server looks for "fmt" in it
                raise self.fail('missing element "fmt" in JSON object', path, fmt)
        elif conv == "I":
            if type(v) is str:
                if self.render:
                    out.append(quote_ident(v))
                return
        elif conv == "L":
            if type(v) is str:
                if self.render:
                    out.append(quote_literal(v))
                return
        elif conv == "D":
            if isinstance(v, dict):
                out.append(self.dotted(v, path, fmt))
                return
        elif conv == "T":
            if isinstance(v, dict):
                out.append(self.typename(v, path, fmt))
                return
        elif conv == "n":
            if isinstance(v, int | float | Decimal) and not isinstance(v, bool):
                if self.render:
                    out.append(numeric_out(v))
                return
        raise self.fail(
            f'expected JSON {_KIND[conv]} for %{conv} element "{name}", got {_jsonb_type(v)}', path, fmt,
            hint=f"the value is {json_terms(v)}; {_jsonb_type(v)} is the server's code for its type",
        )

    def _string(self, v: Mapping[str, Any], names: tuple[str, ...], path: Path, fmt: str, required: bool):
        for key in names:
            if key in v:
                val = v[key]
                if type(val) is not str:
                    raise self.fail(f'element "{names[0]}" is not of type string', path + (key,), fmt)
                return val
        if required:
            from .keys import spelled_like

            raise self.fail(f'missing element "{spelled_like(v, names[0])}" in JSON object', path, fmt)
        return None

    def dotted(self, v: Mapping[str, Any], path: Path, fmt: str) -> str:
        schema = self._string(v, _SCHEMA, path, fmt, False)
        objname = self._string(v, _OBJNAME, path, fmt, True)
        attr = self._string(v, _ATTR, path, fmt, False)
        if not self.render:
            return ""
        text = quote_ident(objname)
        if schema is not None:
            text = quote_ident(schema) + "." + text
        if attr is not None:
            text += "." + quote_ident(attr)
        return text

    def typename(self, v: Mapping[str, Any], path: Path, fmt: str) -> str:
        schema = self._string(v, _SCHEMA, path, fmt, False)
        tname = self._string(v, _TYPENAME, path, fmt, True)
        if "typarray" not in v:
            raise self.fail("missing typarray element", path, fmt)
        arr = v["typarray"]
        if type(arr) is not bool:
            raise self.fail('element "typarray" is not of type boolean', path + ("typarray",), fmt)
        typmod = self._string(v, ("typmod",), path, fmt, False) or ""
        if not self.render:
            return ""
        if schema is None:
            text = quote_ident(tname)
        elif schema == "":
            text = tname
        else:
            text = quote_ident(schema) + "." + quote_ident(tname)
        text += typmod
        if arr:
            text += "[]"
        return text


_SCHEMA = ("schemaname", "schema_name")
_OBJNAME = ("objname", "object_name")
_TYPENAME = ("typename", "type_name")
_ATTR = ("attrname", "attr_name", "attribute_name")


def expand(tree: Mapping[str, Any], *, document: str | None = None, path: Path = ()) -> str:
    """Expand a JDDL tree exactly as openGauss does (raw text)."""
    if not isinstance(tree, dict):
        raise DdlcError("a JDDL tree must be a JSON object", code=E_EXPAND, path=path, document=document)
    out: list[str] = []
    _Expander(document).expand(tree, path, 0, out)
    return "".join(out)


def check(tree: Mapping[str, Any], *, document: str | None = None, path: Path = ()) -> None:
    """What :func:`expand` would raise for ``tree``, in the same order, without writing its text (the targets
    that translate from the IR need the server's errors, not the expansion): no identifier is quoted, no
    number printed."""
    if not isinstance(tree, dict):
        raise DdlcError("a JDDL tree must be a JSON object", code=E_EXPAND, path=path, document=document)
    CheckWalk(document, render=False).expand(tree, path, 0, [])


_SPECS: dict[str, tuple[_Spec, ...]] = {}
_STRING_OK = frozenset("sIL")  # the conversions a string passes as it is


def fmt_specs(fmt: str) -> tuple[_Spec, ...]:
    """The specifiers of ``fmt`` (its parse without the literal text), in order, parse errors included."""
    specs = _SPECS.get(fmt)
    if specs is None:
        specs = tuple(t for t in parse_fmt(fmt) if type(t) is not str)  # type: ignore[misc]
        if len(_SPECS) < 4096:
            _SPECS[fmt] = specs
    return specs


def plain_dotted(v: Mapping[str, Any]) -> bool:
    """Whether a ``%D`` object is in the common form that :meth:`_Expander.dotted` passes without a look at its
    other spellings: ``schemaname`` and ``objname`` strings, no attribute name."""
    return (type(v.get("objname")) is str and type(v.get("schemaname")) is str and "attrname" not in v
            and "attr_name" not in v and "attribute_name" not in v)


def plain_type(v: Mapping[str, Any]) -> bool:
    """Whether a ``%T`` object is in the common form :meth:`_Expander.typename` passes: ``schemaname`` and
    ``typename`` strings, a boolean ``typarray``, no ``typmod`` or a string one."""
    return (type(v.get("typename")) is str and type(v.get("schemaname")) is str
            and type(v.get("typarray")) is bool and type(v.get("typmod", "")) is str)


class CheckWalk(_Expander):
    """:meth:`_Expander.expand` without the text (``render`` False): the same checks in the same order, a
    string passed by ``%s``/``%I``/``%L`` taken at once and no path built unless it is reported or
    descended into. The recursion keeps its two frames per level (``expand`` -> ``convert``), so that a tree
    nested past the interpreter's limit fails where the expander fails."""

    __slots__ = ()

    def expand(self, obj: Mapping[str, Any], path: Path, depth: int, out: list[str]) -> None:
        if depth > MAX_DEPTH:
            raise DdlcError(
                f"tree nested deeper than {MAX_DEPTH} levels", code=E_DEPTH, path=path,
                document=self.document,
            )
        seen, key = self.seen, id(obj)
        times = seen[key] = seen.get(key, 0) + 1
        if times > REPEATS:
            raise self.fail(f"an object expanded more than {REPEATS} times (the server expands each once)", path,
                            None)
        fmt = obj.get("fmt", _MISSING)
        if type(fmt) is not str:
            if fmt is _MISSING:
                raise self.fail('missing element "fmt" in JSON object', path, None)
            if not isinstance(fmt, str):
                raise self.fail('element "fmt" is not of type string', path + ("fmt",), None)
        string_ok = _STRING_OK
        for name, sep, conv in fmt_specs(fmt):  # type: ignore[arg-type]
            if name is None:
                raise self.fail(sep, path + ("fmt",), fmt)  # type: ignore[arg-type]
            value = obj.get(name, _MISSING)
            if sep is None:
                if type(value) is str:
                    if conv in string_ok:
                        continue
                elif type(value) is dict:
                    if conv == "s":
                        present = value.get("present", True)
                        if present is False:
                            continue
                        if present is not True:
                            raise self.fail('element "present" is not of type boolean', path + (name, "present"),
                                            fmt)
                        self.descend(value, path + (name,), depth, out)
                        continue
                    if conv == "D":
                        if not plain_dotted(value):
                            self.dotted(value, path + (name,), fmt)
                        continue
                    if conv == "T":
                        if not plain_type(value):
                            self.typename(value, path + (name,), fmt)
                        continue
                elif value is _MISSING:
                    raise self.fail(f'element "{name}" not found', path + (name,), fmt)
                self.convert(value, conv, name, path + (name,), fmt, depth, out)  # type: ignore[arg-type]
                continue
            if value is _MISSING:
                raise self.fail(f'element "{name}" not found', path + (name,), fmt)
            if not isinstance(value, list):
                raise self.fail(f'element "{name}" is not a JSON array', path + (name,), fmt)
            vpath = path + (name,)
            for idx, elem in enumerate(value):
                if type(elem) is str and conv in string_ok:
                    continue
                if isinstance(elem, dict):
                    present = elem.get("present", True)
                    if present is False:
                        continue
                    if present is not True:
                        raise self.fail(
                            'element "present" is not of type boolean', vpath + (idx, "present"), fmt
                        )
                self.convert(elem, conv, name, vpath + (idx,), fmt, depth, out)  # type: ignore[arg-type]

    def descend(self, v: Mapping[str, Any], path: Path, depth: int, out: list[str]) -> None:
        """An object pasted by ``%s``, as :meth:`_Expander.convert` expands it (its frame stands for convert's)."""
        try:
            self.expand(v, path, depth + 1, out)
        except RecursionError:
            raise DdlcError("tree nested too deeply", code=E_DEPTH, path=path, document=self.document) from None


def owner_of(tree: Mapping[str, Any]) -> str | None:
    """The ``myowner`` key, as the server reports it (only a top-level string counts)."""
    owner = tree.get("myowner")
    return owner if isinstance(owner, str) else None
