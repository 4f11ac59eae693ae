"""Every raw slot classified (issue 20, item 3): the one table (``ddlc/frontend/slots.py``) covers every
string member of every shape in ``grammars/`` and every ``%{x}s`` of every template the frontend knows; a
value outside its class fails its document (DDLC-E011) on every target; a fragment holding a comment is
never pasted (PostgreSQL and Spark print its parse, the GaussDB target refuses it). The issue's
reproductions are run on every target and, for PostgreSQL, through ``psql`` on the real server with a
sentinel table.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
from pathlib import Path

import pglast
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ddlc
from conftest import CASES, FIXTURES
from ddlc.errors import DdlcError
from ddlc.frontend import build as B
from ddlc.frontend.slots import NODES, Kind, raw_slots, verdict
from ddlc.frontend.sql.lexer import scan
from ddlc.jddl.keys import CANONICAL
from test_hostile_values import check_output, meta_command_lines

TARGETS = ("gaussdb", "postgres", "spark")
GRAMMARS = Path(__file__).resolve().parents[1] / "grammars"

# ---- the table covers every shape ------------------------------------------------------------------------
SCHEMA_NODES = {
    "alter_function": ("alter_function",), "alter_schema": ("alter_schema",), "alter_sequence": ("alter_sequence",),
    "alter_table": ("alter-relation",),
    "alter_table_followup": ("alter-table-followup", "backfill-update", "autoincrement-backfill"),
    "comment": ("comment", "comment_constraint"), "create_function": ("create_function",),
    "create_index": ("create_index",), "create_schema": ("create_schema",), "create_sequence": ("create_sequence",),
    "create_table": ("create_table",), "create_trigger": ("create_trigger",),
    "create_type": ("create_type_composite", "create_type_enum"), "create_view": ("create_view",),
    "drop": ("drop",), "event": ("create_event", "alter_event", "drop_event"), "newpub": ("newpub",),
    "rename": ("rename_relation", "rename_column", "rename_attribute", "rename_constraint", "rename_schema",
               "rename_type", "rename_tables"),
    "set_schema": ("set_schema",),
}
_NOT_MEMBERS = {"fmt", "present", "typarray"}
_NAMES = ("qualifiedName", "typeName")  # %D and %T objects: their members are quoted by the expander


def _load(path: Path, cache={}):  # noqa: B006 - a cache
    if path not in cache:
        cache[path] = json.loads(path.read_text("utf-8"))
    return cache[path]


def _parts(s, base, seen=frozenset()):
    """Every component schema of ``s`` (through $ref, allOf/anyOf/oneOf, if/then/else)."""
    if not isinstance(s, dict):
        return
    yield s, base
    ref = s.get("$ref")
    if ref:
        file, _, frag = ref.partition("#")
        where = (base.parent / file).resolve() if file else base
        if (where, frag) not in seen:
            doc = _load(where)
            for part in frag.strip("/").split("/") if frag else ():
                doc = doc[part]
            yield from _parts(doc, where, seen | {(where, frag)})
    for k in ("allOf", "anyOf", "oneOf"):
        for x in s.get(k, ()):
            yield from _parts(x, base, seen)
    for k in ("then", "else"):
        if k in s:
            yield from _parts(s[k], base, seen)


def _holds_string(s) -> bool:
    t = s.get("type")
    types = t if isinstance(t, list) else [t]
    return ("string" in types or isinstance(s.get("const"), str) or "pattern" in s
            or any(isinstance(x, str) for x in s.get("enum", ())))


def _grammar_members(schema, base, nodes, where, out, depth=0):
    """(where, member, slot or None) of every member of ``schema`` that can hold a string, read with the
    table's ``nodes``; objects and arrays of objects are followed into the node their slot names."""
    if depth > 10:
        return
    for comp, b in list(_parts(schema, base)):
        for name, sub in comp.get("properties", {}).items():
            if name in _NOT_MEMBERS or not isinstance(sub, dict):
                continue
            key = CANONICAL.get(name, name)
            slot = next((NODES[n][key] for n in nodes if key in NODES[n]), None)
            parts = list(_parts(sub, b))
            if any(p.get("$ref", "").split("/")[-1] in _NAMES for p, _ in parts):
                continue
            if any(_holds_string(p) for p, _ in parts):
                out.append((where, name, slot))
            for p, pb in parts:
                if "properties" in p or any(x.get("properties") for x, _ in _parts(p, pb) if x is not p):
                    child = slot.node if slot is not None else None
                    out.append((where + (name,), "<object>", None if child is None else slot))
                    if child is not None:
                        _grammar_members(p, pb, (child,), where + (name,), out, depth + 1)
                items = p.get("items")
                if isinstance(items, dict):
                    child = None if slot is None else (slot.items or slot.node)
                    if any(x.get("properties") for x, _ in _parts(items, pb)) and not any(
                            x.get("$ref", "").split("/")[-1] in _NAMES for x, _ in _parts(items, pb)):
                        out.append((where + (name, "[]"), "<object>", None if child is None else slot))
                        if child is not None:
                            _grammar_members(items, pb, (child,), where + (name, "[]"), out, depth + 1)


def test_every_shape_has_a_node():
    B._load()
    assert sorted(n for n, _, _ in B.SHAPES if n not in NODES) == []
    schemas = sorted(p.name.removesuffix(".schema.json") for p in (GRAMMARS / "statements").glob("*.schema.json"))
    assert schemas == sorted(SCHEMA_NODES)
    for nodes in SCHEMA_NODES.values():
        assert all(n in NODES for n in nodes)
    for node in NODES.values():  # every node a slot names exists
        for slot in node.values():
            assert all(n in NODES for n in (slot.node, slot.items) if n is not None), slot


@pytest.mark.parametrize("schema", sorted(SCHEMA_NODES))
def test_every_string_member_of_every_grammar_shape_has_a_class(schema):
    path = (GRAMMARS / "statements" / f"{schema}.schema.json").resolve()
    out: list = []
    _grammar_members(_load(path), path, SCHEMA_NODES[schema], (), out)
    assert out
    missing = sorted({("/".join(w), n) for w, n, slot in out if slot is None or not slot.classified})
    assert missing == [], f"members of {schema} with no class in ddlc/frontend/slots.py"


def _placeholders(pattern_pieces):
    for piece in pattern_pieces:
        if isinstance(piece, tuple):
            yield piece
        elif isinstance(piece, list):
            for alt in piece:
                yield from _placeholders(alt)


def _text_shapes(shape, node, seen, out):
    from ddlc.frontend.text._match import Either, Shape

    if (id(shape), node) in seen:
        return
    seen.add((id(shape), node))
    for alt in shape.alternatives():
        for name, sep, conv in _placeholders(alt):
            if conv != "s":
                continue
            slot = NODES[node].get(CANONICAL.get(name, name))
            out.append((node, name, slot))
            spec = shape.keys.get(name)
            specs = spec.specs if isinstance(spec, Either) else (spec,)
            for sp in specs:
                if isinstance(sp, Shape) and slot is not None:
                    child = (slot.items or slot.node) if sep is not None else slot.node
                    out.append((node, name + "<object>", slot if child else None))
                    if child:
                        _text_shapes(sp, child, seen, out)


def test_every_template_the_frontend_knows_has_classes():
    """The statement forms of :mod:`ddlc.frontend.build.variants`, the ALTER subcommand readers' fmts and the
    text frontend's templates (every nested object): each ``%{x}s`` has a class in its node."""
    import importlib

    from ddlc.frontend.build.alter_partitions import SPECS
    from ddlc.frontend.build.variants import TEMPLATES, fmt_tokens
    from ddlc.frontend.text import FAMILIES

    B._load()
    out = []
    for t in TEMPLATES:
        fmt = t.render(frozenset(range(1 << 10)))[0]
        fn = B._builder_of(fmt) or B._builder_of(t.render(frozenset())[0])
        node = B._NAMES[fn]
        for tok in fmt_tokens(t.source.replace("?", "")):
            if not isinstance(tok, str) and tok.conv == "s":
                out.append((node, tok.key, NODES[node].get(tok.key)))
    for _types, fmt in SPECS:
        for name in B.alter_partitions.placeholders(fmt):
            if f"%{{{name}}}s" in fmt or f"%{{{name}:" in fmt and "}s" in fmt:
                out.append(("subcommand", name, NODES["subcommand"].get(name)))
    seen: set = set()
    for fam in FAMILIES:
        try:
            mod = importlib.import_module(f"ddlc.frontend.text.{fam}")
        except ModuleNotFoundError:
            continue
        for shape in mod.SHAPES.values():
            first = shape.alternatives()[0]
            fmt = "".join(p if isinstance(p, str) else "%{" + p[0] + (p[1] and ":" + p[1] or "") + "}" + p[2]
                          for p in first if not isinstance(p, list))
            fn = B._builder_of(fmt)
            node = B._NAMES.get(fn) if fn else "alter-table-followup" if "%{block}s" in fmt else None
            if node is None or "%{block}s" in fmt:
                continue
            _text_shapes(shape, node, seen, out)
    assert len(out) > 150
    missing = sorted({(n, k) for n, k, slot in out if slot is None or not slot.classified})
    assert missing == []


def _fixture_trees():
    out = []
    for p in sorted(CASES.rglob("input.json")):
        try:
            doc = json.loads(p.read_text("utf-8"))
        except ValueError:
            continue
        tree = doc.get("JDDL", doc) if isinstance(doc, dict) else None
        if isinstance(tree, dict) and isinstance(tree.get("fmt"), str):
            out.append((str(p.parent.relative_to(CASES)), tree))
    return out


FIXTURE_TREES = _fixture_trees()


def _shape(tree):
    used: list = []
    try:
        B._build(tree, None, used)
    except DdlcError:
        return None
    return B._NAMES.get(used[-1]) if used else B._recognised_shape(tree)


def test_every_raw_slot_of_every_fixture_tree_is_in_the_table_and_in_its_class():
    B._load()
    seen = {k: 0 for k in Kind}
    for case, tree in FIXTURE_TREES:
        shape = _shape(tree)
        if shape is None:
            continue
        for path, slot, value in raw_slots(tree, shape):
            assert slot is not None, (case, path)
            assert verdict(value, slot)[0] is None, (case, path, value)
            for k in slot.kinds:
                seen[k] += 1
    assert all(seen.values()), seen  # fixtures exercise every class


# ---- the reproductions, on every target ------------------------------------------------------------
def _case(name: str) -> dict:
    return json.loads((CASES / name / "input.json").read_text("utf-8"))


def storage_option(value: str) -> dict:
    t = _case("create_table/storage-options")
    t["with"][1]["value"] = value
    return t


def access_method(value: str) -> dict:
    t = _case("create_index/concurrently")
    t["index_am"] = value
    return t


def column_default(value: str) -> dict:
    t = _case("create_table/storage-options")  # k int4 ... NOT NULL: the comment would eat the NOT NULL
    t["table_elements"]["elements"][0]["default"] = {"fmt": "DEFAULT %{default}s", "default": value}
    return t


REPRODUCTIONS = {
    "storage-option": storage_option("90" + "0); DROP TABLE victim; --"),
    "access-method": access_method("x\n\\! touch marker"),
    "default-line-comment": column_default("0 -- c"),
}


def translate(tree: dict, target: str):
    [t] = ddlc.translate_many([json.dumps(tree)], target=target, on_unsupported="skip")
    return t


def lexed_meta_lines(script: str) -> list[int]:
    """Offsets of lines starting (blanks aside) with a backslash outside every token, by ddlc's lexer (the
    GaussDB text is not all PostgreSQL's grammar, so pglast's scanner cannot read it)."""
    inside = [(a, b) for k, a, b in scan(script) if k in ("string", "qident", "dollar", "comment", "error")]
    out, pos = [], 0
    for line in script.splitlines(keepends=True):
        stripped = line.lstrip(" \t")
        at = pos + len(line) - len(stripped)
        if stripped.startswith("\\") and not any(a < at < b for a, b in inside):
            out.append(at)
        pos += len(line)
    return out


def gauss_statements_ok(t, code: bool) -> None:
    """Each GaussDB statement lexes whole (nothing left open), holds no comment and no ``;`` before its end
    (``code``: it holds user code, a routine text or an inline body, where both are the user's), and the
    script has no meta-command line."""
    for i, stmt in enumerate(t.statements):
        toks = [(k, stmt[a:b]) for k, a, b in scan(stmt) if k != "space"]
        assert not [x for k, x in toks if k == "error"], stmt
        if not (code or i in t.blocks):
            assert not [x for k, x in toks if k == "comment"], stmt
            assert ";" not in [x for k, x in toks[:-1] if k == "punct"], stmt
    assert not lexed_meta_lines(t.sql), t.sql


CODE_SHAPES = {"create_function", "create_function_gaussdb", "autoincrement-backfill", "create_trigger",
               "create_event", "alter_event"}


def check_everywhere(tree: dict) -> dict:
    """Each target: a clean E011 (or another clean error), or exactly the statements it reports."""
    out = {}
    code = _shape(tree) in CODE_SHAPES
    for target in TARGETS:
        t = translate(tree, target)
        out[target] = t
        if t.error is not None:
            assert t.error.code != "DDLC-E900", t.error
            continue
        if target == "postgres":
            check_output(t)
        elif target == "gaussdb":
            gauss_statements_ok(t, code)
    return out


def test_a_storage_option_value_that_is_not_one_fails_everywhere():
    out = check_everywhere(REPRODUCTIONS["storage-option"])
    assert {k: t.error.code for k, t in out.items()} == dict.fromkeys(TARGETS, "DDLC-E011")
    assert out["postgres"].error.jsonpath == "$.with[1].value"
    for ok in ("90", "0.05", "-1", "1e3", "on", "false"):
        assert translate(storage_option(ok), "postgres").ok


def test_an_access_method_that_is_not_one_name_fails_everywhere():
    out = check_everywhere(REPRODUCTIONS["access-method"])
    assert {k: t.error.code for k, t in out.items()} == dict.fromkeys(TARGETS, "DDLC-E011")
    t = translate(access_method('"My Am"'), "postgres")  # a quoted name is one name: quoted by the writer
    assert t.ok and 'USING "My Am" (' in t.sql


def test_a_default_with_a_line_comment_is_printed_from_its_parse_or_refused():
    out = check_everywhere(REPRODUCTIONS["default-line-comment"])
    assert out["gaussdb"].error.code == "DDLC-E011"
    assert out["gaussdb"].error.jsonpath == "$.table_elements.elements[0].default.default"
    pg = out["postgres"]
    assert pg.ok and "--" not in pg.sql and "k integer DEFAULT 0 NOT NULL," in pg.sql
    assert len(pglast.split(pg.sql)) == len(pg.statements) == 1
    assert out["spark"].ok and "--" not in out["spark"].sql and "k INT NOT NULL DEFAULT 0," in out["spark"].sql


@pytest.mark.parametrize("tree, path", [
    (access_method("btree ) ; DROP TABLE victim"), "$.index_am"),
    (dict(_case("create_index/concurrently"), fmt=_case("create_index/concurrently")["fmt"] + "; DROP TABLE victim"),
     "$.fmt"),
    (dict(_case("create_index/unique-opts-tablespace-where"), opts="fillfactor=70) WITH (x=1"), "$.opts"),
    (dict(_case("create_index/unique-opts-tablespace-where"), tablespace="ts1 WHERE false"), "$.tablespace"),
    (dict(_case("create_table/storage-options"), persistence="UNLOGGED; DROP TABLE victim"), "$.persistence"),
])
def test_other_raw_slots_fail_everywhere(tree, path):
    out = check_everywhere(tree)
    assert {k: (t.error.code, t.error.jsonpath) for k, t in out.items()} == dict.fromkeys(TARGETS, ("DDLC-E011", path))


# ---- hostile values in slots of every class ---------------------------------------------------------------
HOSTILE = st.one_of(
    st.sampled_from([
        "1); DROP TABLE public.sentinel; --", "x\n\\! touch marker", "0 -- c", "0 /* c */", "/* open", "*/",
        "a'b", "'", '"', "$$", "$x$ body", "\\", "a;b", "DROP TABLE public.sentinel", "\n/\n", "--", "1\n--x\n",
        "NOT NULL -- x", "CASCADE; DROP TABLE public.sentinel", "(", ")", "é", "a b", "' OR '1'='1",
    ]),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=24),
)


def _slots_by_class():
    out: dict[Kind, list] = {k: [] for k in Kind}
    for case, tree in FIXTURE_TREES:
        shape = _shape(tree)
        if shape is None:
            continue
        for path, slot, _v in raw_slots(tree, shape):
            if slot is not None:
                for k in slot.kinds or (Kind.KEYWORD,):
                    out[k].append((case, tree, path))
    return out


SLOTS_BY_CLASS = _slots_by_class()


def _set(tree: dict, path, value) -> dict:
    t = copy.deepcopy(tree)
    parent = t
    for p in path[:-1]:
        parent = parent[p]
    parent[path[-1]] = value
    return t


@pytest.mark.parametrize("kind", list(Kind), ids=[k.value for k in Kind])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_hostile_values_in_slots_of_every_class(kind, data):
    case, tree, path = data.draw(st.sampled_from(SLOTS_BY_CLASS[kind]))
    value = data.draw(HOSTILE)
    check_everywhere(_set(tree, path, value))


# ---- on the real server -----------------------------------------------------------------------------------
def psql_replay(pg_server, tmp_path: Path, sql: str) -> tuple[str, subprocess.CompletedProcess]:
    """Run ``sql`` with ``psql -f`` (no ON_ERROR_STOP: every statement runs) in a fresh database holding a
    sentinel table; the working directory is ``tmp_path`` (where ``\\! touch marker`` would write)."""
    db = pg_server.fresh_database()
    with pg_server.connect(db) as conn:
        conn.execute("CREATE TABLE public.sentinel (id int)")
        conn.execute("CREATE TABLE public.victim (id int)")
        conn.execute("CREATE TABLE public.orders (id int, amount numeric)")
    script = tmp_path / "replay.sql"
    script.write_text(sql, "utf-8")
    psql = os.path.join(pg_server.bindir, "psql")
    p = subprocess.run([psql, "-X", "-q", "-d", pg_server.conninfo(db), "-f", str(script)], capture_output=True,
                       text=True, timeout=120, cwd=tmp_path)
    return db, p


def _survived(pg_server, db: str, tmp_path: Path) -> None:
    with pg_server.connect(db) as conn:
        row = conn.execute("SELECT to_regclass('public.sentinel') IS NOT NULL AND to_regclass('public.victim') "
                           "IS NOT NULL").fetchone()
    assert row == (True,), "a table was dropped"
    assert not (tmp_path / "marker").exists(), "psql ran a shell command"


def test_the_reproductions_on_the_real_server(pg_server, tmp_path):
    for name, tree in REPRODUCTIONS.items():
        t = translate(tree, "postgres")
        sql = t.sql if t.ok else ""
        db, p = psql_replay(pg_server, tmp_path, sql)
        assert p.returncode == 0 and "ERROR" not in p.stderr, (name, p.stderr)
        _survived(pg_server, db, tmp_path)
        if name == "default-line-comment":
            with pg_server.connect(db) as conn:
                row = conn.execute("SELECT pg_get_expr(d.adbin, d.adrelid), a.attnotnull FROM pg_attrdef d JOIN "
                                   "pg_attribute a ON (a.attrelid, a.attnum) = (d.adrelid, d.adnum) WHERE "
                                   "d.adrelid = 'public.hot_rows'::regclass").fetchone()
            assert row == ("0", True)  # the default, and the NOT NULL after it: nothing was eaten


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_hostile_fragments_replay_safely_on_the_real_server(pg_server, tmp_path, data):
    kind = data.draw(st.sampled_from([Kind.FRAGMENT, Kind.IDENTIFIER, Kind.NUMBER]))
    case, tree, path = data.draw(st.sampled_from(SLOTS_BY_CLASS[kind]))
    t = translate(_set(tree, path, data.draw(HOSTILE)), "postgres")
    if not t.ok:
        assert t.error.code != "DDLC-E900"
        return
    check_output(t)
    with pg_server.databases_dropped():  # (the example's database)
        db, _p = psql_replay(pg_server, tmp_path, t.sql)
        _survived(pg_server, db, tmp_path)


def test_fixtures_dir_is_the_one_the_table_was_checked_on():
    assert (FIXTURES / "cases").is_dir() and len(FIXTURE_TREES) > 100
