"""Round 10 of issue 26, the PostgreSQL emitters and the shared writer/printers.

* Quoting: ``writer.pg_ident`` and ``pgprint.quote_name`` try the common bare name by three string tests
  (``isascii``, ``islower``, ``isidentifier``) before their regular expression; ``Emit.qname``,
  ``SqlWriter.ident``, ``table.column_sql`` (compared with its former self in test_throughput_round9_table.py)
  and ``table.constraint_sql`` make that test inline and call ``pg_ident`` only for another name; ``Emit.ident`` is ``pg_ident`` itself. Each is compared here with the
  code it replaced (kept below) on hostile names: keywords, quotes, non-ASCII letters, control characters,
  digits first, empty and NUL-holding names (the same text, or the same error).
* CREATE TYPE: ``create_enum_type`` and ``create_composite_type`` write their statement at once (the writer's
  spacing of those tokens) and the type's name once; compared with the former emitters (kept below) over every
  fixture CREATE TYPE and generated ones, with their diagnostics, owned objects and errors.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from pglast.keywords import RESERVED_KEYWORDS, TYPE_FUNC_NAME_KEYWORDS
from pglast.stream import is_simple_name

from ddlc.backends import pgprint
from ddlc.backends.pg_keywords import FORCED
from ddlc.backends.postgres.context import DIALECT, Emit
from ddlc.backends.writer import SqlWriter, pg_ident, words
from ddlc.errors import DdlcError
from ddlc.ir.names import QualifiedName

# ---- the code replaced (as it was at e401c5b) ---------------------------------------------------------------
_OLD_SAFE = re.compile(r"[a-z_][a-z0-9_]*\Z")


def _old_pg_ident(name: str) -> str:
    if _OLD_SAFE.match(name) is not None and name not in FORCED:
        return name
    if not name or "\x00" in name:
        raise DdlcError(f"the name {name!r} cannot be written as a PostgreSQL identifier", code="DDLC-E007")
    return '"' + name.replace('"', '""') + '"'


_OLD_QUOTED = frozenset(RESERVED_KEYWORDS) | frozenset(TYPE_FUNC_NAME_KEYWORDS)


def _old_quote_name(name: str) -> str:
    if is_simple_name(name) and name[-1:] != "\n" and name not in _OLD_QUOTED:
        return name
    return '"%s"' % name.replace('"', '""')


def _old_qname(q: QualifiedName) -> str:
    schema, name, attr = q.schema, q.name, q.attr
    if schema is not None:
        out = _old_pg_ident(schema) if name is None else _old_pg_ident(schema) + "." + _old_pg_ident(name)
    elif name is not None:
        out = _old_pg_ident(name)
    else:
        out = ""
    if attr is not None:
        out = out + "." + _old_pg_ident(attr) if out else _old_pg_ident(attr)
    return out


# ---- hostile names ----------------------------------------------------------------------------------------
_KEYWORDS = sorted(FORCED | _OLD_QUOTED)
_ALPHABET = st.sampled_from(list("abcxyz_019AZ\"' .$-\n\t\r\x01\x1f\x7féßİıK客ü\u00a0\u2028") + ["\x00"])
_NAMES = st.one_of(
    st.sampled_from(_KEYWORDS),
    st.sampled_from(_KEYWORDS).map(str.upper),
    st.text(_ALPHABET, max_size=12),
    st.text(max_size=8),
    st.from_regex(r"[a-z_][a-z0-9_]{0,20}", fullmatch=True),
    st.from_regex(r"[a-z_][a-z0-9_]{0,10}_[0-9a-z]{5}", fullmatch=True),
)
_FIXED = ["", "_", "__", "_1", "1a", "a", "abc", "Abc", "aBc", "select", "user", "int", "a\n", "a$b", "é", "aé",
          "a\x00", '"a"', 'a"b', "ı", "İ", "ſ", "ﬁ", "ǅ", "a" * 64, "current_timestamp", "xmlattributes", "a b"]


def _outcome(fn, *args):
    try:
        return ("ok", fn(*args))
    except DdlcError as exc:
        return ("error", str(exc), exc.code)


@pytest.mark.parametrize("name", _FIXED + _KEYWORDS)
def test_pg_ident_fixed(name: str) -> None:
    assert _outcome(pg_ident, name) == _outcome(_old_pg_ident, name)
    assert pgprint.quote_name(name) == _old_quote_name(name)


@settings(max_examples=3000, deadline=None)
@given(_NAMES)
def test_pg_ident_hypothesis(name: str) -> None:
    assert _outcome(pg_ident, name) == _outcome(_old_pg_ident, name)
    assert _outcome(Emit.ident, name) == _outcome(_old_pg_ident, name)
    assert pgprint.quote_name(name) == _old_quote_name(name)
    w = SqlWriter(DIALECT)
    assert _outcome(lambda n: w.ident(n).text(), name) == _outcome(_old_pg_ident, name)
    w = SqlWriter()  # (a bare quoting function: pg_ident itself)
    assert _outcome(lambda n: w.ident(n).text(), name) == _outcome(_old_pg_ident, name)


@settings(max_examples=3000, deadline=None)
@given(st.one_of(st.none(), _NAMES), st.one_of(st.none(), _NAMES), st.one_of(st.none(), _NAMES))
@example("", "\x00", None)  # (both bad: the schema's error, as before)
@example("Ab", "", "x")
def test_qname_hypothesis(schema, name, attr) -> None:
    q = QualifiedName(name, schema, attr=attr) if name is not None else QualifiedName(None, schema, attr=attr)
    assert _outcome(Emit.qname, q) == _outcome(_old_qname, q)


@settings(max_examples=2000, deadline=None)
@given(_NAMES, st.text(st.sampled_from(list("ab (),\"'")), max_size=10))
def test_constraint_prefix(name: str, body: str) -> None:
    """table.constraint_sql writes ``"CONSTRAINT " + name + " " + body`` for a body that is not empty, not ","
    and does not start with ")": what ``words`` writes then."""
    if body and body != "," and body[0] != ")" and _outcome(pg_ident, name)[0] == "ok":
        assert "CONSTRAINT " + pg_ident(name) + " " + body == words("CONSTRAINT", pg_ident(name), body)


# ---- CREATE TYPE ------------------------------------------------------------------------------------------
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

from ddlc.backends.base import EmitContext  # noqa: E402
from ddlc.backends.postgres import table as pg_table  # noqa: E402
from ddlc.ir.columns import ColumnDef  # noqa: E402
from ddlc.ir.names import TypeName  # noqa: E402
from ddlc.ir.typedef import CreateCompositeType, CreateEnumType  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_throughput_passes import STATEMENTS  # noqa: E402


def _former_composite(n, e):
    w = e.w().kw("CREATE", "TYPE").raw(e.qname(n.identity)).kw("AS")
    e.own(("TYPE",), e.qname(n.identity))
    w.open().each(n.attributes, lambda w_, a: w_.raw(pg_table.column_sql(a, e))).close()
    return [w.text()]


def _former_enum(n, e):
    w = e.w().kw("CREATE", "TYPE").raw(e.qname(n.identity)).kw("AS", "ENUM")
    e.own(("TYPE",), e.qname(n.identity))
    return [w.open().each(n.labels, lambda w_, s: w_.lit(s)).close().text()]


def _emitted(fn, n):
    e = Emit(EmitContext(document="d"), None, {})
    try:
        out = ("ok", fn(n, e))
    except DdlcError as exc:
        out = ("error", str(exc), exc.code)
    return out, [str(d) for d in e.diagnostics], e.owned, e.comments


def _both(n):
    former = _former_enum if type(n) is CreateEnumType else _former_composite
    new = pg_table.create_enum_type if type(n) is CreateEnumType else pg_table.create_composite_type
    assert _emitted(new, n) == _emitted(former, n)


def test_create_type_fixtures():
    seen = 0
    for _label, stmt in STATEMENTS:
        for n in (stmt if isinstance(stmt, tuple | list) else (stmt,)):
            if type(n) in (CreateEnumType, CreateCompositeType):
                _both(n)
                seen += 1
    assert seen >= 2  # (the fixtures hold two: the generated ones below do the rest)


_TYPES = st.builds(TypeName, st.sampled_from(["int4", "varchar", "numeric", "text", "My T", "int16", "bpchar"]),
                   st.sampled_from([None, "pg_catalog", "s"]), st.sampled_from(["", "(10)", "(5,2)"]), st.booleans())


@settings(max_examples=600, deadline=None)
@given(st.one_of(st.none(), _NAMES), _NAMES, st.lists(st.text(_ALPHABET, max_size=6), max_size=5),
       st.lists(st.tuples(_NAMES, st.one_of(st.none(), _TYPES), st.booleans()), max_size=4))
def test_create_type_generated(schema, name, labels, attrs):
    identity = QualifiedName(name, schema)
    _both(CreateEnumType(identity=identity, labels=tuple(labels)))
    columns = tuple(ColumnDef(name=a, type=t, not_null=nn) for a, t, nn in attrs)
    _both(CreateCompositeType(identity=identity, attributes=columns))
