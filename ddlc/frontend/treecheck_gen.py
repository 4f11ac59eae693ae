"""The tree check's plans as Python functions (issue 26): one function per (fmt, node, block), made from the plan's
entries (:func:`ddlc.frontend.treecheck._plan`) and compiled once, that reads exactly that fmt's members with
straight-line code: no entry unpacked per member, no branch for a conversion the fmt does not use, the common
``%{name}s`` string judged inline, each object below handed to the next plan's function by
:meth:`~ddlc.frontend.treecheck._Both.descend` through the child node's table (``fmt`` -> function).

A function does what the interpreter (:func:`ddlc.frontend.treecheck._interpreted`) does with the same entries,
in the same order, with the same messages and paths: ``tests/test_throughput_check.py`` runs both on every
fixture tree and mutated ones. The source holds no text of the plan or the document: member names, messages,
the fmt, slots, their remembered verdicts and the child tables are closure cells, and the text is the same for
every plan whose members are of the same kinds, so that Python's compiler (about half a millisecond a function)
runs once per kind of plan, not per fmt (:data:`_CODES`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..quoting import quote_ident, quote_literal
from ..jddl.expand import plain_dotted, plain_type
from .slots import _fail, _learn
from .sql.slotforms import quote_free

MAX_ENTRIES = 64  # a longer fmt (none the server writes) stays with the interpreter


class _Source:
    """Lines of a function's body and the closure values they name (``C0``, ``C1``...): the text is the same for
    every plan of the same kinds of members, whatever their names, so that its code is compiled once."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.values: list[Any] = []

    def value(self, v: Any) -> str:
        self.values.append(v)
        return f"C{len(self.values) - 1}"

    def add(self, indent: int, line: str) -> None:
        self.lines.append("    " * indent + line)


def _judge(src: _Source, ind: int, var: str, name: str, at: str, slot: str, known: str, quick: str) -> None:
    """A string of a ``%s`` member judged against its slot (``check`` and a non-empty string assumed)."""
    src.add(ind, f"got = {known}.get({var})")
    src.add(ind, "if got is None:")
    src.add(ind + 1, f"got = _learn({var}, {slot}, {known}, {quick})")
    src.add(ind, "if got is not _TAKEN and (got[0] is not None or got[1]):")
    src.add(ind + 1, f"check = self.judged({var}, {name}, {slot}, got, {at})")


def _present(src: _Source, ind: int, var: str, name: str, skip: str) -> None:
    """An array's object's ``present`` member: ``skip`` when false, the server's error when not a boolean."""
    src.add(ind, f'present = {var}.get("present", True)')
    src.add(ind, "if present is False:")
    src.add(ind + 1, skip)
    src.add(ind, "if present is not True:")
    src.add(ind + 1, f"raise self.fail(_NOT_BOOLEAN, path + ({name}, idx, 'present'), FMT)")


def source(fmt: str, why: str | None, entries: tuple[Any, ...], text: bool,
           fns_of: Callable[[str | None, bool, bool], dict[str, Any]]) -> tuple[str, list[Any]]:
    """The source of the function of a plan (``def run(self, obj, path, depth, check)`` in a factory taking the
    closure values), and those values. ``fns_of(node, block, text)``: a node's table of functions."""
    src = _Source()
    src.add(1, "if check and (depth > 64 or self.error is not None):")
    src.add(2, "check = False")
    if why is not None:
        top = src.value(f"the statement is not a form the server writes: {why}")
        inner = src.value(f"an object is not a form the server writes: {why}")
        src.add(1, "if check:")
        src.add(2, f"self.error = _fail({top} if not path else {inner}, path + ('fmt',), self.document)")
        src.add(2, "check = False")
    if text:
        src.add(1, "out = self.out")
    target = "out" if text else "self.out"
    for name, sep, conv, slot, inquote, known, child, items, quick, simple in entries:
        if conv is None:
            src.add(1, f"raise self.fail({src.value(sep)}, path + ('fmt',), FMT)")
            break
        if conv == "":
            src.add(1, f"out.append({src.value(name)})")  # the fmt's own text
            continue
        n = src.value(name)
        at = f"path + {src.value((name,))}"
        s_slot = s_known = s_quick = ""
        if conv == "s":
            s_slot, s_known, s_quick = src.value(slot), src.value(known), src.value(quick)
        missing = f"raise self.fail({src.value(chr(34).join(('element ', name, ' not found')))}, {at}, FMT)"
        src.add(1, f"v = obj.get({n}, _MISSING)")
        if sep is None and conv == "s":
            if not simple:
                src.add(1, "if v is _MISSING:")
                src.add(2, missing)
                src.add(1, f"if check and not quote_free(v) and {at} not in self.unpastable:")
                src.add(2, f"self.unpastable.append({at})")
            src.add(1, "if type(v) is str:")
            if text:
                src.add(2, "out.append(v)")
            src.add(2, "if check and v:")
            _judge(src, 3, "v", n, at, s_slot, s_known, s_quick)
            src.add(1, f"elif self.pasted(v, {n}, path, FMT, depth):")
            src.add(2, f"self.descend(v, {src.value(child)}, {src.value(fns_of(child, False, text))}, {at}, depth, "
                       "check)")
            src.add(2, "check = check and self.error is None")
            continue
        src.add(1, "if v is _MISSING:")
        src.add(2, missing)
        if inquote or conv == "T":
            src.add(1, "if check:")
            if inquote:
                src.add(2, f"if not quote_free(v) and {at} not in self.unpastable:")
                src.add(3, f"self.unpastable.append({at})")
            if conv == "T":
                src.add(2, f"check = self.types(v, {at})")
        if sep is None:
            _single(src, n, conv, at, target, text)
            continue
        src.add(1, "if not isinstance(v, list):")
        src.add(2, f"raise self.fail({src.value(chr(34).join(('element ', name, ' is not a JSON array')))}, {at}, "
                   "FMT)")
        el = f"path + ({n}, idx)"
        if text:
            src.add(1, "first = True")
        src.add(1, "for idx, elem in enumerate(v):")
        if text or conv != "s":
            if not text and conv in ("I", "L"):
                src.add(2, "if type(elem) is str:")
                src.add(3, "continue")
            src.add(2, "if isinstance(elem, dict):")
            _present(src, 3, "elem", n, "continue")
            if text:
                src.add(2, "if not first:")
                src.add(3, f"out.append({src.value(sep)})")
                src.add(2, "first = False")
        if conv == "s":
            src.add(2, "if type(elem) is str:")
            if text:
                src.add(3, "out.append(elem)")
            src.add(3, "if check and elem:")
            _judge(src, 4, "elem", n, el, s_slot, s_known, s_quick)
            src.add(3, "continue")
            src.add(2, "if isinstance(elem, dict):")
            if not text:
                _present(src, 3, "elem", n, "continue")
            src.add(3, f"self.descend(elem, {src.value(items)}, {src.value(fns_of(items, False, text))}, {el}, "
                       "depth, check)")
            src.add(3, "check = check and self.error is None")
            src.add(3, "continue")
        src.add(2, f"self.convert(elem, {conv!r}, {n}, {el}, FMT, depth, {target})")
    body = "\n".join("        " + ln[4:] for ln in src.lines)
    src.values.append(fmt)
    names = "".join(f"C{i}, " for i in range(len(src.values) - 1))
    text_ = f"def factory(values):\n    {names}FMT, = values\n    def run(self, obj, path, depth, check):\n" \
            f"{body}\n    return run\n"
    return text_, src.values


def _single(src: _Source, n: str, conv: str, at: str, target: str, text: bool) -> None:
    """A member read once (no separator), of a conversion other than ``s``, after its checks."""
    convert = f"self.convert(v, {conv!r}, {n}, {at}, FMT, depth, {target})"
    if conv in ("I", "L"):
        src.add(1, "if type(v) is str:")
        src.add(2, f"out.append({'quote_ident' if conv == 'I' else 'quote_literal'}(v))" if text else "pass")
        src.add(1, "else:")
        src.add(2, convert)
    elif conv == "D":
        if text:
            src.add(1, "if type(v) is dict and plain_dotted(v):")
            src.add(2, 'out.append(quote_ident(v["schemaname"]) + "." + quote_ident(v["objname"]))')
        else:
            src.add(1, "if type(v) is dict or isinstance(v, dict):")
            src.add(2, "if not plain_dotted(v):")
            src.add(3, f"self.dotted(v, {at}, FMT)")
        src.add(1, "else:")
        src.add(2, convert)
    elif conv == "T" and not text:
        src.add(1, "if type(v) is dict or isinstance(v, dict):")
        src.add(2, "if not plain_type(v):")
        src.add(3, f"self.typename(v, {at}, FMT)")
        src.add(1, "else:")
        src.add(2, convert)
    elif conv == "n" and not text:
        src.add(1, "if type(v) is not int and type(v) is not float:")
        src.add(2, convert)
    else:
        src.add(1, convert)


_GLOBALS = {"_MISSING": None, "_learn": _learn, "_TAKEN": None, "_fail": _fail, "quote_free": quote_free,
            "plain_dotted": plain_dotted, "plain_type": plain_type, "quote_ident": quote_ident,
            "quote_literal": quote_literal, "_NOT_BOOLEAN": 'element "present" is not of type boolean'}
_CODES: dict[str, Any] = {}  # a function's text -> its compiled code (plans of the same kinds of members share it)


def compiled(fmt: str, why: str | None, entries: tuple[Any, ...], text: bool,
             fns_of: Callable[[str | None, bool, bool], dict[str, Any]], missing: Any, taken: Any) -> Any:
    """The function of a plan: ``run(walker, obj, path, depth, check)``. ``missing``: the walk's absent-member
    marker; ``taken``: the verdict of a string taken at once (:data:`ddlc.frontend.slots._TAKEN`)."""
    text_, values = source(fmt, why, entries, text, fns_of)
    code = _CODES.get(text_)
    if code is None:
        code = compile(text_, "<treecheck plan>", "exec")
        if len(_CODES) < 4096:
            _CODES[text_] = code
    namespace = {**_GLOBALS, "_MISSING": missing, "_TAKEN": taken}
    exec(code, namespace)  # noqa: S102 (a text of the plan's kinds of members: no name or text of a document)
    return namespace["factory"](values)


__all__ = ["MAX_ENTRIES", "compiled", "source"]
