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
from ..jddl.expand import MAX_DEPTH, REPEATS, CheckWalk, fmt_specs, parse_fmt
from ..jddl.keys import CANONICAL
from .slots import BLOCKS, NODES, _Check, _fmt_info, _GENERIC, _known, _NO_SLOTS, _TAKEN, quick_of
from .treecheck_gen import MAX_ENTRIES, compiled
from .treecheck_steps import _Entry, _MISSING, _STRING_OK, _unwritten, interpreted, interpreted_text

_ = _STRING_OK, _unwritten  # (read from here by tests/test_throughput_round11_check.py)


# per (fmt, node, block): the slot check's problem with the fmt and, per specifier of the expansion (its parse
# errors included, as ``(None, message, ...)``), what both checks need of it: (name, separator, conversion, slot,
# whether the fmt quotes it, the slot's verdicts, the node of an object, of an array's objects, the slot's
# quick_of, whether it is a plain ``%{name}s``: a string there is only judged)
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


def _interpreted(fmt: str, why: str | None, entries: tuple[_Entry, ...], fns: dict[str, Any] | None) -> Any:
    """The interpreter of a plan (:func:`.treecheck_steps.interpreted`), compiled at its COMPILE_AT-th meeting."""
    return interpreted(fmt, why, entries, fns, COMPILE_AT, _compiled, _fns_of)


def _interpreted_text(fmt: str, why: str | None, entries: tuple[_Entry, ...], fns: dict[str, Any] | None) -> Any:
    """:func:`_interpreted` writing the expansion (:func:`.treecheck_steps.interpreted_text`)."""
    return interpreted_text(fmt, why, entries, fns, COMPILE_AT, _compiled, _fns_of)


_TOPS: tuple[dict[str | None, Any], dict[str | None, Any]] = ({}, {})  # (check walk, text walk): shape -> _top


def _top(shape: str | None, text: bool) -> tuple[dict[str, Any], bool, bool]:
    """What a walk from the top object read as ``shape`` needs: the functions of its node, whether it is a
    block, whether its slots are checked (a shape the table knows)."""
    block = shape in BLOCKS
    top = _TOPS[text][shape] = (_fns_of(shape, block, text), block, shape is not None and shape in NODES)
    return top


def _first(found: _Both, tree: Mapping[str, Any], fmt: Any, shape: str | None, block: bool, text: bool,
           fns: dict[str, Any]) -> Any:
    """The function of the top object's ``fmt`` that ``fns`` does not hold (the expansion's error for a
    missing ``fmt`` or one that is not a string)."""
    if type(fmt) is not str:
        if fmt is _MISSING:
            raise found.fail('missing element "fmt" in JSON object', (), None)
        if not isinstance(fmt, str):
            raise found.fail('element "fmt" is not of type string', ("fmt",), None)
    fn = fns.get(fmt)  # (a str subclass)
    return fn if fn is not None else _function(fmt, shape, block, text, fns)


_new = object.__new__
_CHECK_TOPS, _TEXT_TOPS = _TOPS


def check_both(tree: Mapping[str, Any], shape: str | None, document: str | None = None) -> _Both:
    """:func:`ddlc.jddl.expand.check` of ``tree`` (its errors raised) and, in the same walk,
    :func:`ddlc.frontend.slots.check_tree` as the shape ``shape``: its error (``error``) and its unpastable paths
    (``unpastable``) are in the answer. The walk starts here, as :meth:`_Both.descend` at depth 0 (no frame of
    its own); a walk called with ``check`` has no error yet (the plans' functions rely on it)."""
    if type(tree) is not dict:
        from ..jddl.expand import check

        check(tree, document=document)  # raises on what is not an object
    found = _new(_Both)  # (no __init__ frame)
    found.document = document
    found.shape = shape
    found.error = None
    found.unpastable = []
    found.seen = {id(tree): 1}
    fns, block, checked = _CHECK_TOPS.get(shape) or _top(shape, False)
    fmt = tree.get("fmt", _MISSING)
    fn = fns.get(fmt) if type(fmt) is str else None
    if fn is None:
        fn = _first(found, tree, fmt, shape, block, False, fns)
    fn(found, tree, (), 0, checked and tree.get("present", True) is not False)
    return found


def expand_both(tree: Mapping[str, Any], shape: str | None, document: str | None = None) -> tuple[str, _Both]:
    """:func:`ddlc.jddl.expand.expand` of ``tree`` (its text; its errors raised) and, in the same walk, the slot
    check as :func:`check_both` gives it."""
    if type(tree) is not dict:
        from ..jddl.expand import expand

        expand(tree, document=document)  # raises on what is not an object
    found = _new(_BothText)
    found.document = document
    found.out = out = []
    found.shape = shape
    found.error = None
    found.unpastable = []
    found.seen = {id(tree): 1}
    fns, block, checked = _TEXT_TOPS.get(shape) or _top(shape, True)
    fmt = tree.get("fmt", _MISSING)
    fn = fns.get(fmt) if type(fmt) is str else None
    if fn is None:
        fn = _first(found, tree, fmt, shape, block, True, fns)
    fn(found, tree, (), 0, checked and tree.get("present", True) is not False)
    return "".join(out), found


__all__ = ["check_both", "expand_both"]
