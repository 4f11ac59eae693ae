"""The tree check's interpreters (issue 26): the function of a plan of :mod:`ddlc.frontend.treecheck` that reads
its entries, one step a specifier, until the plan is met often enough to be compiled (:mod:`.treecheck_gen`).

An object pasted by ``%s`` met for the first time, of a fmt whose function is known and not too deep, is read by
its plan's function from here, without :meth:`ddlc.frontend.treecheck._Both.descend`'s frame (what descend does
first, its errors, is left to it otherwise); a plain ``%D``/``%T`` object is judged and written without the
frames of ``plain_dotted``, ``plain_type``, the slot check's ``types`` and ``_type_text``.
``tests/test_throughput_round11_check.py`` and ``tests/test_throughput_round13_check.py`` compare them with the
interpreters as they were.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..diagnostics import E_DEPTH
from ..errors import DdlcError, Path
from ..jddl.expand import MAX_DEPTH, plain_dotted, plain_type
from ..quoting import quote_ident, quote_literal
from .slots import _fail, _learn, _TAKEN
from .sql.slotforms import quote_free
from .treecheck_gen import MAX_ENTRIES

_MISSING: Any = object()
_STRING_OK = frozenset("sIL")  # the conversions a string passes as it is
_Entry = tuple[Any, ...]  # (a plan's entry: ddlc.frontend.treecheck._plan)


def _too_deep(self: Any, path: Path) -> DdlcError:
    """:meth:`_Both.descend`'s error for a walk past the interpreter's recursion limit below ``path``."""
    return DdlcError("tree nested too deeply", code=E_DEPTH, path=path, document=self.document)


def _unwritten(self: Any, path: Path, why: str) -> bool:
    """The slot check's error for an object whose fmt the server does not write (kept): its slots unchecked."""
    self.error = _fail(f"{'the statement' if not path else 'an object'} is not a form the server writes: {why}",
                       path + ("fmt",), self.document)
    return False


# The interpreters' steps: each specifier's entry with a code for the members the walk reads most, whose
# common values take a short path (the general path's checks for them, in the same order, as the compiled
# functions have them): _SIMPLE a plain ``%{name}s``, _DOTTED a single ``%D``, _IDENT a single ``%I``,
# _LITERAL a single ``%L``, _TYPE a single ``%T``; _GENERAL any other (a parse error included).
_GENERAL, _SIMPLE, _DOTTED, _IDENT, _LITERAL, _TYPE = range(6)
_CONV_CODES = {"D": _DOTTED, "I": _IDENT, "L": _LITERAL, "T": _TYPE}


def _code(entry: _Entry) -> int:
    name, sep, conv, simple = entry[0], entry[1], entry[2], entry[9]
    if name is None or sep is not None or not conv or entry[4]:
        # (a specifier between the fmt's own quotes takes the general path: only it records a value holding a
        # quote or a backslash as unpastable, which the GaussDB target must refuse; found by review)
        return _GENERAL
    return _SIMPLE if simple else _CONV_CODES.get(conv, _GENERAL)


def interpreted(fmt: str, why: str | None, entries: tuple[_Entry, ...], fns: dict[str, Any] | None, compile_at: int,
                compile_fn: Any, fns_of: Any) -> Any:
    """The function of a plan, reading its entries (as the compiled one does: :mod:`.treecheck_gen`); kept in
    ``fns`` (or None), it counts its meetings and puts the compiled function in its place at the ``compile_at``-th
    (``compile_fn(fmt, why, entries, text)``; ``fns_of``: :func:`ddlc.frontend.treecheck._fns_of`)."""
    counting = fns is not None and len(entries) <= MAX_ENTRIES
    met = 0
    steps = tuple((_code(e), e[0], e[5], e[3], e[8], e[6], fns_of(e[6], False, False),
                   (e[1], e[2], e[4], e[7], fns_of(e[7], False, False))) for e in entries)

    def run(self: Any, obj: Mapping[str, Any], path: Path, depth: int, check: bool) -> None:
        nonlocal met
        if counting:
            met += 1
            if met == compile_at:  # the compiled function in this one's place from the next meeting on
                fns[fmt] = compile_fn(fmt, why, entries, False)  # type: ignore[index]
        check = check and depth <= 64  # (a walk called with check has no error yet: see check_both)
        if check and why is not None:
            check = _unwritten(self, path, why)
        for code, name, known, slot, quick, child, cfns, rest in steps:
            value = obj.get(name, _MISSING)
            if code == _SIMPLE:  # the common member: a string %s pastes as it is, or an object
                if type(value) is str:
                    if check and value:
                        got = known.get(value)
                        if got is None:
                            got = _learn(value, slot, known, quick)
                        if got is not _TAKEN and (got[0] is not None or got[1]):
                            check = self.judged(value, name, slot, got, path + (name,))
                    continue
                if type(value) is dict:
                    present = value.get("present", True)
                    if present is False:
                        continue
                    if present is not True:
                        raise self.fail('element "present" is not of type boolean', path + (name, "present"), fmt)
                    at = path + (name,)
                    sub = value.get("fmt")
                    fn = cfns.get(sub) if type(sub) is str else None
                    if fn is None or depth >= MAX_DEPTH or (key := id(value)) in (seen := self.seen):
                        self.descend(value, child, cfns, at, depth, check)
                    else:  # (descend's work, without its frame: a first meeting of a known fmt, not too deep)
                        seen[key] = 1
                        try:
                            fn(self, value, at, depth + 1, check)
                        except RecursionError:
                            raise _too_deep(self, at) from None
                    check = check and self.error is None
                    continue
            elif code == _DOTTED:
                if type(value) is dict:
                    # (plain_dotted without its frame: two string members and nothing else hold no attribute name)
                    if not (type(value.get("objname")) is str and type(value.get("schemaname")) is str
                            and (len(value) == 2 or plain_dotted(value))):
                        self.dotted(value, path + (name,), fmt)
                    continue
            elif code == _IDENT or code == _LITERAL:
                if type(value) is str:
                    continue
            elif code == _TYPE:
                if type(value) is dict:
                    typmod = value.get("typmod", "")
                    schema = value.get("schemaname")
                    if (type(value.get("typename")) is str and type(schema) is str
                            and type(value.get("typarray")) is bool and type(typmod) is str):
                        # plain_type's test without its frame; the slot check has nothing to look at in a plain
                        # type without a typmod in a schema (type_of)
                        if check and (typmod or schema == ""):
                            check = self.types(value, path + (name,))
                        continue
                    if check:
                        check = self.types(value, path + (name,))
                    if not plain_type(value):
                        self.typename(value, path + (name,), fmt)
                    continue
            sep, conv, inquote, items, ifns = rest
            if name is None:
                raise self.fail(sep, path + ("fmt",), fmt)
            # the general path
            if value is _MISSING:
                raise self.fail(f'element "{name}" not found', path + (name,), fmt)
            if check:
                if inquote and not quote_free(value) and path + (name,) not in self.unpastable:
                    self.unpastable.append(path + (name,))  # between the fmt's own quotes, unescaped
                if conv == "T":
                    check = self.types(value, path + (name,))
            if sep is None:
                if type(value) is str:
                    if conv in _STRING_OK:
                        if check and conv == "s" and value:
                            got = known.get(value)
                            if got is None:
                                got = _learn(value, slot, known, quick)
                            if got[0] is not None or got[1]:
                                check = self.judged(value, name, slot, got, path + (name,))
                        continue
                elif type(value) is dict or isinstance(value, dict):
                    if conv == "s":
                        present = value.get("present", True)
                        if present is False:
                            continue
                        if present is not True:
                            raise self.fail('element "present" is not of type boolean', path + (name, "present"),
                                            fmt)
                        self.descend(value, child, cfns, path + (name,), depth, check)
                        check = check and self.error is None
                        continue
                    if conv == "D":
                        if not plain_dotted(value):
                            self.dotted(value, path + (name,), fmt)
                        continue
                    if conv == "T":
                        if not plain_type(value):
                            self.typename(value, path + (name,), fmt)
                        continue
                self.convert(value, conv, name, path + (name,), fmt, depth, self.out)
                continue
            if not isinstance(value, list):
                raise self.fail(f'element "{name}" is not a JSON array', path + (name,), fmt)
            vpath = path + (name,)
            for idx, elem in enumerate(value):
                if type(elem) is str and conv in _STRING_OK:
                    if check and conv == "s" and elem:
                        got = known.get(elem)
                        if got is None:
                            got = _learn(elem, slot, known, quick)
                        if got[0] is not None or got[1]:
                            check = self.judged(elem, name, slot, got, vpath + (idx,))
                    continue
                if isinstance(elem, dict):
                    present = elem.get("present", True)
                    if present is False:
                        continue
                    if present is not True:
                        raise self.fail('element "present" is not of type boolean', vpath + (idx, "present"), fmt)
                    if conv == "s":
                        at = vpath + (idx,)
                        sub = elem.get("fmt") if type(elem) is dict else None  # (a subclass: descend's path)
                        fn = ifns.get(sub) if type(sub) is str else None
                        if fn is None or depth >= MAX_DEPTH or (key := id(elem)) in (seen := self.seen):
                            self.descend(elem, items, ifns, at, depth, check)
                        else:  # (as above: descend's work without its frame)
                            seen[key] = 1
                            try:
                                fn(self, elem, at, depth + 1, check)
                            except RecursionError:
                                raise _too_deep(self, at) from None
                        check = check and self.error is None
                        continue
                self.convert(elem, conv, name, vpath + (idx,), fmt, depth, self.out)

    return run


def interpreted_text(fmt: str, why: str | None, entries: tuple[_Entry, ...], fns: dict[str, Any] | None,
                     compile_at: int, compile_fn: Any, fns_of: Any) -> Any:
    """:func:`interpreted` writing the expansion (the entries of a text plan: the fmt's own text included, each
    run of it written with the specifier after it, ``lead``)."""
    counting = fns is not None and len(entries) <= MAX_ENTRIES
    met = 0
    steps: list[tuple[Any, ...]] = []
    lead = ""
    for e in entries:
        if e[2] == "":  # the fmt's own text
            lead += e[0]
            continue
        steps.append((_code(e), lead, e[0], e[5], e[3], e[8], e[6], fns_of(e[6], False, True),
                      (e[1], e[2], e[4], e[7], fns_of(e[7], False, True))))
        lead = ""
    tail = lead
    all_steps = tuple(steps)

    def run(self: Any, obj: Mapping[str, Any], path: Path, depth: int, check: bool) -> None:
        nonlocal met
        if counting:
            met += 1
            if met == compile_at:  # the compiled function in this one's place from the next meeting on
                fns[fmt] = compile_fn(fmt, why, entries, True)  # type: ignore[index]
        check = check and depth <= 64  # (as in interpreted)
        if check and why is not None:
            check = _unwritten(self, path, why)
        out = self.out
        for code, lead, name, known, slot, quick, child, cfns, rest in all_steps:
            if lead:
                out.append(lead)  # (the text is dropped when the walk raises)
            value = obj.get(name, _MISSING)
            if code == _SIMPLE:  # the common member: a string %s pastes as it is, or an object
                if type(value) is str:
                    out.append(value)
                    if check and value:
                        got = known.get(value)
                        if got is None:
                            got = _learn(value, slot, known, quick)
                        if got is not _TAKEN and (got[0] is not None or got[1]):
                            check = self.judged(value, name, slot, got, path + (name,))
                    continue
                if type(value) is dict:
                    present = value.get("present", True)
                    if present is False:
                        continue
                    if present is not True:
                        raise self.fail('element "present" is not of type boolean', path + (name, "present"), fmt)
                    at = path + (name,)
                    sub = value.get("fmt")
                    fn = cfns.get(sub) if type(sub) is str else None
                    if fn is None or depth >= MAX_DEPTH or (key := id(value)) in (seen := self.seen):
                        self.descend(value, child, cfns, at, depth, check)
                    else:  # (as in interpreted: descend's work without its frame)
                        seen[key] = 1
                        try:
                            fn(self, value, at, depth + 1, check)
                        except RecursionError:
                            raise _too_deep(self, at) from None
                    check = check and self.error is None
                    continue
            elif code == _DOTTED:
                if type(value) is dict:
                    objname = value.get("objname")
                    schema = value.get("schemaname")
                    if (type(objname) is str and type(schema) is str
                            and (len(value) == 2 or plain_dotted(value))):  # (as in interpreted)
                        out.append(quote_ident(schema) + "." + quote_ident(objname))
                        continue
            elif code == _IDENT:
                if type(value) is str:
                    out.append(quote_ident(value))
                    continue
            elif code == _LITERAL:
                if type(value) is str:
                    out.append(quote_literal(value))
                    continue
            elif code == _TYPE:
                if type(value) is dict:
                    typmod = value.get("typmod", "")
                    schema = value.get("schemaname")
                    tname = value.get("typename")
                    array = value.get("typarray")
                    if type(tname) is str and type(schema) is str and type(array) is bool and type(typmod) is str:
                        # (as in interpreted; the text as _type_text writes it, without its frame)
                        if check and (typmod or schema == ""):
                            check = self.types(value, path + (name,))
                        text = tname if schema == "" else quote_ident(schema) + "." + quote_ident(tname)
                        if typmod:
                            text += typmod
                        out.append(text + "[]" if array else text)
                        continue
                    if check:
                        check = self.types(value, path + (name,))
                    if plain_type(value):
                        out.append(_type_text(value))
                    else:
                        out.append(self.typename(value, path + (name,), fmt))
                    continue
            sep, conv, inquote, items, ifns = rest
            if conv is None:
                raise self.fail(sep, path + ("fmt",), fmt)
            # the general path
            if value is _MISSING:
                raise self.fail(f'element "{name}" not found', path + (name,), fmt)
            if check:
                if inquote and not quote_free(value) and path + (name,) not in self.unpastable:
                    self.unpastable.append(path + (name,))  # between the fmt's own quotes, unescaped
                if conv == "T":
                    check = self.types(value, path + (name,))
            if sep is None:
                if conv == "s":
                    if type(value) is str:
                        out.append(value)
                        if check and value:
                            got = known.get(value)
                            if got is None:
                                got = _learn(value, slot, known, quick)
                            if got[0] is not None or got[1]:
                                check = self.judged(value, name, slot, got, path + (name,))
                        continue
                    if type(value) is dict or isinstance(value, dict):
                        present = value.get("present", True)
                        if present is False:
                            continue
                        if present is not True:
                            raise self.fail('element "present" is not of type boolean', path + (name, "present"),
                                            fmt)
                        self.descend(value, child, cfns, path + (name,), depth, check)
                        check = check and self.error is None
                        continue
                self.convert(value, conv, name, path + (name,), fmt, depth, out)
                continue
            if not isinstance(value, list):
                raise self.fail(f'element "{name}" is not a JSON array', path + (name,), fmt)
            vpath = path + (name,)
            first = True
            for idx, elem in enumerate(value):
                if isinstance(elem, dict):
                    present = elem.get("present", True)
                    if present is False:
                        continue
                    if present is not True:
                        raise self.fail('element "present" is not of type boolean', vpath + (idx, "present"), fmt)
                if not first:
                    out.append(sep)
                first = False
                if conv == "s":
                    if type(elem) is str:
                        out.append(elem)
                        if check and elem:
                            got = known.get(elem)
                            if got is None:
                                got = _learn(elem, slot, known, quick)
                            if got[0] is not None or got[1]:
                                check = self.judged(elem, name, slot, got, vpath + (idx,))
                        continue
                    if isinstance(elem, dict):
                        at = vpath + (idx,)
                        sub = elem.get("fmt") if type(elem) is dict else None  # (a subclass: descend's path)
                        fn = ifns.get(sub) if type(sub) is str else None
                        if fn is None or depth >= MAX_DEPTH or (key := id(elem)) in (seen := self.seen):
                            self.descend(elem, items, ifns, at, depth, check)
                        else:  # (as above: descend's work without its frame)
                            seen[key] = 1
                            try:
                                fn(self, elem, at, depth + 1, check)
                            except RecursionError:
                                raise _too_deep(self, at) from None
                        check = check and self.error is None
                        continue
                self.convert(elem, conv, name, vpath + (idx,), fmt, depth, out)
        if tail:
            out.append(tail)

    return run


def _type_text(v: Mapping[str, Any]) -> str:
    """:meth:`ddlc.jddl.expand._Expander.typename`'s text of a ``%T`` object :func:`plain_type` passes."""
    schema = v["schemaname"]
    text = v["typename"] if schema == "" else quote_ident(schema) + "." + quote_ident(v["typename"])
    typmod = v.get("typmod")
    if typmod:
        text += typmod
    return text + "[]" if v["typarray"] else text


__all__ = ["interpreted", "interpreted_text"]
