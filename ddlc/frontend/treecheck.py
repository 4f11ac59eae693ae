"""The expansion check and the slot check of a tree in one walk (issue 26: a document walked once).

:func:`ddlc.jddl.expand.check` (the server's errors, as :func:`~ddlc.jddl.expand.expand` raises them) and
:func:`ddlc.frontend.slots.check_tree` (every raw slot in its class, DDLC-E011) read the same objects through
the same specifiers. :func:`check_both` does both in one walk, by one plan per (fmt, node, block): the
expansion's errors are raised as they are met, as :func:`~ddlc.jddl.expand.check` raises them; the slot
check's first error and its unpastable paths are kept (``error``, ``unpastable``), to be raised or used after the build,
whose errors come between the two (``build(..., expansion=True)``). The slot check follows the shape the
tree's ``fmt`` names; a tree built as another shape is checked again by :func:`~ddlc.frontend.slots.check_tree`.
``tests/test_throughput_front2.py`` compares it with the two checks on every fixture tree and mutated ones.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..diagnostics import E_DEPTH
from ..errors import DdlcError, Path
from ..jddl.expand import MAX_DEPTH, REPEATS, CheckWalk, plain_dotted, plain_type, fmt_specs, parse_fmt
from ..jddl.keys import CANONICAL
from .slots import BLOCKS, NODES, _Check, _fail, _fmt_info, _GENERIC, _known, _learn, _NO_SLOTS, quick_of
from .sql.slotforms import quote_free

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


class _Both(CheckWalk):
    """:class:`ddlc.jddl.expand.CheckWalk` with :class:`ddlc.frontend.slots._Check`'s checks of the same members,
    and what the slot check found: its first error (``error``, raised after the build) and the unpastable paths,
    for the shape ``shape``.

    A slot check's error is kept, not raised, and ends the slot check; the expansion check goes on. The
    recursion keeps the expansion check's two frames per level (``expand`` -> ``descend``)."""

    __slots__ = ("shape", "error", "unpastable", "out")

    def __init__(self, document: str | None, shape: str | None) -> None:
        self.document = document
        self.seen: dict[int, int] = {}
        self.render = False
        self.shape = shape
        self.error: DdlcError | None = None
        self.unpastable: list[Path] = []
        self.out: list[str] = []  # (what the expansion check writes: nothing to read)

    _plans = _PLANS  # (fmt, node, block) -> the plan of an object of that fmt (the text walk's: _TEXT_PLANS)
    _text = False

    def enter(self, obj: Mapping[str, Any], node: str | None, path: Path, depth: int, block: bool,
              check: bool) -> tuple[str, tuple[_Entry, ...], bool]:
        """What both walks do first at an object: the expansion's depth, repeat and ``fmt`` errors, the object's
        plan, and whether its slots are still checked (its form's error kept, not raised)."""
        if depth > MAX_DEPTH:
            raise DdlcError(f"tree nested deeper than {MAX_DEPTH} levels", code=E_DEPTH, path=path,
                            document=self.document)
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
        check = check and depth <= 64 and self.error is None
        plan = self._plans.get((fmt, node, block))
        if plan is None:
            plan = _plan(fmt, node, block, self._text)
        why, entries = plan
        if check and why is not None:
            self.error = _fail(
                f"{'the statement' if not path else 'an object'} is not a form the server writes: {why}",
                path + ("fmt",), self.document)
            check = False
        return fmt, entries, check

    def walk(self, obj: Mapping[str, Any], node: str | None, path: Path, depth: int, block: bool,
             check: bool) -> None:
        fmt, entries, check = self.enter(obj, node, path, depth, block, check)
        string_ok = _STRING_OK
        for name, sep, conv, slot, inquote, known, child, items, quick, simple in entries:
            if name is None:
                raise self.fail(sep, path + ("fmt",), fmt)
            value = obj.get(name, _MISSING)
            if simple and type(value) is str:  # the common member: a string %s pastes as it is
                if check and value:
                    got = known.get(value)
                    if got is None:
                        got = _learn(value, slot, known, quick)
                    if got[0] is not None or got[1]:
                        check = self.judged(value, name, slot, got, path + (name,))
                continue
            if value is _MISSING:
                raise self.fail(f'element "{name}" not found', path + (name,), fmt)
            if check:
                if inquote and not quote_free(value) and path + (name,) not in self.unpastable:
                    self.unpastable.append(path + (name,))  # between the fmt's own quotes, unescaped
                if conv == "T":
                    check = self.types(value, path + (name,))
            if sep is None:
                if type(value) is str:
                    if conv in string_ok:
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
                        self.descend(value, child, path + (name,), depth, check)
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
                if type(elem) is str and conv in string_ok:
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
                        self.descend(elem, items, vpath + (idx,), depth, check)
                        check = check and self.error is None
                        continue
                self.convert(elem, conv, name, vpath + (idx,), fmt, depth, self.out)

    def expand(self, obj: Mapping[str, Any], path: Path, depth: int, out: list[str]) -> None:
        """(Not reached: the walk descends into every object a ``%s`` pastes itself; kept so that no object is
        ever expanded by :class:`CheckWalk`'s walk, which writes no text.)"""
        self.walk(obj, None, path, depth, False, False)

    def descend(self, v: Mapping[str, Any], node: str | None, path: Path, depth: int,  # type: ignore[override]
                check: bool) -> None:
        """An object pasted by ``%s``, as :meth:`CheckWalk.descend` expands it (its frame stands for convert's)."""
        try:
            self.walk(v, node, path, depth + 1, False, check)
        except RecursionError:
            raise DdlcError("tree nested too deeply", code=E_DEPTH, path=path, document=self.document) from None

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

    __slots__ = ()
    _plans = _TEXT_PLANS
    _text = True

    def __init__(self, document: str | None, shape: str | None) -> None:
        super().__init__(document, shape)
        self.render = True

    def walk(self, obj: Mapping[str, Any], node: str | None, path: Path, depth: int, block: bool,
             check: bool) -> None:
        fmt, entries, check = self.enter(obj, node, path, depth, block, check)
        out = self.out
        for name, sep, conv, slot, inquote, known, child, items, quick, simple in entries:
            if simple:
                value = obj.get(name, _MISSING)
                if type(value) is str:  # the common member: a string %s pastes as it is
                    out.append(value)
                    if check and value:
                        got = known.get(value)
                        if got is None:
                            got = _learn(value, slot, known, quick)
                        if got[0] is not None or got[1]:
                            check = self.judged(value, name, slot, got, path + (name,))
                    continue
            elif not conv:
                if conv is None:
                    raise self.fail(sep, path + ("fmt",), fmt)
                out.append(name)  # the fmt's own text
                continue
            else:
                value = obj.get(name, _MISSING)
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
                        self.descend(value, child, path + (name,), depth, check)
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
                        self.descend(elem, items, vpath + (idx,), depth, check)
                        check = check and self.error is None
                        continue
                self.convert(elem, conv, name, vpath + (idx,), fmt, depth, out)


def _start(tree: Mapping[str, Any], shape: str | None, document: str | None, walker: type[_Both]) -> _Both:
    found = walker(document, shape)
    found.walk(tree, shape, (), 0, shape in BLOCKS,
               shape is not None and shape in NODES and tree.get("present", True) is not False)
    return found


def check_both(tree: Mapping[str, Any], shape: str | None, document: str | None = None) -> _Both:
    """:func:`ddlc.jddl.expand.check` of ``tree`` (its errors raised) and, in the same walk,
    :func:`ddlc.frontend.slots.check_tree` as the shape ``shape``: its error (``error``) and its unpastable paths
    (``unpastable``) are in the answer."""
    if type(tree) is not dict:
        from ..jddl.expand import check

        check(tree, document=document)  # raises on what is not an object
    return _start(tree, shape, document, _Both)


def expand_both(tree: Mapping[str, Any], shape: str | None, document: str | None = None) -> tuple[str, _Both]:
    """:func:`ddlc.jddl.expand.expand` of ``tree`` (its text; its errors raised) and, in the same walk, the slot
    check as :func:`check_both` gives it."""
    if type(tree) is not dict:
        from ..jddl.expand import expand

        expand(tree, document=document)  # raises on what is not an object
    found = _start(tree, shape, document, _BothText)
    return "".join(found.out), found


__all__ = ["check_both", "expand_both"]
