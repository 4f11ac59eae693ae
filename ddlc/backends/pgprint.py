"""A faster ``pglast.stream.RawStream`` for pglast 8.8: the same text, with less work per node (issue 26).

pglast's printers (``pglast/printers/*``) call back into the stream for every node, name, separator and
parenthesis; ``RawStream`` answers through generator-based context managers (``expression``,
``push_indent``, ``push_expr_context``), looks each node's printer up through its ancestor chain
(``printers.get_printer_for_node``, ``abs(node.ancestors)``) and writes through three layers
(``swrite`` -> ``maybe_write_space`` -> ``write`` -> ``StringIO.write``). :class:`FastRawStream` keeps
every decision pglast makes, in the same order, and only does it with less machinery:

* the context managers are small objects with ``__enter__``/``__exit__``; ``push_indent`` (a no-op in a
  ``RawStream``: it has no indentation) returns one shared no-op;
* a node whose class has no printer specific to its parent (every class but the dozen pglast registers
  as ``(parent, node)``) takes its printer from the registry directly, without walking its ancestors;
* a ``String`` printed by pglast's own ``string`` printer is written as its value at once (what that
  printer does through a second ``print_node``);
* ``write``, ``swrite``, ``separator``, ``print_node``, ``print_name``, ``print_list`` and
  ``_print_items`` are pglast's code with the options a ``RawStream`` is made with by default
  (``comma_at_eoln``, ``remove_pg_catalog_from_functions`` and ``comments`` off; the class takes no
  options) and the inner calls inlined.

Only the release compared (:data:`CHECKED_RELEASES`) uses it (``backends.writer.pg_deparse``; another release
prints with pglast's ``RawStream``): ``tests/test_throughput_print.py`` prints every tree the fixtures print,
every statement and every node of every SQL text they parse, and generated SELECTs with both streams and
compares the texts (and the errors).
"""

from __future__ import annotations

from io import StringIO
from typing import Any

import pglast
from pglast import ast
from pglast.keywords import RESERVED_KEYWORDS, TYPE_FUNC_NAME_KEYWORDS
from pglast.printers import NODE_PRINTERS, dml, get_printer_for_node
from pglast.stream import RawStream, is_simple_name

# the pglast releases whose RawStream this class was compared with (tests/test_throughput_print.py)
CHECKED_RELEASES = ("8.8",)

_SPECIAL = frozenset("""_*+/-"'=<>$@""")  # OutputStream.maybe_write_space's special characters
_QUOTED_WORDS = frozenset(RESERVED_KEYWORDS) | frozenset(TYPE_FUNC_NAME_KEYWORDS)
_ATOMS = (ast.A_Const, ast.ColumnRef, ast.SetToDefault, ast.RangeVar)  # RawStream.print_list's test
_Node = ast.Node
_String = ast.String
_string_printer = dml.string
_sio_write = StringIO.write

_PARENTED: frozenset[type] = frozenset()  # node classes with a printer specific to their parent's class
_REGISTERED = -1  # len(NODE_PRINTERS) when _PARENTED was worked out


def _parented() -> frozenset[type]:
    global _PARENTED, _REGISTERED
    if len(NODE_PRINTERS) != _REGISTERED:
        _PARENTED = frozenset(k[1] for k in NODE_PRINTERS if type(k) is tuple)
        _REGISTERED = len(NODE_PRINTERS)
    return _PARENTED


def supported() -> bool:
    """Whether the installed pglast is a release :class:`FastRawStream` was compared with."""
    release = str(pglast.__version__).lstrip("v")
    return any(release == r or release.startswith(r + ".") for r in CHECKED_RELEASES)  # 8.8, 8.8.1; not 8.80


def quote_name(name: str) -> str:
    """``pglast.stream.maybe_double_quote_name``, except for a name ending in a line break: pglast's simple-name
    pattern ends in ``$``, which matches before a final ``\n``, so it wrote ``"abc\n"`` bare (``abc``: another
    name). Such a name is quoted here."""
    if name.isascii() and name.islower() and name.isidentifier():  # (writer.pg_ident's cheaper test first)
        return name if name not in _QUOTED_WORDS else '"' + name + '"'
    if is_simple_name(name) and name[-1:] != "\n" and name not in _QUOTED_WORDS:
        return name
    return '"%s"' % name.replace('"', '""')


class _NoOp:
    __slots__ = ()

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: Any) -> None:
        return None


_NOOP = _NoOp()


class _Parens:
    """``RawStream.expression(True)``: ``(`` on entry, ``)`` after a body that did not raise (as there)."""

    __slots__ = ("stream",)

    def __init__(self, stream: FastRawStream) -> None:
        self.stream = stream

    def __enter__(self) -> None:
        self.stream.write("(")

    def __exit__(self, kind: Any, value: Any, tb: Any) -> None:
        if kind is None:
            self.stream.write(")")


class _ExprContext:
    """``RawStream.push_expr_context``: the stream's expression context set for the body, then restored."""

    __slots__ = ("stream", "ctx", "previous")

    def __init__(self, stream: FastRawStream, ctx: Any) -> None:
        self.stream = stream
        self.ctx = ctx

    def __enter__(self) -> None:
        stream = self.stream
        self.previous = stream.expr_context
        stream.expr_context = self.ctx

    def __exit__(self, *exc: Any) -> None:
        self.stream.expr_context = self.previous


class FastRawStream(RawStream):
    """``RawStream()`` (default options), printing the same text faster (the module's docstring says how)."""

    def __init__(self) -> None:
        super().__init__()
        self._parented = _parented()

    # -- output: OutputStream's write / swrite / separator, inlined ------------------------------------
    def write(self, s: str) -> int:
        if not s:
            return 0
        if self.pending_separator:
            self.pending_separator = False
            if s != " ":
                lec = self.last_emitted_char
                if lec != "(" and not lec.isspace():
                    c = s[0]
                    if c.isalnum() or c in _SPECIAL:
                        _sio_write(self, " ")
        count = _sio_write(self, s)
        self.last_emitted_char = s[-1]
        return count

    def swrite(self, s: str) -> int:
        c = s[0]
        lec = self.last_emitted_char
        count = 0
        if lec != "(" and not lec.isspace() and (c.isalnum() or c in _SPECIAL):
            self.pending_separator = False  # (the space goes through write, which clears it)
            count = _sio_write(self, " ")
            self.last_emitted_char = " "
        return count + self.write(s)

    def writes(self, s: str) -> int:
        count = self.write(s)
        if not self.last_emitted_char.isspace():
            self.pending_separator = True
        return count

    def swrites(self, s: str) -> int:
        count = self.swrite(s)
        if not self.last_emitted_char.isspace():
            self.pending_separator = True
        return count

    def separator(self) -> None:
        if not self.last_emitted_char.isspace():
            self.pending_separator = True

    # -- context managers ------------------------------------------------------------------------------
    def push_indent(self, amount: int = 0, relative: bool = True) -> Any:
        return _NOOP

    def expression(self, need_parens: Any) -> Any:
        return _Parens(self) if need_parens else _NOOP

    def push_expr_context(self, ctx: Any) -> Any:
        return _ExprContext(self, ctx)

    # -- nodes -----------------------------------------------------------------------------------------
    def print_node(self, node: Any, is_name: Any = False, is_symbol: Any = False) -> None:
        if self.comments:  # (never: the class takes no comments) pglast's own path
            return RawStream.print_node(self, node, is_name, is_symbol)
        if is_name and isinstance(node, (list, tuple)):
            self._print_items(node, ".", False, True, False, None)
        elif isinstance(node, _Node):
            cls = type(node)
            ancestors = node.ancestors  # (get_printer_for_node reads it: unset, AttributeError there too)
            if cls in self._parented:  # get_printer_for_node: the printer for its nearest node ancestor's class
                while ancestors is not None and not isinstance(ancestors.node, _Node):
                    ancestors = ancestors.parent
                printer = NODE_PRINTERS.get((None if ancestors is None else type(ancestors.node), cls))
                if printer is None:
                    printer = NODE_PRINTERS.get(cls)
            else:
                printer = NODE_PRINTERS.get(cls)
            if printer is None:
                printer = get_printer_for_node(node)  # (its error)
            if printer is _string_printer and type(node.sval) is str:  # its print_node of the value, inlined
                if is_name:
                    self._print_scalar(node.sval, is_name, is_symbol)
                else:
                    self.write_quoted_string(node.sval)
            elif is_name and isinstance(node, _String):
                printer(node, self, is_name=is_name, is_symbol=is_symbol)
            else:
                printer(node, self)
        else:
            self._print_scalar(node, is_name, is_symbol)
        if not self.last_emitted_char.isspace():
            self.pending_separator = True

    def _print_scalar(self, value: Any, is_name: Any, is_symbol: Any) -> None:
        if isinstance(value, str):
            if is_symbol:
                self.write(value)
            elif is_name:
                self.write(quote_name(value))
            else:
                self.write_quoted_string(value)
        else:
            self.write(str(value))

    def print_name(self, nodes: Any, sep: str = ".") -> None:
        if isinstance(nodes, (list, tuple)):
            self._print_items(nodes, sep, False, True, False, None)
        elif isinstance(nodes, _Node):
            self.print_node(nodes, is_name=True)
        else:
            self._print_scalar(nodes, True, False)
        if not self.last_emitted_char.isspace():
            self.pending_separator = True

    def print_list(self, nodes: Any, sep: str = ",", relative_indent: Any = None, standalone_items: Any = None,
                   are_names: Any = False, is_symbol: Any = False, item_needs_parens: Any = None) -> None:
        if standalone_items is None:
            standalone_items = not all(isinstance(n, _ATOMS) for n in nodes)
        self._print_items(nodes, sep, standalone_items, are_names, is_symbol, item_needs_parens)

    def _print_items(self, items: Any, sep: Any, newline: Any, are_names: Any = False, is_symbol: Any = False,
                     item_needs_parens: Any = None) -> None:
        last = len(items) - 1
        print_node = self.print_node
        for idx, item in enumerate(items):
            if idx:
                if newline and not are_names and not self.last_emitted_char.isspace():
                    self.pending_separator = True
                if sep:
                    self.swrite(sep)
                    if sep != ".":
                        self.write(" ")
            if item is None:
                self.write("None")
            elif item_needs_parens is not None and item_needs_parens(item):
                self.write("(")
                print_node(item, are_names, is_symbol and idx == last)
                self.write(")")
            else:
                print_node(item, are_names, is_symbol and idx == last)
