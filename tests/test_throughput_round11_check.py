"""Round 11 (issue 26), the tree check's interpreters with short paths for the common members
(:func:`ddlc.frontend.treecheck._interpreted`, :func:`~ddlc.frontend.treecheck._interpreted_text`): the plan's steps
carry a code for a plain ``%{name}s``, a single ``%D``, ``%I``, ``%L`` or ``%T``, and the text walk writes the fmt's
own text with the specifier after it. They are compared here with the interpreters as they were (kept below, from
4a0c31e) on every fixture tree read as every shape, mutated trees and trees of made-up fmts: the same error (code,
message, path, fmt), the same text, the same slot-check error and unpastable paths.

User code (a routine text, an inline body) without ``--``, ``/`` or a backslash is read by
:func:`~ddlc.lexer.token_spans` (:func:`ddlc.frontend.sql.slotforms._code_scan`): compared with the scan as it was
on every string of the fixture trees and generated texts (the verdict, the tokens, the spans remembered)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ddlc.errors import DdlcError, Path
from ddlc.frontend import treecheck
from ddlc.frontend.slots import NODES, _learn
from ddlc.frontend.sql.slotforms import quote_free
from ddlc.frontend.treecheck import _Both, _Entry, _MISSING, _STRING_OK, _compiled, _fns_of, _unwritten
from ddlc.frontend.treecheck import check_both, expand_both
from ddlc.frontend.treecheck_gen import MAX_ENTRIES
from ddlc.jddl.expand import plain_dotted, plain_type

from test_expand_check import TREES, mutated
from test_throughput_check import _made_up, _mode, _shape


# ---- the interpreters as they were (4a0c31e) -------------------------------------------------------------
def _old_interpreted(fmt: str, why: str | None, entries: tuple[_Entry, ...], fns: dict[str, Any] | None) -> Any:
    """The function of a plan, reading its entries (as the compiled one does: :mod:`.treecheck_gen`); kept in
    ``fns`` (or None), it counts its meetings and puts the compiled function in its place at the treecheck.COMPILE_AT-th."""
    counting = fns is not None and len(entries) <= MAX_ENTRIES
    met = [0]
    steps = tuple((*e, _fns_of(e[6], False, False), _fns_of(e[7], False, False)) for e in entries)

    def run(self: _Both, obj: Mapping[str, Any], path: Path, depth: int, check: bool) -> None:
        if counting:
            met[0] += 1
            if met[0] == treecheck.COMPILE_AT:  # the compiled function in this one's place from the next meeting on
                fns[fmt] = _compiled(fmt, why, entries, False)  # type: ignore[index]
        check = check and depth <= 64 and self.error is None
        if check and why is not None:
            check = _unwritten(self, path, why)
        string_ok = _STRING_OK
        for name, sep, conv, slot, inquote, known, child, items, quick, simple, cfns, ifns in steps:
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
                        self.descend(elem, items, ifns, vpath + (idx,), depth, check)
                        check = check and self.error is None
                        continue
                self.convert(elem, conv, name, vpath + (idx,), fmt, depth, self.out)

    return run


def _old_interpreted_text(fmt: str, why: str | None, entries: tuple[_Entry, ...], fns: dict[str, Any] | None) -> Any:
    """:func:`_interpreted` writing the expansion (the entries of a text plan: the fmt's own text included)."""
    counting = fns is not None and len(entries) <= MAX_ENTRIES
    met = [0]
    steps = tuple((*e, _fns_of(e[6], False, True), _fns_of(e[7], False, True)) for e in entries)

    def run(self: _Both, obj: Mapping[str, Any], path: Path, depth: int, check: bool) -> None:
        if counting:
            met[0] += 1
            if met[0] == treecheck.COMPILE_AT:  # the compiled function in this one's place from the next meeting on
                fns[fmt] = _compiled(fmt, why, entries, True)  # type: ignore[index]
        check = check and depth <= 64 and self.error is None
        if check and why is not None:
            check = _unwritten(self, path, why)
        out = self.out
        for name, sep, conv, slot, inquote, known, child, items, quick, simple, cfns, ifns in steps:
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

    return run




# ---- the comparison ---------------------------------------------------------------------------------------
@contextmanager
def _old() -> Iterator[None]:
    new = treecheck._interpreted, treecheck._interpreted_text
    treecheck._interpreted, treecheck._interpreted_text = _old_interpreted, _old_interpreted_text
    try:
        yield
    finally:
        treecheck._interpreted, treecheck._interpreted_text = new


def _error(e: DdlcError) -> Any:
    return (e.code, str(e), tuple(e.path), getattr(e, "fmt", None), getattr(e, "hint", None))


def _found(tree: Any, shape: str | None, text: bool) -> Any:
    try:
        if text:
            out, found = expand_both(tree, shape, "d")
        else:
            out, found = None, check_both(tree, shape, "d")
    except DdlcError as e:
        return "raised", _error(e)
    except RecursionError:
        return "recursion"
    slots = _error(found.error) if found.error is not None else ("ok", tuple(found.unpastable))
    return out, slots


def _same(tree: Any, shapes: Any) -> None:
    for shape in shapes:
        for text in (False, True):
            with _mode(0), _old():
                want = _found(tree, shape, text)
            with _mode(0):
                got = _found(tree, shape, text)
            assert want == got, (shape, text, tree, want, got)


def test_fixture_trees_as_before() -> None:
    assert len(TREES) > 100
    for tree in TREES:
        _same(tree, {_shape(tree), None})


def test_fixture_trees_as_any_shape_as_before() -> None:
    shapes = sorted(NODES)
    for tree in TREES[::3]:
        _same(tree, shapes)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_mutated_trees_as_before(data: Any) -> None:
    tree = mutated(data)
    _same(tree, {_shape(tree), None})


@settings(max_examples=600, deadline=None, suppress_health_check=list(HealthCheck))
@given(_made_up(), st.sampled_from(sorted(NODES) + [None]))
def test_made_up_fmts_as_before(tree: dict[str, Any], shape: str | None) -> None:
    _same(tree, [shape])


def test_types_written_as_the_expander() -> None:
    """The text walk's short path for a ``%T`` object: every spelling of schema, typmod and array."""
    for schema in ("", "pg_catalog", "s x", 'q"'):
        for typmod in (None, "", "(3)", "(1,2)", "(x"):
            for arr in (False, True, None):
                t: dict[str, Any] = {"schemaname": schema, "typename": "int4", "typarray": arr}
                if typmod is not None:
                    t["typmod"] = typmod
                _same({"fmt": "CREATE TABLE t (c %{t}T)", "t": t}, [None, "create_table", "element"])


# ---- user code read by token_spans (slotforms._code_scan) -------------------------------------------------
from ddlc.frontend.sql.fragment import open_line_comment  # noqa: E402
from ddlc.frontend.sql.lexer import remember_spans, remembered_spans, scan  # noqa: E402
from ddlc.frontend.sql.slotforms import _code_scan, _spans_problem  # noqa: E402


def _old_code_scan(v: str) -> tuple[str | None, list[tuple[str, int, int]]]:
    """:func:`_code_problem` of ``v``, and (when there is none) its tokens, blanks and comments aside (what
    ``_tokens`` gives): one scan for both."""
    known = remembered_spans(v)
    if known is not None and "--" not in v and "/*" not in v:  # lexed already (the function-text reader)
        return _spans_problem(v, known)
    if open_line_comment(v):
        return "a -- comment that runs to the end of the text (it would swallow what follows it)", []
    line_start, slash_line = True, False
    toks: list[tuple[str, int, int]] = []
    for kind, s, e in scan(v):
        if kind == "error":
            return "an unterminated quote, quoted name, dollar quote or comment", toks
        if kind == "space":
            if "\n" in v[s:e] or "\r" in v[s:e]:
                if slash_line:
                    return "a line holding only /", toks
                line_start = True
            continue
        if kind == "comment":
            continue
        toks.append((kind, s, e))
        tok = v[s:e]
        if "\\" in tok and kind not in ("string", "qident", "dollar"):  # psql/gsql: a meta-command anywhere
            return "a backslash outside quotes (psql and gsql run a meta-command from it)", toks
        slash_line, line_start = line_start and tok == "/", False
    if slash_line and ("\n" in v or "\r" in v):
        return "a line holding only /", toks
    remember_spans(v, toks)  # every token, none unterminated: for the function-text reader of the same text
    return None, toks


def _fresh(v: str) -> str:
    """A string equal to ``v`` that is another object (the remembered spans are kept by identity)."""
    return (v + "x")[:-1]


def _same_scan(v: str) -> None:
    one, two = _fresh(v), _fresh(v)
    remember_spans("", [])
    want = _old_code_scan(one)
    kept_old = remembered_spans(one)
    got = _code_scan(two)
    kept_new = remembered_spans(two)
    assert want == got, (v, want, got)
    assert kept_old == kept_new, (v, kept_old, kept_new)


def _strings(v: Any) -> Iterator[str]:
    if isinstance(v, str):
        yield v
    elif isinstance(v, dict):
        for x in v.values():
            yield from _strings(x)
    elif isinstance(v, list):
        for x in v:
            yield from _strings(x)


def test_code_scan_of_fixture_strings_as_before() -> None:
    texts = {s for tree in TREES for s in _strings(tree)}
    assert any("CREATE" in t and "$" in t for t in texts)
    for v in sorted(texts):
        _same_scan(v)


_CODE = st.lists(st.sampled_from(list("aZ_1 \t\n\r;'\"$/-*().,\\eE") + ["$$", "$a$", "--", "/*", "*/", "CREATE",
                                                                          "BEGIN", "END", "\u00e9"]),
                 max_size=24).map("".join)
# (the texts read by token_spans: no "-", "/" or backslash)
_PLAIN_CODE = st.lists(st.sampled_from(list("aZ_1 \t\n\r;'\"$*().,eE") + ["$$", "$a$", "CREATE", "\u00e9"]),
                       max_size=24).map("".join)


@settings(max_examples=2000, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.one_of(_CODE, _PLAIN_CODE))
def test_code_scan_of_generated_texts_as_before(v: str) -> None:
    _same_scan(v)
