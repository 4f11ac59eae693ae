"""The expansion check and the slot check of a tree in one walk (issue 26: a document walked once).

:func:`ddlc.jddl.expand.check` (the server's errors, as :func:`~ddlc.jddl.expand.expand` raises them) and
:func:`ddlc.frontend.slots.check_tree` (every raw slot in its class, DDLC-E011) read the same objects through
the same specifiers. :func:`check_both` does both in one walk, by one plan per (fmt, node, block): the
expansion's errors are raised as they are met, as :func:`~ddlc.jddl.expand.check` raises them; the slot
check's first error and its unpastable paths are kept (``error``, ``unpastable``), to be raised or used after the build,
whose errors come between the two (``build(..., expansion=True)``). The slot check follows the shape the
tree's ``fmt`` names; a tree built as another shape is checked again by :func:`~ddlc.frontend.slots.check_tree`.
An object is read by its plan's function: the interpreter of the plan's entries, then, for a plan met often,
a function compiled for it (:mod:`.treecheck_gen`, :data:`COMPILE_AT`).
``tests/test_throughput_front2.py`` compares it with the two checks on every fixture tree and mutated ones,
``tests/test_throughput_check.py`` the interpreter and the compiled functions with them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..diagnostics import E_DEPTH
from ..errors import DdlcError, Path
from ..jddl.expand import MAX_DEPTH, REPEATS, CheckWalk, plain_dotted, plain_type, fmt_specs, parse_fmt
from ..jddl.keys import CANONICAL
from ..quoting import quote_ident, quote_literal
from .slots import BLOCKS, NODES, _Check, _fail, _fmt_info, _GENERIC, _known, _learn, _NO_SLOTS, _TAKEN, quick_of
from .sql.slotforms import quote_free
from .treecheck_gen import MAX_ENTRIES, compiled

_MISSING: Any = object()
_STRING_OK = frozenset("sIL")  # the conversions a string passes as it is

# per (fmt, node, block): the slot check's problem with the fmt and, per specifier of the expansion (its parse
# errors included, as ``(None, message, ...)``), what both checks need of it: (name, separator, conversion, slot,
# whether the fmt quotes it, the slot's verdicts, the node of an object, of an array's objects, the slot's
# quick_of, whether it is a plain ``%{name}s``: a string there is only judged)
_Entry = tuple[Any, ...]
_PLANS: dict[tuple[str, str | None, bool], tuple[str | None, tuple[_Entry, ...]]] = {}
_TEXT_PLANS: dict[tuple[str, str | None, bool], tuple[str | None, tuple[_Entry, ...]]] = {}


def _plan(fmt: str, node: str | None, block: bool, text: bool = False) -> tuple[str | None, tuple[_Entry, ...]]:
    """The plan of ``fmt`` read as ``node``; ``text``: with the fmt's literal text, in order, as entries
    ``(text, None, "", ...)`` (:data:`_TEXT_PLANS`)."""
    specs = fmt_specs(fmt)
    if any(name is None for name, _, _ in specs):
        why: str | None = None  # (the expansion fails on this fmt: the slot check never runs)
        quoted: frozenset[str] = frozenset()
    else:
        why, quoted, _ = _fmt_info(fmt, block)
    table = NODES.get(node, _NO_SLOTS) if node else _NO_SLOTS
    entries: list[_Entry] = []
    for tok in parse_fmt(fmt) if text else specs:
        if type(tok) is str:
            entries.append((tok, None, "", None, False, None, None, None, None, False))
            continue
        name, sep, conv = tok  # type: ignore[misc]
        if name is None:
            entries.append((None, sep, conv, None, False, None, None, None, None, False))
            continue
        slot = table.get(CANONICAL.get(name, name), _GENERIC)
        inquote = name in quoted
        entries.append((name, sep, conv, slot, inquote, _known(slot), slot.node, slot.items or slot.node,
                        quick_of(slot), sep is None and conv == "s" and not inquote))
    plan = why, tuple(entries)
    plans = _TEXT_PLANS if text else _PLANS
    if len(plans) < 8192:
        plans[(fmt, node, block)] = plan
    return plan


# (node, block, text) -> fmt -> the function of the plan of (fmt, node, block): the interpreter's
# (:func:`_interpreted`), which compiles the plan (:mod:`.treecheck_gen`) at its COMPILE_AT-th meeting and puts the
# compiled function in its place. Compiling the corpus's 131 plans took ~320M instructions (~2.4M a plan; plans
# of the same kinds of members share their code: 69 compiles), a compiled function saves ~4.4k instructions a
# meeting (~8k writing the text): COMPILE_AT is about where the compiling has paid for itself, so that the plans
# a stream meets often are compiled and a short run compiles none. At most _LIMIT functions are kept (past that,
# a new plan is read by a fresh interpreter each time).
_FNS: dict[tuple[str | None, bool, bool], dict[str, Any]] = {}
_LIMIT = 8192
_kept = 0
COMPILE_AT = 512  # (tests set it: 1 compiles a plan when first met, 0 never)


def _fns_of(node: str | None, block: bool, text: bool) -> dict[str, Any]:
    fns = _FNS.get((node, block, text))
    if fns is None:
        fns = _FNS[(node, block, text)] = {}
    return fns


def _function(fmt: str, node: str | None, block: bool, text: bool, fns: dict[str, Any]) -> Any:
    """The function of a plan ``fns`` does not hold yet, kept there while fewer than _LIMIT are kept."""
    global _kept
    plan = (_TEXT_PLANS if text else _PLANS).get((fmt, node, block))
    if plan is None:
        plan = _plan(fmt, node, block, text)
    why, entries = plan
    keep = _kept < _LIMIT
    if COMPILE_AT == 1 and len(entries) <= MAX_ENTRIES:
        fn = _compiled(fmt, why, entries, text)
    else:
        fn = (_interpreted_text if text else _interpreted)(fmt, why, entries, fns if keep and COMPILE_AT else None)
    if keep:
        fns[fmt] = fn
        _kept += 1
    return fn


def _compiled(fmt: str, why: str | None, entries: tuple[_Entry, ...], text: bool) -> Any:
    return compiled(fmt, why, entries, text, _fns_of, _MISSING, _TAKEN)


class _Sink:
    """A list that keeps nothing (the check walk's ``out``)."""

    __slots__ = ()

    def append(self, text: str) -> None:
        pass


_SINK = _Sink()


class _Both(CheckWalk):
    """:class:`ddlc.jddl.expand.CheckWalk` with :class:`ddlc.frontend.slots._Check`'s checks of the same members,
    and what the slot check found: its first error (``error``, raised after the build) and the unpastable paths,
    for the shape ``shape``.

    A slot check's error is kept, not raised, and ends the slot check; the expansion check goes on. Each object
    is read by its plan's function (:func:`_function`); the recursion keeps the expansion check's two frames
    per level (``expand`` -> ``convert`` there, :meth:`descend` -> the plan's function here)."""

    __slots__ = ("shape", "error", "unpastable")

    _text = False
    render = False  # (the expander's slot, read here: the check walk writes no text)
    out: Any = _SINK  # (what the check walk's conversions write: nothing kept)

    def __init__(self, document: str | None, shape: str | None) -> None:
        self.document = document
        self.seen: dict[int, int] = {}
        self.shape = shape
        self.error: DdlcError | None = None
        self.unpastable: list[Path] = []

    def descend(self, v: Mapping[str, Any], node: str | None, fns: dict[str, Any],  # type: ignore[override]
                path: Path, depth: int, check: bool) -> None:
        """An object pasted by ``%s`` (read as ``node``, whose functions are ``fns``), as
        :meth:`CheckWalk.descend` expands it: the expansion's depth, repeat and ``fmt`` errors, then its plan's
        function."""
        try:
            depth += 1
            if depth > MAX_DEPTH:
                raise DdlcError(f"tree nested deeper than {MAX_DEPTH} levels", code=E_DEPTH, path=path,
                                document=self.document)
            seen, key = self.seen, id(v)
            times = seen[key] = seen.get(key, 0) + 1
            if times > REPEATS:
                raise self.fail(f"an object expanded more than {REPEATS} times (the server expands each once)",
                                path, None)
            fmt = v.get("fmt", _MISSING)
            if type(fmt) is not str:
                if fmt is _MISSING:
                    raise self.fail('missing element "fmt" in JSON object', path, None)
                if not isinstance(fmt, str):
                    raise self.fail('element "fmt" is not of type string', path + ("fmt",), None)
            fn = fns.get(fmt)
            if fn is None:
                fn = _function(fmt, node, False, self._text, fns)
            fn(self, v, path, depth, check)
        except RecursionError:
            raise DdlcError("tree nested too deeply", code=E_DEPTH, path=path, document=self.document) from None

    def expand(self, obj: Mapping[str, Any], path: Path, depth: int, out: list[str]) -> None:
        """(Not reached: the walk descends into every object a ``%s`` pastes itself; kept so that no object is
        ever expanded by :class:`CheckWalk`'s walk, which writes no text.)"""
        self.descend(obj, None, _fns_of(None, False, self._text), path, depth - 1, False)

    def pasted(self, v: Any, name: str, path: Path, fmt: str, depth: int) -> bool:
        """A ``%s`` member that is not a string: True for an object to descend into; the expansion's error for a
        missing member or a ``present`` that is not a boolean; any other value converted (its error)."""
        if v is _MISSING:
            raise self.fail(f'element "{name}" not found', path + (name,), fmt)
        if type(v) is dict or isinstance(v, dict):
            present = v.get("present", True)
            if present is True:
                return True
            if present is not False:
                raise self.fail('element "present" is not of type boolean', path + (name, "present"), fmt)
            return False
        self.convert(v, "s", name, path + (name,), fmt, depth, self.out)
        return False

    def types(self, v: Any, path: Path) -> bool:
        """The slot check of a ``%T`` member (typmod, spelling: :meth:`_Check.types`); False when it failed."""
        try:
            if type(v) is dict:
                self.type_of(v, path)
            else:
                _Check.types(self, v, path)  # type: ignore[arg-type]
        except DdlcError as e:
            self.error = e
            return False
        return True

    type_of = _Check.type_of
    describe = staticmethod(_Check.describe)

    def judged(self, v: str, name: str, slot: Any, got: Any, path: Path) -> bool:
        """A string outside its class (kept as the error: False) or one a target must not paste (recorded)."""
        try:
            _Check.judged(self, v, name, slot, got, path)  # type: ignore[arg-type]
        except DdlcError as e:
            self.error = e
            return False
        return True


class _BothText(_Both):
    """:class:`_Both` writing the expansion as :class:`ddlc.jddl.expand._Expander` writes it (``render``)."""

    __slots__ = ("out",)
    _text = True
    render = True

    def __init__(self, document: str | None, shape: str | None) -> None:
        super().__init__(document, shape)
        self.out: list[str] = []


def _unwritten(self: _Both, path: Path, why: str) -> bool:
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


def _interpreted(fmt: str, why: str | None, entries: tuple[_Entry, ...], fns: dict[str, Any] | None) -> Any:
    """The function of a plan, reading its entries (as the compiled one does: :mod:`.treecheck_gen`); kept in
    ``fns`` (or None), it counts its meetings and puts the compiled function in its place at the COMPILE_AT-th."""
    counting = fns is not None and len(entries) <= MAX_ENTRIES
    met = 0
    steps = tuple((_code(e), *e[:9], _fns_of(e[6], False, False), _fns_of(e[7], False, False)) for e in entries)

    def run(self: _Both, obj: Mapping[str, Any], path: Path, depth: int, check: bool) -> None:
        nonlocal met
        if counting:
            met += 1
            if met == COMPILE_AT:  # the compiled function in this one's place from the next meeting on
                fns[fmt] = _compiled(fmt, why, entries, False)  # type: ignore[index]
        check = check and depth <= 64 and self.error is None
        if check and why is not None:
            check = _unwritten(self, path, why)
        for code, name, sep, conv, slot, inquote, known, child, items, quick, cfns, ifns in steps:
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
                    self.descend(value, child, cfns, path + (name,), depth, check)
                    check = check and self.error is None
                    continue
            elif code == _DOTTED:
                if type(value) is dict:
                    if not plain_dotted(value):
                        self.dotted(value, path + (name,), fmt)
                    continue
            elif code == _IDENT or code == _LITERAL:
                if type(value) is str:
                    continue
            elif code == _TYPE:
                if type(value) is dict:
                    if check:
                        check = self.types(value, path + (name,))
                    if not plain_type(value):
                        self.typename(value, path + (name,), fmt)
                    continue
            elif name is None:
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
                        self.descend(elem, items, ifns, vpath + (idx,), depth, check)
                        check = check and self.error is None
                        continue
                self.convert(elem, conv, name, vpath + (idx,), fmt, depth, self.out)

    return run


def _interpreted_text(fmt: str, why: str | None, entries: tuple[_Entry, ...], fns: dict[str, Any] | None) -> Any:
    """:func:`_interpreted` writing the expansion (the entries of a text plan: the fmt's own text included, each
    run of it written with the specifier after it, ``lead``)."""
    counting = fns is not None and len(entries) <= MAX_ENTRIES
    met = 0
    steps: list[tuple[Any, ...]] = []
    lead = ""
    for e in entries:
        if e[2] == "":  # the fmt's own text
            lead += e[0]
            continue
        steps.append((_code(e), lead, *e[:9], _fns_of(e[6], False, True), _fns_of(e[7], False, True)))
        lead = ""
    tail = lead
    all_steps = tuple(steps)

    def run(self: _Both, obj: Mapping[str, Any], path: Path, depth: int, check: bool) -> None:
        nonlocal met
        if counting:
            met += 1
            if met == COMPILE_AT:  # the compiled function in this one's place from the next meeting on
                fns[fmt] = _compiled(fmt, why, entries, True)  # type: ignore[index]
        check = check and depth <= 64 and self.error is None
        if check and why is not None:
            check = _unwritten(self, path, why)
        out = self.out
        for code, lead, name, sep, conv, slot, inquote, known, child, items, quick, cfns, ifns in all_steps:
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
                    self.descend(value, child, cfns, path + (name,), depth, check)
                    check = check and self.error is None
                    continue
            elif code == _DOTTED:
                if type(value) is dict and plain_dotted(value):
                    out.append(quote_ident(value["schemaname"]) + "." + quote_ident(value["objname"]))
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
                    if check:
                        check = self.types(value, path + (name,))
                    if plain_type(value):
                        out.append(_type_text(value))
                    else:
                        out.append(self.typename(value, path + (name,), fmt))
                    continue
            elif conv is None:
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
                        self.descend(elem, items, ifns, vpath + (idx,), depth, check)
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


_TOPS: tuple[dict[str | None, Any], dict[str | None, Any]] = ({}, {})  # (check walk, text walk): shape -> _top


def _top(shape: str | None, text: bool) -> tuple[dict[str, Any], bool, bool]:
    """What a walk from the top object read as ``shape`` needs: the functions of its node, whether it is a
    block, whether its slots are checked (a shape the table knows)."""
    block = shape in BLOCKS
    top = _TOPS[text][shape] = (_fns_of(shape, block, text), block, shape is not None and shape in NODES)
    return top


def _walk(found: _Both, tree: Mapping[str, Any], shape: str | None, text: bool) -> _Both:
    """The walk from the top object (as :meth:`_Both.descend`, at depth 0, without its frame)."""
    found.shape = shape
    found.error = None
    found.unpastable = []
    found.seen = {id(tree): 1}
    fns, block, checked = _TOPS[text].get(shape) or _top(shape, text)
    fmt = tree.get("fmt", _MISSING)
    if type(fmt) is not str:
        if fmt is _MISSING:
            raise found.fail('missing element "fmt" in JSON object', (), None)
        if not isinstance(fmt, str):
            raise found.fail('element "fmt" is not of type string', ("fmt",), None)
    fn = fns.get(fmt)
    if fn is None:
        fn = _function(fmt, shape, block, text, fns)
    fn(found, tree, (), 0, checked and tree.get("present", True) is not False)
    return found


_new = object.__new__


def check_both(tree: Mapping[str, Any], shape: str | None, document: str | None = None) -> _Both:
    """:func:`ddlc.jddl.expand.check` of ``tree`` (its errors raised) and, in the same walk,
    :func:`ddlc.frontend.slots.check_tree` as the shape ``shape``: its error (``error``) and its unpastable paths
    (``unpastable``) are in the answer."""
    if type(tree) is not dict:
        from ..jddl.expand import check

        check(tree, document=document)  # raises on what is not an object
    found = _new(_Both)  # (no __init__ frame: _walk sets the rest)
    found.document = document
    return _walk(found, tree, shape, False)


def expand_both(tree: Mapping[str, Any], shape: str | None, document: str | None = None) -> tuple[str, _Both]:
    """:func:`ddlc.jddl.expand.expand` of ``tree`` (its text; its errors raised) and, in the same walk, the slot
    check as :func:`check_both` gives it."""
    if type(tree) is not dict:
        from ..jddl.expand import expand

        expand(tree, document=document)  # raises on what is not an object
    found = _new(_BothText)
    found.document = document
    found.out = []
    _walk(found, tree, shape, True)
    return "".join(found.out), found


__all__ = ["check_both", "expand_both"]
