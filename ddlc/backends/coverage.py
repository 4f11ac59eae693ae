"""Node-level coverage of a backend: no ALTER subcommand falls through to nothing.

:func:`~ddlc.backends.base.check_coverage` proves that every IR *statement* class is emitted or refused.
A statement that holds subcommands (``AlterRelation.subcommands``, and the follow-up messages built on it)
hands each one to a handler found by its class in a *subcommand table*; :func:`check_nodes` proves, for
each target, that every subcommand class such a statement can hold (read from the IR's field type hints:
a field typed by ``AlterSubcommand`` holds every subclass, in ``ir/alter*.py``, ``ir/followup.py``...) is
either

* in the table the statement's emitter hands subcommands to: handled by a function, or refused by a
  :class:`~ddlc.ir.rules.Refusal` entry (declared with the table; the emitter reports it, with the
  refusal's code and message, in the order of the subcommands), or
* declared unsupported by a :class:`~ddlc.ir.rules.Rule` of the backend that drops it whatever its
  content (no ``applies``, no ``within``): the ``drop_unsupported`` pass removes it, with its diagnostic,
  before any emitter runs,

never both (a table entry no subcommand reaches) and never neither. A table's entry for a class no
statement can hold is refused too. Which table: the one the emitter declares with :func:`dispatches`
(PostgreSQL's and Spark's ``alter.SUB``), else the backend's own node → emitter table (the GaussDB
writer dispatches every node, subcommands included, through it). An emitter that writes its statement
whole and dispatches nothing says so with :func:`writes_whole`. Rules that apply only to some forms
of a handled class are the handler's business and are not looked at here.
"""

from __future__ import annotations

import importlib
import os
import sys
import typing
from collections.abc import Callable, Mapping
from typing import Any, TypeVar
from .. import lazyre

F = TypeVar("F", bound=Callable[..., Any])
_TABLE_ATTR = "__subcommands__"


def dispatches(table: Callable[[], Mapping[type, Any]]) -> Callable[[F], F]:
    """Declare that an emitter hands its statement's subcommands to the handlers of ``table()`` (a
    callable, as the table is usually built after the emitter, at the end of its module)."""

    def deco(fn: F) -> F:
        setattr(fn, _TABLE_ATTR, table)
        return fn

    return deco


def writes_whole(fn: F) -> F:
    """Declare that an emitter writes its statement whole, from the statement itself, and hands no subcommand
    to a handler (a target that prints each statement as one piece): every subcommand counts as handled."""
    setattr(fn, _TABLE_ATTR, _WHOLE)
    return fn


_WHOLE: Any = object()  # what writes_whole declares instead of a table


def _exported(c: type) -> bool:
    """``c`` is the class its module exports (a records/dataclass decorator leaves the undecorated
    class behind among the base's subclasses)."""
    return getattr(sys.modules.get(c.__module__), c.__qualname__, None) is c


def _subclasses(base: type) -> list[type]:
    out, todo = [], [base]
    while todo:
        c = todo.pop()
        for s in c.__subclasses__():
            if _exported(s) and s not in out:
                out.append(s)
            todo.append(s)
    return out


def _leaves(h: Any) -> list[Any]:
    args = typing.get_args(h)
    if not args:
        return [h]
    return [t for a in args if a is not Ellipsis for t in _leaves(a)]


def _held_hints(cls: type, names: set[str]) -> list[Any]:
    """The type hints of the fields of ``cls`` whose annotation names one of ``names``: only such a field can be
    typed to hold a subcommand (annotations are strings here: ``from __future__ import annotations``). Each is
    resolved as :func:`typing.get_type_hints` resolves it, in the module of the class that annotates it (the
    most derived one), but alone: resolving every field of a class cost ~0.5 ms of start-up."""
    fields: dict[str, tuple[Any, type]] = {}
    for klass in reversed(cls.__mro__):
        for name, a in vars(klass).get("__annotations__", {}).items():
            fields[name] = (a, klass)
    out = []
    for a, klass in fields.values():
        words = set(_WORD.findall(a)) if isinstance(a, str) else {getattr(t, "__name__", "") for t in _leaves(a)}
        if words & names:  # (a class of its own, the field's only annotation, in the module of its class)
            probe = type(klass.__name__, (), {"__module__": klass.__module__, "__annotations__": {"h": a}})
            out.append(typing.get_type_hints(probe)["h"])
    return out


_WORD = lazyre.compile(r"\w+")
_HOLDERS: dict[type, frozenset[type]] | None = None


def modules_of(path: list[str]) -> list[str]:
    """The modules (not the packages) in the directories ``path``, as ``pkgutil.iter_modules`` lists them
    (sorted by file name, a name once): read here with ``os.listdir``, since importing ``pkgutil`` cost every
    start-up ~0.5 ms."""
    from inspect import getmodulename  # (imported already: dataclasses imports it)

    if not all(os.path.isdir(d) for d in path):  # a zip or another importer's path: pkgutil knows them
        import pkgutil

        return [m.name for m in pkgutil.iter_modules(path) if not m.ispkg]
    seen: set[str] = set()
    out: list[str] = []
    for d in path:
        try:
            files = sorted(os.listdir(d))
        except OSError:
            continue
        for fn in files:
            name = getmodulename(fn)
            if name is None:  # a directory: a package when it holds __init__, which takes its name
                full = os.path.join(d, fn)
                if "." not in fn and os.path.isdir(full) and _holds_init(full):
                    seen.add(fn)
                continue
            if name != "__init__" and "." not in name and name not in seen:
                seen.add(name)
                out.append(name)
    return out


def _holds_init(d: str) -> bool:
    from inspect import getmodulename

    try:
        return any(getmodulename(fn) == "__init__" for fn in os.listdir(d))
    except OSError:
        return False


def holders() -> dict[type, frozenset[type]]:
    """Each IR statement class that holds subcommands → every concrete subcommand class it can hold."""
    global _HOLDERS
    if _HOLDERS is None:
        from .. import ir
        from ..ir import statement_classes
        from ..ir.alter import AlterSubcommand

        for name in modules_of(ir.__path__):  # every module that may define a subcommand class
            importlib.import_module(f"{ir.__name__}.{name}")
        names = {c.__name__ for c in (AlterSubcommand, *_subclasses(AlterSubcommand))}
        out: dict[type, frozenset[type]] = {}
        for stmt in statement_classes():
            held: set[type] = set()
            for hint in _held_hints(stmt, names):  # (resolving every statement's hints cost ~30 ms at start-up)
                for t in _leaves(hint):
                    if isinstance(t, type) and issubclass(t, AlterSubcommand):
                        below = _subclasses(t)
                        held.update(below if below else (t,))  # a base class with subclasses is abstract
            if held:
                out[stmt] = frozenset(held)
        _HOLDERS = out
    return _HOLDERS


def subcommand_table(cls: type, stmt: type) -> Mapping[type, Any] | None:
    """The table the emitter of ``stmt`` on backend ``cls`` hands subcommands to (None: it writes the
    statement whole, :func:`writes_whole`)."""
    declared = getattr(cls.emitters[stmt], _TABLE_ATTR, None)
    if declared is _WHOLE:
        return None
    return declared() if declared is not None else cls.emitters


def dropped_whole(cls: type) -> frozenset[type]:
    """The node classes a rule of ``cls`` drops whatever their content."""
    from ..ir.base import Node
    from ..ir.rules import Rule

    always = Rule(Node, "", "").applies  # the default: applies to every node
    return frozenset(r.node for r in cls.rules if r.drops and r.applies is always and r.within is None)


def check_nodes(cls: type) -> None:
    """Every subcommand class a statement emitted by ``cls`` can hold is handled by that statement's
    subcommand table or dropped by a rule of ``cls`` that always applies, never both; a table holds no
    handler for a class no statement can hold. :class:`TypeError` naming the classes otherwise."""
    dropped = dropped_whole(cls)
    missing: dict[str, set[str]] = {}
    both: dict[str, set[str]] = {}
    holdable: set[type] = set()
    tables: dict[int, Mapping[type, Any]] = {}
    for stmt, subs in holders().items():
        if stmt not in cls.emitters or stmt in dropped:  # refused whole (check_coverage's business)
            continue
        holdable |= subs
        table = subcommand_table(cls, stmt)
        if table is None:  # written whole: no subcommand reaches a handler
            continue
        if table is not cls.emitters:
            tables[id(table)] = table
        for sub in subs:
            if sub in table and sub in dropped:
                both.setdefault(sub.__name__, set()).add(stmt.__name__)
            elif sub not in table and sub not in dropped:
                missing.setdefault(sub.__name__, set()).add(stmt.__name__)
    stray = sorted({c.__name__ for t in tables.values() for c in t if c not in holdable})
    problems = []
    if missing:
        problems.append("subcommands neither handled nor dropped by a rule that always applies: "
                        + _listed(missing))
    if both:
        problems.append("subcommands in the table and also dropped by a rule that always applies (the entry is "
                        "never reached): " + _listed(both))
    if stray:
        problems.append("handlers for classes no statement holds: " + ", ".join(stray))
    if problems:
        raise TypeError(f"backend {cls.name}: " + "; ".join(problems))


def _listed(found: dict[str, set[str]]) -> str:
    """``AddColumn, DropColumn (in AlterRelation, AlterTableFollowup)``: the classes grouped by their holders."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for sub, stmts in sorted(found.items()):
        groups.setdefault(tuple(sorted(stmts)), []).append(sub)
    return "; ".join(f"{', '.join(subs)} (in {', '.join(stmts)})" for stmts, subs in sorted(groups.items()))


__all__ = ["check_nodes", "dispatches", "dropped_whole", "holders", "modules_of", "subcommand_table", "writes_whole"]
