"""PostgreSQL's grammar (pglast), once per distinct text: every parse of the SQL layer goes through here.

Results are cached by text (:class:`Recent`), so the same fragment read for its tree (:mod:`.expr`), its
constraint (:mod:`.constraints`) and its object references (:mod:`.refs`) is parsed once, and a text that
comes back in a later document is parsed once more, then kept. Trees are shared: never mutate one (copy
it first). pglast is imported lazily (start-up time).
"""

from __future__ import annotations

import contextvars
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from enum import EnumType
from types import FunctionType, ModuleType
from typing import Any

import orjson

from ...ir.sqltree import TRUSTED, drop_lasting, keep_lasting
from .pgwords import requote


_PGLAST: Any = None


def pglast_ast() -> Any:
    """``pglast.ast``, imported on first use (start-up time) and kept: no import statement per call."""
    global _PGLAST
    if _PGLAST is None:
        from pglast import ast

        _PGLAST = ast
    return _PGLAST


_TRUSTED = TRUSTED  # .on: this thread is inside pglast's own parser (parse_sql below), or builds trusted nodes
# True inside :func:`parse_sql` (in its thread's context only): what the makers (:func:`_maker`) test at each node.
# A context variable's ``get`` is one C call, ~340 instructions; ``_TRUSTED.on``, a ``threading.local``'s attribute,
# ~730 (issue 26: ~1 % of a view's translation). ``_TRUSTED.on`` is still set by the parse for the classes the
# parser calls (those without a maker: their adopted ``__init__`` and pglast's ``Node.__setattr__`` hook read it).
_PARSING: contextvars.ContextVar[bool] = contextvars.ContextVar("ddlc_trusted_parse", default=False)
_FAST: bool | None = None  # whether pglast's nodes are made unchecked inside its parser (None: not decided yet)
# the pglast releases whose parser makes the same trees unchecked as checked (tests/test_pgparse_trusted.py)
_CHECKED_RELEASES = ("8.8",)


def _install() -> bool:
    """Let pglast's parser make its nodes without the per-attribute check of ``Node.__setattr__`` (issue 26:
    5-10x faster parses, ~12 % of a translation). The check exists for nodes built by hand from loose
    values (a list for a tuple, a name for an enum); the parser's values already have their final types,
    and the trees are the same (tests/test_pgparse_trusted.py compares them over every fragment of the
    fixtures). Only the thread inside :func:`parse_sql` skips the check; every other construction of a
    pglast node, in ddlc or in the program using it, is checked as before. Not done for a pglast release
    that was not compared. The hook also gives each class whose node a trusted thread makes an ``__init__``
    of its own that skips the hook too (:func:`_adopt`)."""
    global _FAST
    with _LOCK:  # (two threads parsing first at once: the hook installed once, never one over the other)
        if _FAST is None:
            import pglast
            from pglast import ast

            checked = ast.Node.__setattr__
            release = str(pglast.__version__).lstrip("v")
            if not any(release == r or release.startswith(r + ".") for r in _CHECKED_RELEASES):  # not 8.80
                _FAST = False
            elif getattr(checked, "ddlc_trusted", False):
                _FAST = True
            else:
                from .pglast_inits_generated import TEMPLATES  # (here: never imported under _adopt's lock)

                _TEMPLATES.update(TEMPLATES)
                put, state, adopted, adopt = object.__setattr__, _TRUSTED, _ADOPTED, _adopt

                def __setattr__(self: Any, name: str, value: Any) -> None:
                    if state.on:
                        put(self, name, value)
                        if type(self) not in adopted:  # (the first trusted node of its class: the slow way)
                            adopt(type(self))
                    else:
                        checked(self, name, value)

                __setattr__.ddlc_trusted = True  # type: ignore[attr-defined]
                ast.Node.__setattr__ = __setattr__  # type: ignore[method-assign]
                _install_makers()
                _FAST = True
    return _FAST


def _install_makers() -> None:
    """Let pglast's parser make its nodes and enum members without Python's class calls (issue 26). Its
    Cython code reads the module globals ``ast`` and ``enums`` of ``pglast.parser`` at each node
    (``ast.SelectStmt(...)``, ``getattr(enums, 'SetOperation')(value)``); both become modules of ddlc's
    (:func:`_maker`, :func:`_member`, made for each name when the parser first asks for it) that give:

    - for a node class, a function that, inside :func:`parse_sql` (:data:`_PARSING`), sets the slots of an instance of a private
      class with the node class's base and slots and ``object.__setattr__`` (a slot store ~60 instructions,
      against ~660 through a slot descriptor's ``__set__``; no ``type.__call__``, no ``__init__``), then
      gives the instance the node's class (``__class__``: CPython checks the two layouts are the same): a
      view query's parse ~40 % fewer instructions. Outside it (a parse by the program using ddlc, in any
      thread) it calls the class, checked as before (tests/test_pgparse_trusted.py);
    - for an enum class, its members by value (a dict lookup; a value that is no member's: the enum
      class's own call, which finds or refuses it as before): the very members ``EnumType.__call__`` gives,
      without its two Python frames (~4k instructions a member).

    Installed once, under :data:`_LOCK`, with the hook of :func:`_install`, and never taken back: every
    thread's parse reads the same two modules, whose answers do not depend on which thread asks."""
    from pglast import ast, enums, parser

    from .pglast_makers_generated import TEMPLATES as MAKERS  # (here: imported with the hook, not per parse)

    _MAKERS.update(MAKERS)
    nodes, members = ModuleType(ast.__name__), ModuleType(enums.__name__)
    nodes.__getattr__ = lambda name: _maker(nodes, ast, name)  # type: ignore[method-assign]
    members.__getattr__ = lambda name: _member(members, enums, name)  # type: ignore[method-assign]
    parser.ast, parser.enums = nodes, members  # type: ignore[attr-defined]


_MAKERS: dict[int, Any] = {}  # :mod:`.pglast_makers_generated`'s templates, by size (imported with the hook)


def _maker(into: ModuleType, ast: Any, name: str) -> Any:
    """What ``into`` (the parser's ``ast``) gives for ``name``: the maker of the node class ``ast.<name>``
    from the template of its size (the class's parameter and slot names put in its code: nothing compiled at
    run time), or ``ast``'s own attribute when the class is not one :func:`_adopt` would adopt (its
    ``__init__`` not exactly its slots, each defaulting to None) or its instances' class may not be given
    (CPython refuses ``__class__`` between different layouts). Kept in ``into``: asked once per name (two
    threads asking at once make two equal makers, one kept)."""
    cls = getattr(ast, name)
    out = cls
    own = vars(cls) if isinstance(cls, type) and issubclass(cls, ast.Node) else {}
    init, slots = own.get("__init__"), own.get("__slots__")
    code = getattr(init, "__code__", None)
    template = _MAKERS.get(len(slots)) if isinstance(slots, dict) else None
    if code is not None and template is not None:
        names = tuple(slots)
        if (code.co_argcount == len(names) + 1 and not code.co_kwonlyargcount and not code.co_flags & 0x0C
                and code.co_varnames[1:len(names) + 1] == names and init.__defaults__ == (None,) * len(names)):
            shadow = type(cls.__name__, (cls.__base__,), {
                "__slots__": names, "__setattr__": object.__setattr__, "__init__": object.__init__,
                "__module__": __name__, "__qualname__": "shadow." + cls.__qualname__})
            try:
                shadow().__class__ = cls
            except TypeError:  # (not the same layout: the class itself)
                pass
            else:
                made = template.__code__
                fields = {f"_f{i}": n for i, n in enumerate(names)}
                made = made.replace(co_names=tuple(fields.get(n, n) for n in made.co_names),
                                    co_varnames=names + made.co_varnames[len(names):],
                                    co_name=name, co_qualname="make." + name)
                out = FunctionType(made, {"_T": _PARSING.get, "_S": shadow, "_C": cls}, name, template.__defaults__)
        _adopt(cls)  # (as the hook does at a class's first trusted node: ddlc's trusted builders call the class)
    setattr(into, name, out)
    return out


class _Members(dict):  # type: ignore[type-arg]
    """An enum class's members by value; a value that is none of them: the class's own call (:func:`_member`)."""

    __slots__ = ("cls",)

    def __missing__(self, value: Any) -> Any:
        return self.cls(value)


def _member(into: ModuleType, enums: Any, name: str) -> Any:
    """What ``into`` (the parser's ``enums``) gives for ``name``: for an enum class, the lookup of its members
    by value (:class:`_Members`); else ``enums``' own attribute. Kept in ``into``, as :func:`_maker`'s."""
    cls = out = getattr(enums, name)
    if isinstance(cls, EnumType):
        found = _Members(cls._value2member_map_)
        found.cls = cls
        out = found.__getitem__
    setattr(into, name, out)
    return out


_LOCK = threading.Lock()
_ADOPTED: set[type] = set()  # the pglast classes :func:`_adopt` looked at (given a new __init__ or not)
_TEMPLATES: dict[int, Any] = {}  # :mod:`.pglast_inits_generated`'s, by size (imported with the hook)


def _adopt(cls: type) -> None:
    """Give the pglast node class ``cls`` an ``__init__`` that sets its attributes through their slots'
    descriptors when the thread is trusted (issue 26): the parser calls each class with all its attributes,
    and the class's own ``__init__`` assigns them one by one through ``Node.__setattr__``, a Python call each
    even when trusted (the hook of :func:`_install`; a parse of a view's query: ~40 % fewer instructions).
    When the thread is not trusted it calls the class's own ``__init__`` with the same arguments: every other
    construction (by keyword, from loose values, from a ``{'@': ...}`` dict) is checked as before, and its
    parameters are the class's own. A trusted construction is given final values (the parser's, the
    backends' builders'); a ``{'@': ...}`` dict, which the class's own ``__init__`` reads as a serialized
    node, is never one (checking for it: +0.4-0.8 % instructions on the view family, for nothing).

    Done for each class when a trusted thread first makes one of its nodes, from the template of its size
    (:mod:`.pglast_inits_generated`, made with the class's parameter names by ``code.replace``: nothing is
    compiled at run time), so that a run that parses little pays for the few classes it meets (~40k
    instructions each; all 260 at the first parse, from a generated function per class, cost a one-view
    ``ddlc translate`` +4 % instructions). Only for a class whose ``__init__`` takes exactly its slots, in
    order, each defaulting to None: every class of the compared releases but ``ValUnion``."""
    with _LOCK:
        if cls in _ADOPTED:
            return
        own = vars(cls)
        init, slots = own.get("__init__"), own.get("__slots__")
        code = getattr(init, "__code__", None)
        if code is not None and isinstance(slots, dict) and not getattr(init, "ddlc_trusted", False):
            names = tuple(slots)
            template = _TEMPLATES.get(len(names))
            if (template is not None and code.co_argcount == len(names) + 1 and not code.co_kwonlyargcount
                    and not code.co_flags & 0x0C  # (CO_VARARGS | CO_VARKEYWORDS: inspect is not imported for it)
                    and code.co_varnames[1:len(names) + 1] == names and init.__defaults__ == (None,) * len(names)):
                glob = {"_T": _TRUSTED, "_o": init}
                for i, name in enumerate(names):
                    glob[f"_s{i}"] = own[name].__set__
                made = template.__code__.replace(  # (the class's parameter names: a call by keyword binds as before)
                    co_varnames=code.co_varnames[:len(names) + 1] + template.__code__.co_varnames[len(names) + 1:],
                    co_name="__init__", co_qualname=init.__qualname__)  # ("RangeVar.__init__() got an unexpected...")
                new = FunctionType(made, glob, "__init__", init.__defaults__)
                new.__qualname__ = init.__qualname__
                new.__wrapped__ = init  # type: ignore[attr-defined]
                new.ddlc_trusted = True  # type: ignore[attr-defined]
                cls.__init__ = new  # type: ignore[misc]
        _ADOPTED.add(cls)


def parse_sql(text: str) -> tuple[Any, ...]:
    """``pglast.parse_sql(text)``, its nodes made without the per-attribute check (:func:`_install`).
    Raises pglast's ``ParseError`` as it does."""
    pglast = _PGLAST_PACKAGE or _pglast_package()  # (no import statement per parse: ~0.7 µs each)
    if not (_FAST if _FAST is not None else _install()):
        return pglast.parse_sql(text)
    before = _TRUSTED.on
    _TRUSTED.on = True
    token = _PARSING.set(True)
    try:
        return pglast.parse_sql(text)
    finally:
        _PARSING.reset(token)
        _TRUSTED.on = before


_PGLAST_PACKAGE: Any = None


def _pglast_package() -> Any:
    """The ``pglast`` package, imported on first use and kept (its ``parse_sql`` still read at each call)."""
    global _PGLAST_PACKAGE
    import pglast

    _PGLAST_PACKAGE = pglast
    return pglast


_MISS = object()


class Recent:
    """A cache of ``fn(text)`` (a pure function) that keeps what the text's next readers need without keeping
    every parse of a stream (issue 26): the last ``recent`` results (the readers of one fragment, which ask
    one after the other: its tree, its references, its constraint), and, up to ``kept`` (least recently
    used out first), the results of texts asked for again after they left that window (a stream repeating
    a fragment: parsed a second time, then kept). A text met once is not kept past the window: a pglast
    tree is dozens of objects the garbage collector walks in every full collection for as long as a cache
    holds it (with 8,192 kept, a stream of views spent ~40 % of its time there), and a stream of new
    fragments never reads them again. ``seen``: how many texts are remembered as met (texts only). Safe to
    share between threads as ``functools.lru_cache`` is: a race costs a parse, never a wrong answer."""

    __slots__ = ("fn", "_recent", "_kept", "_seen", "_limits", "_keep", "_drop", "_lock", "__wrapped__", "__name__")

    def __init__(self, fn: Callable[[str], Any], recent: int, kept: int, seen: int,
                 keep: Callable[[Any], None] | None = None, drop: Callable[[Any], None] | None = None) -> None:
        self.fn = self.__wrapped__ = fn
        self.__name__ = getattr(fn, "__name__", type(self).__name__)
        # (OrderedDict: its oldest entry is taken out in constant time; a dict's first key is found past the
        # slots its earlier deletions left, a scan as long as the dict)
        self._recent: OrderedDict[str, Any] = OrderedDict()  # the window, oldest first
        self._kept: OrderedDict[str, Any] = OrderedDict()  # the texts met again, least recently used first
        self._seen: set[str] = set()  # the texts met (all forgotten when full: a repeat may be parsed once more)
        self._limits = (recent, kept, seen)
        self._keep, self._drop = keep, drop  # told of each result kept past the window, and of its leaving
        self._lock = threading.Lock()  # held while a result is kept or let go (a repeated text: rare)

    def __call__(self, text: str) -> Any:
        kept = self._kept
        out = kept.get(text, _MISS)
        if out is not _MISS:
            try:
                kept.move_to_end(text)  # (the most recently used: last)
            except KeyError:  # (another thread took it out meanwhile)
                pass
            return out
        out = self._recent.get(text, _MISS)
        if out is not _MISS:
            return out
        out = self.fn(text)
        recent, most, remembered = self._limits
        seen = self._seen
        if text in seen:  # met before, out of the window since: a repeated text
            if most <= 0:  # (a cache that keeps nothing past its window)
                return out
            with self._lock:  # (kept and the keep/drop registrations change together: no thread sees half)
                kept = self._kept  # (cache_clear may have put a new one in place)
                mine = kept.setdefault(text, out)
                if mine is not out:  # another thread kept its parse of the text first: that one is the answer
                    return mine
                if len(kept) > most:
                    old = kept.popitem(last=False)[1]
                    if self._drop is not None:
                        self._drop(old)
                if self._keep is not None:
                    self._keep(out)
            return out
        if len(seen) >= remembered:
            seen.clear()
        seen.add(text)
        window = self._recent
        if len(window) >= recent:
            try:
                window.popitem(last=False)
            except KeyError:  # (as above)
                pass
        window[text] = out
        return out

    def cache_clear(self) -> None:
        """Forget every result and every text met."""
        with self._lock:  # (a new mapping in its place: a hit moving its text in the old one changes nothing here)
            kept, self._kept = self._kept, OrderedDict()
            self._recent.clear()
            self._seen.clear()  # (a text asked for from now on is a new one: never kept while this runs)
            if self._drop is not None:
                for out in kept.values():
                    self._drop(out)


def recent(recent: int, kept: int, seen: int, keep: Callable[[Any], None] | None = None,
           drop: Callable[[Any], None] | None = None) -> Callable[[Callable[[str], Any]], Recent]:
    """The decorator of :class:`Recent`."""
    return lambda fn: Recent(fn, recent, kept, seen, keep, drop)


def _handed(stmts: tuple[Any, ...] | None) -> Iterator[Any]:
    """The nodes of a parse its readers are handed and remember results for (:mod:`.expr`, :mod:`.refs`): each
    statement, and the expression of a bare ``SELECT <expression>``'s one target."""
    for raw in stmts or ():
        stmt = raw.stmt
        if stmt is None:
            continue
        yield stmt
        targets = getattr(stmt, "targetList", None)
        if type(targets) is tuple and len(targets) == 1 and getattr(targets[0], "val", None) is not None:
            yield targets[0].val


def _keep(stmts: tuple[Any, ...] | None) -> None:
    keep_lasting(_handed(stmts))


def _drop(stmts: tuple[Any, ...] | None) -> None:
    drop_lasting(_handed(stmts))


# (each parse registered with ddlc.ir.sqltree while kept past the window: what is worked out per tree is kept
# as long for those, and only briefly for any other)
@recent(recent=64, kept=8192, seen=16384, keep=_keep, drop=_drop)
def parse_statements(sql: str) -> tuple[Any, ...] | None:
    """The raw statements of ``sql`` (pglast ``RawStmt`` nodes), or None when it does not parse.

    PostgreSQL's grammar reads the text with openGauss's bare names that are PostgreSQL keywords quoted
    (:func:`ddlc.frontend.sql.pgwords.requote`): pglast's locations are offsets in that text (map them
    back with :func:`~ddlc.frontend.sql.pgwords.to_source`)."""
    try:
        return tuple(parse_sql(requote(sql)[0]))
    except Exception:  # noqa: BLE001 - pglast.parser.ParseError: GaussDB-only syntax
        return None


@recent(recent=32, kept=256, seen=4096)
def parse_json(sql: str) -> dict[str, Any] | None:
    """The JSON form of pglast's parse of ``sql`` (the same C parser as :func:`parse_statements`, the same
    requoting; no Python nodes: 3-4x cheaper when a reader needs a few fields), or None when it does not
    parse. Shared between readers of the same text: never mutate it."""
    global _PARSE_JSON
    if _PARSE_JSON is None:
        from pglast.parser import parse_sql_json

        _PARSE_JSON = parse_sql_json
    try:
        return orjson.loads(_PARSE_JSON(requote(sql)[0]))
    except Exception:  # noqa: BLE001 - pglast.parser.ParseError: GaussDB-only syntax
        return None


_PARSE_JSON: Any = None


__all__ = ["Recent", "parse_json", "parse_sql", "parse_statements", "pglast_ast", "recent"]
