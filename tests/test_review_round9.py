"""Review of round 9 (commits 4321906, e492246, db9c660): the history's index of views by the relations they
read, ``pgparse.Recent`` under a lock, and a materialized view's qualified reads looked up.

The views index is checked against the scanning code of 17a82a6 itself (its ``ddlc/history/views.py`` read
from git and run beside the new one on the same recorded statements; and a git export of 17a82a6 run in a
subprocess over the same streams, every statement's translation and the state file compared). Three tests are
what the review found broken, fixed since: a CREATE OR REPLACE whose reads cannot be worked out leaves its
view in the index (17a82a6 did too); a ``Recent`` that keeps nothing registers nothing; ``cache_clear`` beside
another thread's hit (17a82a6 raised "OrderedDict mutated during iteration" too)."""

from __future__ import annotations

import json
import os
import pickle
import random
import shutil
import subprocess
import sys
import tarfile
import io
import threading
import types
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ddlc.api import Options
from ddlc.frontend.documents import read_documents
from ddlc.history import catalog as catmod
from ddlc.history import views as newmod
from ddlc.history.catalog import Catalog
from ddlc.session import Session

ROOT = Path(__file__).resolve().parents[1]
BEFORE = "17a82a6"


def _git(*args: str) -> bytes | None:
    if shutil.which("git") is None:
        return None
    p = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True)
    return p.stdout if p.returncode == 0 else None


def _old_module(path: str, name: str, package: str) -> types.ModuleType:
    src = _git("show", f"{BEFORE}:{path}")
    if src is None:
        pytest.skip(f"git or commit {BEFORE} not available")
    mod = types.ModuleType(name)
    mod.__package__ = package
    mod.__file__ = f"<{BEFORE}:{path}>"
    sys.modules[name] = mod
    exec(compile(src, mod.__file__, "exec"), mod.__dict__)  # noqa: S102 - the repository's own history
    return mod


@pytest.fixture(scope="module")
def oldviews() -> types.ModuleType:
    return _old_module("ddlc/history/views.py", "ddlc.history._views_before_round9", "ddlc.history")


# ---- random streams ------------------------------------------------------------------------------------------
W = " WITH (orientation = 'row', compression = 'no')"
SCHEMAS = ("s", "r", "q")
TABLES = ("t", "u")
VIEWS = ("v1", "v2", "v3", "v4")
COLS = ("a", "b", "a2")
KINDS = ["table", "view", "view", "view", "view", "replace", "drop_table", "drop_view", "rename", "rename_view",
         "rename_view_self", "column", "drop_column", "set_schema", "view_set_schema", "schema", "view_column",
         "drop_schema", "rename_tables", "change", "retype", "retype", "comment", "grant", "star", "selfview",
         "unqual", "matview", "matview_unqual"]
HEAVY = ["view", "view", "view", "replace", "retype", "change", "rename_view", "view_set_schema", "rename", "schema",
         "column", "view_column", "rename_view_self", "selfview", "star", "drop_view", "drop_table"]


def _statement(rnd: random.Random) -> str:
    R = rnd.choice
    sc = lambda: R(SCHEMAS)  # noqa: E731
    t, v = f"{sc()}.{R(TABLES)}", f"{sc()}.{R(VIEWS)}"
    src, other = f"{sc()}.{R(TABLES + VIEWS)}", f"{sc()}.{R(TABLES + VIEWS)}"
    c1, c2 = R(COLS), R(COLS)
    k = R(HEAVY) if rnd.random() < 0.6 else R(KINDS)
    if k == "table":
        return f"CREATE TABLE {t} (a pg_catalog.int4, b pg_catalog.int4, a2 pg_catalog.int4){W};"
    if k in ("view", "replace"):
        how = "CREATE OR REPLACE VIEW" if k == "replace" else "CREATE VIEW"
        f = R([0, 1, 2])
        if f == 0:
            return f"{how} {v} AS SELECT x.a, x.b FROM {src} x;"
        if f == 1:
            return f"{how} {v} AS SELECT x.a, y.b FROM ({src} x JOIN {other} y ON ((x.a = y.a)));"
        return f"{how} {v} AS SELECT x.{c1} FROM {src} x WHERE (x.{c2} > 0);"
    if k == "star":
        return f"CREATE OR REPLACE VIEW {v} AS SELECT * FROM {src};"
    if k == "selfview":  # (a view reading itself: refused by a database, taken by the history)
        return f"CREATE OR REPLACE VIEW {v} AS SELECT x.a FROM {v} x;"
    if k == "unqual":
        return f"CREATE VIEW {v} AS SELECT a FROM {R(TABLES + VIEWS)};"
    if k == "matview":
        return f"CREATE MATERIALIZED VIEW {sc()}.m AS SELECT x.a FROM {src} x;"
    if k == "matview_unqual":
        return f"CREATE MATERIALIZED VIEW {sc()}.m AS SELECT x.a FROM {R(TABLES)} x;"
    if k == "drop_table":
        return f"DROP TABLE {t} CASCADE;"
    if k == "drop_view":
        return f"DROP VIEW {v} CASCADE;"
    if k == "drop_schema":
        return f"DROP SCHEMA {sc()} CASCADE;"
    if k == "rename":  # (onto a view's name too)
        return f"ALTER TABLE {t} RENAME TO {R(TABLES + VIEWS)};"
    if k == "rename_view":  # (onto an existing view, or a table's name)
        return f"ALTER VIEW {v} RENAME TO {R(VIEWS + TABLES)};"
    if k == "rename_view_self":
        return f"ALTER VIEW {v} RENAME TO {v.split('.')[1]};"
    if k == "rename_tables":
        return f"RENAME TABLE {t} TO {sc()}.{R(TABLES)}, {sc()}.{R(TABLES)} TO {t};"
    if k == "column":
        return f"ALTER TABLE {t} RENAME COLUMN {c1} TO {c2};"
    if k == "drop_column":
        return f"ALTER TABLE {t} DROP COLUMN {c1};"
    if k == "set_schema":
        return f"ALTER TABLE {t} SET SCHEMA {sc()};"
    if k == "view_set_schema":
        return f"ALTER VIEW {v} SET SCHEMA {sc()};"
    if k == "view_column":
        return f"ALTER VIEW {v} RENAME COLUMN {c1} TO {c2};"
    if k == "change":
        return f"ALTER TABLE {t} CHANGE {c1} {c2} pg_catalog.int8;"
    if k == "retype":
        return f"ALTER TABLE {R([t, src])} ALTER COLUMN {c1} SET DATA TYPE pg_catalog.int8 ;"
    if k == "comment":
        return f"COMMENT ON VIEW {v} IS 'x';" if rnd.random() < .5 else f"COMMENT ON COLUMN {v}.{c1} IS 'c';"
    if k == "grant":
        return f"GRANT SELECT ON TABLE {v} TO PUBLIC;"
    return f"ALTER SCHEMA {sc()} RENAME TO {sc()};"  # (onto an existing schema too: keys collide)


def _stream(seed: int, n: int = 30) -> list[str]:
    rnd = random.Random(seed)
    head = [f"CREATE SCHEMA {s};" for s in SCHEMAS] + [
        f"CREATE TABLE {s}.{t} (a pg_catalog.int4, b pg_catalog.int4, a2 pg_catalog.int4){W};"
        for s in SCHEMAS for t in TABLES]
    return head + [_statement(rnd) for _ in range(rnd.randint(1, n))]


def _docs(lines: list[str]):
    return read_documents(("\n".join(json.dumps({"TDDL": t}) for t in lines) + "\n").encode())


# ---- 1. the index against the scanning Views of 17a82a6, in process -----------------------------------------
RELS = [(s, n) for s in SCHEMAS for n in TABLES + VIEWS]


def _shadowed(lines: list[str], oldviews, monkeypatch, target: str = "postgres"):
    """A run over ``lines``; beside its catalog's (new) Views, an old Views fed every statement the catalog
    records; after each document, ``check(new, old)``."""
    s = Session([target], Options.of())
    cat = s.catalogs[0]
    old = oldviews.Views()
    record = catmod.Catalog.record

    def rec(self, stmt):
        record(self, stmt)
        if self is cat:
            fn = oldviews.effect_of(type(stmt))
            if fn is not None:
                try:
                    fn(old, stmt)
                except Exception:  # noqa: BLE001 - as Catalog.record
                    pass

    monkeypatch.setattr(catmod.Catalog, "record", rec)
    for doc in _docs(lines):
        s.translate(doc)
        yield cat, old


def _same(new, old, cols=(None, *COLS)) -> None:
    assert list(new.views) == list(old.views)
    assert [(v.key, v.order, v.reads) for v in new.views.values()] == \
           [(v.key, v.order, v.reads) for v in old.views.values()]
    for k in RELS:
        for c in cols:
            assert [(v.key, v.order) for v in new.dependents(k, c)] == \
                   [(v.key, v.order) for v in old.dependents(k, c)], (k, c)


@pytest.mark.parametrize("target", ["postgres", "spark"])
def test_the_index_answers_as_the_scanning_views_of_17a82a6(oldviews, monkeypatch, target):
    n = 70 if target == "postgres" else 30
    for seed in range(n):
        lines = _stream(seed)
        new = old = None
        for cat, old in _shadowed(lines, oldviews, monkeypatch, target):
            new = cat.views
            _same(new, old)
        # a column renamed on copies (Catalog.dependent_views(renamed_to=...)): the same views, the same text
        for k in RELS[:4]:
            for c in COLS:
                a = new.copies(new.dependents(k, c)).renamed_column(k, c, "zz")
                b = old.copies(old.dependents(k, c)).renamed_column(k, c, "zz")
                assert [(v.key, v.node.query.text) for v in a] == [(v.key, v.node.query.text) for v in b]
        assert newmod.views_to_json(new) == oldviews.views_to_json(old), lines
        monkeypatch.undo()


def _run_hand(lines, oldviews, monkeypatch):
    for cat, old in _shadowed(lines, oldviews, monkeypatch):
        _same(cat.views, old)
    assert newmod.views_to_json(cat.views) == oldviews.views_to_json(old)
    return cat


HEAD = ["CREATE SCHEMA s;", "CREATE SCHEMA r;",
        f"CREATE TABLE s.t (a pg_catalog.int4, b pg_catalog.int4, a2 pg_catalog.int4){W};",
        f"CREATE TABLE r.t (a pg_catalog.int4, b pg_catalog.int4, a2 pg_catalog.int4){W};"]


@pytest.mark.parametrize("tail", [
    # a view renamed onto an existing view that reads it, and onto one that does not
    ["CREATE VIEW s.v1 AS SELECT x.a FROM s.t x;", "CREATE VIEW s.v2 AS SELECT x.a FROM s.v1 x;",
     "CREATE VIEW s.v3 AS SELECT x.a FROM s.v1 x;", "ALTER VIEW s.v1 RENAME TO v2;",
     "ALTER TABLE s.t ALTER COLUMN a SET DATA TYPE pg_catalog.int8 ;"],
    # renamed onto itself; a view moved to the key another view reads; back again
    ["CREATE VIEW s.v1 AS SELECT x.a FROM s.t x;", "CREATE VIEW s.v2 AS SELECT x.a FROM r.v1 x;",
     "ALTER VIEW s.v1 RENAME TO v1;", "ALTER VIEW s.v1 SET SCHEMA r;", "ALTER VIEW r.v1 SET SCHEMA s;",
     "ALTER VIEW s.v1 SET SCHEMA r;", "DROP TABLE s.t CASCADE;"],
    # CREATE OR REPLACE with other reads: the old reads leave the index
    ["CREATE VIEW s.v1 AS SELECT x.a FROM s.t x;", "CREATE VIEW s.v2 AS SELECT x.a FROM s.v1 x;",
     "CREATE OR REPLACE VIEW s.v1 AS SELECT x.b FROM r.t x;", "DROP TABLE s.t CASCADE;",
     "ALTER TABLE r.t RENAME COLUMN b TO a2;", "DROP TABLE r.t CASCADE;"],
    # a schema renamed onto another one holding views of the same names (keys collide)
    ["CREATE VIEW s.v1 AS SELECT x.a FROM s.t x;", "CREATE VIEW r.v1 AS SELECT x.a FROM r.t x;",
     "CREATE VIEW r.v2 AS SELECT x.a FROM s.v1 x;", "ALTER SCHEMA s RENAME TO r;",
     "ALTER TABLE r.t RENAME COLUMN a TO a2;", "DROP SCHEMA r CASCADE;"],
    # a view reading itself, renamed, its table renamed under it
    ["CREATE OR REPLACE VIEW s.v1 AS SELECT x.a FROM s.v1 x;", "ALTER VIEW s.v1 RENAME TO v2;",
     "CREATE VIEW s.v3 AS SELECT x.a FROM s.v2 x;", "ALTER TABLE s.v2 RENAME TO v1;", "DROP VIEW s.v1 CASCADE;"],
    # RENAME TABLE swapping two tables under views
    ["CREATE VIEW s.v1 AS SELECT x.a FROM s.t x;", "CREATE VIEW s.v2 AS SELECT x.a FROM r.t x;",
     "RENAME TABLE s.t TO s.tmp, r.t TO s.t, s.tmp TO r.t;", "ALTER TABLE s.t DROP COLUMN a;"],
])
def test_hand_picked_streams(oldviews, monkeypatch, tail):
    cat = _run_hand(HEAD + tail, oldviews, monkeypatch)
    assert pickle.loads(pickle.dumps(cat)).views._readers == cat.views._readers


# ---- 2. every statement's translation and the state file, against a git export of 17a82a6 ---------------------
_RUNNER = r"""
import copy, json, pickle, sys
from ddlc.api import Options
from ddlc.frontend.documents import read_documents
from ddlc.session import Session
from ddlc.state_file import dump_catalog, load_catalog

def one(lines, target, mode):
    s = Session([target], Options.of())
    outs = []
    docs = list(read_documents(("\n".join(json.dumps({"TDDL": t}) for t in lines) + "\n").encode()))
    for i, d in enumerate(docs):
        if i == len(docs) // 2 and mode != "plain":
            cat = s.catalogs[0]
            if mode == "state":
                cat = load_catalog(json.loads(json.dumps(dump_catalog(cat))))
            elif mode == "pickle":
                cat = pickle.loads(pickle.dumps(cat, protocol=pickle.HIGHEST_PROTOCOL))
            elif mode == "merge":
                from ddlc.pipeline.groups import owned_catalog, merge_catalogs, sch
                a, b = frozenset({sch("s")}), frozenset({sch("r"), sch("q"), sch("public")})
                cat = merge_catalogs(cat, [(a, owned_catalog(cat, a, "public")), (b, owned_catalog(cat, b, "public"))],
                                     "public")
            s = Session([target], Options.of(), catalogs=[cat])
        r = s.translate(d)[0]
        outs.append([list(r.statements), [(x.code, x.message) for x in r.diagnostics],
                     None if r.error is None else str(r.error)])
    return {"outs": outs, "state": dump_catalog(s.catalogs[0])}

json.dump([one(l, t, m) for t, l, m in json.load(sys.stdin)], sys.stdout)
"""


@pytest.fixture(scope="module")
def before_tree(tmp_path_factory) -> Path:
    data = _git("archive", "--format=tar", BEFORE, "ddlc")
    if data is None:
        pytest.skip(f"git or commit {BEFORE} not available")
    out = tmp_path_factory.mktemp("before")
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(out)  # noqa: S202 - the repository's own history
    return out


def _translate_all(pythonpath: Path, streams: list) -> list:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = str(pythonpath)
    p = subprocess.run([sys.executable, "-c", _RUNNER], input=json.dumps(streams).encode(), capture_output=True,
                       env=env, cwd=str(pythonpath), check=False)
    assert p.returncode == 0, p.stderr.decode()[-3000:]
    return json.loads(p.stdout)


def test_translations_and_state_files_are_those_of_17a82a6(before_tree):
    streams = [[t, _stream(1000 + i), m] for i, (t, m) in enumerate(
        [(t, m) for t in ("postgres", "spark") for m in ("plain", "state", "pickle", "merge")] * 8)]
    now, then = _translate_all(ROOT, streams), _translate_all(before_tree, streams)
    for (target, lines, mode), a, b in zip(streams, now, then):
        for line, x, y in zip(lines, a["outs"], b["outs"]):
            assert x == y, (target, mode, line, lines)
        assert a["state"] == b["state"], (target, mode, lines)


# ---- 3. what the review found in views.py ---------------------------------------------------------------------
def test_a_replace_that_fails_leaves_the_view_indexed(monkeypatch):
    s = Session(["postgres"], Options.of())
    lines = [*HEAD, "CREATE VIEW s.v1 AS SELECT x.a FROM s.t x;", "CREATE OR REPLACE VIEW s.v1 AS SELECT x.b FROM s.t x;"]
    docs = list(_docs(lines))
    for d in docs[:-1]:
        s.translate(d)
    real = newmod.columns_read

    def fails(node):
        if "b" in node.query.text:
            raise RuntimeError("a query the bookkeeping cannot follow")
        return real(node)

    monkeypatch.setattr(newmod, "columns_read", fails)
    s.translate(docs[-1])
    vs = s.catalogs[0].views
    assert list(vs.views) == [("s", "v1")]  # still held, as before the statement ...
    assert [v.key for v in vs.dependents(("s", "t"), "a")] == [("s", "v1")]  # ... and still found


# ---- 4. pgparse.Recent -----------------------------------------------------------------------------------------
from ddlc.frontend.sql import pgparse  # noqa: E402
from ddlc.ir import sqltree  # noqa: E402


def _registry():
    registered: dict[int, object] = {}
    lock = threading.Lock()

    def keep(out):
        with lock:
            registered[id(out)] = out

    def drop(out):
        with lock:
            registered.pop(id(out), None)

    return registered, keep, drop


def test_two_threads_parsing_one_repeated_text_get_one_answer():
    """Both threads parse the text at once (the function waits for the other): one parse is kept and
    registered, and both are answered with it."""
    registered, keep, drop = _registry()
    gate = threading.Barrier(2)
    parsing = threading.local()

    def fn(text):
        if getattr(parsing, "wait", False):
            gate.wait(timeout=10)
        return [text]

    cache = pgparse.Recent(fn, recent=1, kept=4, seen=64, keep=keep, drop=drop)
    cache("x")
    cache("y")  # x out of the window: met again next, a repeated text
    got = []

    def work():
        parsing.wait = True
        got.append(cache("x"))

    ths = [threading.Thread(target=work) for _ in range(2)]
    for t in ths:
        t.start()
    for t in ths:
        t.join(timeout=20)
    assert not any(t.is_alive() for t in ths)
    assert got[0] is got[1] and got[0] == ["x"]
    assert list(registered.values()) == [got[0]] and cache._kept["x"] is got[0]


def test_parse_statements_under_threads_registers_what_it_keeps():
    """The real cache (keep/drop: sqltree's registry): after threads parse repeated texts at once, a tree's
    nodes are registered if and only if the cache keeps the tree; keep and drop never call back into the cache
    (a plain Lock: that would hang)."""
    cache = pgparse.parse_statements
    texts = [f"SELECT t{i}.a FROM s.t{i}" for i in range(12)]
    cache.cache_clear()
    sqltree._LASTING.clear()
    start = threading.Barrier(6)

    def work(seed):
        rnd = random.Random(seed)
        start.wait(timeout=10)
        for _ in range(400):
            t = rnd.choice(texts)
            assert cache(t)[0].stmt.fromClause[0].relname == t.rsplit(".", 1)[1]
            cache(f"SELECT {rnd.random()}")  # (pushes texts out of the window)

    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        ths = [threading.Thread(target=work, args=(i,)) for i in range(6)]
        for t in ths:
            t.start()
        for t in ths:
            t.join(timeout=60)
    finally:
        sys.setswitchinterval(before)
    assert not any(t.is_alive() for t in ths)
    kept_nodes = {id(n) for out in cache._kept.values() for n in pgparse._handed(out)}
    assert set(sqltree._LASTING) == kept_nodes and kept_nodes
    cache.cache_clear()
    assert sqltree._LASTING == {}


def test_a_cache_that_keeps_nothing_registers_nothing():
    registered, keep, drop = _registry()
    cache = pgparse.Recent(lambda t: [t], recent=1, kept=0, seen=16, keep=keep, drop=drop)
    for t in ["a", "b", "a", "b", "a"]:
        assert cache(t) == [t]
    assert {id(v) for v in cache._kept.values()} == set(registered)


def test_cache_clear_beside_a_hit():
    registered, keep, drop = _registry()
    cache = pgparse.Recent(lambda t: [t], recent=1, kept=8, seen=64, keep=keep, drop=drop)
    for t in ["a", "b", "a", "b", "c", "a", "b"]:
        cache(t)
    assert set(cache._kept) == {"a", "b"}
    hit = threading.Thread(target=cache, args=("a",))  # another thread's hit, while cache_clear drops

    def dropping(out):
        drop(out)
        if not hit.is_alive() and hit.ident is None:
            hit.start()
            hit.join(timeout=10)

    cache._drop = dropping
    cache.cache_clear()
    assert registered == {} and not cache._kept


# ---- 5. _matview_reads: the lookup is the scan of db9c660's parent ------------------------------------------
def _old_matview_reads(self, stmt):  # 17a82a6's body, verbatim but for the name
    sql = getattr(stmt.query, "sql", None)
    refs = sql.refs if sql is not None else None
    if refs is None:
        for r in self.relations.values():
            r.created = False
        return
    for ref in refs:
        if ref.kind.value != "relation":
            continue
        for key, r in self.relations.items():
            if key[1] == ref.name and (ref.schema is None or key[0] == ref.schema):
                r.created = False


def test_the_old_matview_reads_is_17a82a6s():
    src = _git("show", f"{BEFORE}:ddlc/history/catalog.py")
    if src is None:
        pytest.skip("git not available")
    assert "if key[1] == ref.name and (ref.schema is None or key[0] == ref.schema):" in src.decode()


_NAMES = st.sampled_from([None, "s", "r", "", "S"])
_RELNAMES = st.sampled_from(["t", "u", "T", ""])


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.lists(st.tuples(_NAMES, _RELNAMES), max_size=8, unique=True),
       st.none() | st.lists(st.tuples(_NAMES, _RELNAMES, st.sampled_from(["relation", "function", "type"])),
                            max_size=5))
def test_matview_reads_as_the_scan(keys, refs):
    from ddlc.history.state import RelationState

    Kind = types.SimpleNamespace
    sql = None if refs is None else Kind(refs=[Kind(schema=s, name=n, kind=Kind(value=k)) for s, n, k in refs])
    stmt = Kind(query=Kind(sql=sql))
    a, b = Catalog(), Catalog()
    for k in keys:
        a.relations[k] = RelationState(created=True)
        b.relations[k] = RelationState(created=True)
    a._matview_reads(stmt)
    _old_matview_reads(b, stmt)
    assert {k: r.created for k, r in a.relations.items()} == {k: r.created for k, r in b.relations.items()}
