"""Round 8 review: the riskiest throughput changes tried on inputs the corpora do not hold.

* 444b0f4 ``fragment.clean_fragment`` / ``slotforms._plain_body``: a text taken by the shortcut is one the lexer's
  reading takes too (hostile quotes, ``E''``, ``U&""`` UESCAPE, dollar quotes, comments, ``;``, backslashes, NUL,
  line separators), and what it remembers does not make ``check_fragment``/``has_comment`` answer otherwise;
* 16c0e1c/e64ba4d treecheck_gen: no document or fmt text reaches the generated source; the compiled and the
  interpreted tiers answer the same on hostile trees;
* 9be4fc7/8c19d2c ``records.Struct``: Diagnostic/Translation as a user handles them (set, pickle, replace,
  asdict, frozen);
* d947bc0 ``pgparse.Recent``: threads translating the same stream give the serial outputs;
* 46d4f42 qualify_names check-before-rebuild: unqualified names of TDDL texts are still qualified/mapped.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle
import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import ddlc
from ddlc.diagnostics import Diagnostic
from ddlc.errors import DdlcError
from ddlc.frontend import treecheck
from ddlc.frontend.sql import fragment as Fr
from ddlc.frontend.sql import slotforms as F
from ddlc.frontend.treecheck_gen import source

ROOT = Path(__file__).resolve().parents[1]

# ---- 1. clean_fragment / _plain_body ---------------------------------------------------------------------------

HOSTILE = [
    "'a''b'", "'a' 'b'", "'a'\n'b'", "E'a''b'", "E'\\''", "E'\\'' || 1", "e'x'", "U&'d!0061t' UESCAPE '!'",
    'U&"d!0061" UESCAPE \'!\'', 'U&"a""b"', "$$x$$", "$t$ ' $t$", "$1", "'/*'", "'--'", '"/*"', '"--" + 1',
    "a /* c */ b", "a -- c", "a--", "a;", "a; b", "'a;'", "1 ; ", "'\\'", "'\\' || '", "'a\\' || 'b'",
    "'x\"\\' || 1 || '\"'", '"\\"', "'\x00'", "a\x00b", "'\u2028'", "a\u2028b", "'\u0085'", "(", ")", "(()",
    "())(", "'('", "'x'::text", "a::int[]", "'a''", "''''", "'''", '"""', '""""', "'a'b'", "x'1f'", "b'101'",
    "N'x'", "'a'--'b'", "'a'-'b'", "a\n/\nb", "/", "\\! ls", "a \\! ls", "'a' ; drop table t; 'b'",
    "'a'/*'*/'b'", "q'[x]'", "#", "@", "'" * 9, "x" * 100_000, "(" * 5000 + ")" * 5000, "'a'" * 2000,
]


def _old_fragment_ok(text: str, query: bool) -> bool:
    return Fr._scanned_problem(text, query, False) is None and not any(
        kind == "comment" for kind, _, _ in Fr.scan(text))


@pytest.mark.parametrize("query", [False, True])
def test_clean_fragment_takes_only_what_the_lexer_takes(query: bool) -> None:
    rnd = random.Random(8)
    atoms = ["'", '"', "''", "E'", "U&'", 'U&"', " UESCAPE '!'", "$", "$$", "/*", "*/", "--", "-", ";", "\\",
             "\x00", "\u2028", "(", ")", "::", "a", " ", "\n", "/", "\n/\n", "e", "N", "X'", "#", "é", "."]
    texts = HOSTILE + ["".join(rnd.choice(atoms) for _ in range(rnd.randint(0, 10))) for _ in range(15_000)]
    for t in texts:
        Fr._CLEAN.clear()
        if Fr.clean_fragment(t, query):
            assert _old_fragment_ok(t, query), t
            assert Fr.fragment_problem(t, query=query) is None and Fr.comments(t) == (), t


def test_remembered_clean_text_keeps_check_fragment_and_has_comment() -> None:
    Fr._CLEAN.clear()
    assert Fr.clean_fragment("SELECT 1;", True)
    with pytest.raises(DdlcError):  # found clean only as a query: not as a fragment
        Fr.check_fragment("SELECT 1;", ("x",))
    Fr.check_fragment("SELECT 1;", ("x",), query=True)
    for t in ["a /* c */", "a -- c", "'a' -- b", "$$ $$ /* x */"]:
        assert not Fr.clean_fragment(t) and Fr.has_comment(t), t
    assert Fr.clean_fragment("'/*' || '*/'") and not Fr.has_comment("'/*' || '*/'")


def _old_body(v: str):
    why, toks = F._code_scan(v)
    if why is None:
        words = [v[s:e].upper() for k, s, e in toks if v[s:e] != ";"]
        if not (words and words[0] == "BEGIN" and words[-1] == "END"):
            why = F._statements_problem(v, toks)
    return why


def test_plain_body_takes_only_what_the_lexer_takes() -> None:
    rnd = random.Random(9)
    atoms = ["'", '"', "''", "E'", "$$", "/*", "--", "-", ";", "\\", "\x00", "(", ")", "a", " ", "\n", "/",
             "\n/\n", "BEGIN", "END", "begin", "end", "x.END", ")END", "'END'", '"END"', "END;", "IF", "é"]
    bodies = HOSTILE + ["BEGIN a; b; END", "BEGIN a; b; 'x'END", "BEGIN a; b; END IF;", "a; b", "a;;", ";",
                        "BEGIN;END", "BEGINa; END", "BEGIN a; END x", "begin a; f()end;"]
    bodies += ["".join(rnd.choice(atoms) for _ in range(rnd.randint(0, 10))) for _ in range(15_000)]
    for b in bodies:
        if F._plain_body(b):
            assert _old_body(b) is None, b


# ---- 2. treecheck_gen ------------------------------------------------------------------------------------------

def test_generated_source_holds_no_document_or_fmt_text() -> None:
    evil = "x\"\"\"; import os; os.system('echo pwned') #\n"
    fmt = f"CREATE TABLE %{{{evil}}}s %{{b}}I %{{c:, }}s"
    plan = treecheck._plan(fmt, None, False, False)
    text, values = source(fmt, plan[0], plan[1], False, treecheck._fns_of)
    assert "pwned" not in text and "import" not in text and evil not in text
    compile(text, "<t>", "exec")
    assert fmt in values


def _docs() -> list[str]:
    return [p.read_text() for p in sorted((ROOT / "fixtures" / "cases").glob("**/input.json"))]


def _mutants(n: int) -> list[object]:
    rnd = random.Random(26)
    values = [None, True, 0, 1.5, "", "a'b", "a;b", "-- c", "$$x$$", "\\! ls", [], {}, [1, "2"], [None],
              {"fmt": 3}, {"present": "yes"}, {"present": 1}, {"present": False}, {"fmt": "%{x}s"}]
    out: list[object] = []
    docs = [json.loads(d) for d in _docs()]
    for _ in range(n):
        d = copy.deepcopy(rnd.choice(docs))
        tree = d.get("JDDL", d) if isinstance(d, dict) else d
        stack, spots = [tree], []
        while stack:
            x = stack.pop()
            if isinstance(x, dict):
                spots += [(x, k) for k in x]
                stack += list(x.values())
            elif isinstance(x, list):
                spots += [(x, i) for i in range(len(x))]
                stack += x
        for _ in range(rnd.randint(1, 2)):
            if not spots:
                break
            parent, k = rnd.choice(spots)
            if isinstance(parent, dict) and rnd.random() < 0.3:
                parent.pop(k, None)
            else:
                try:
                    parent[k] = copy.deepcopy(rnd.choice(values))
                except (IndexError, KeyError):
                    pass
        out.append(d)
    return out


def _outcome(doc: object, target: str) -> object:
    try:
        t = ddlc.translate(doc, target.split(":")[0], mode="raw" if target.endswith(":raw") else "canonical")
    except DdlcError as e:
        return ("error", e.code, str(e), tuple(e.path or ()))
    return ("ok", t.sql, tuple(map(str, t.diagnostics)))


def _forget() -> None:
    for fns in treecheck._FNS.values():
        fns.clear()
    treecheck._kept = 0


def test_compiled_and_interpreted_tiers_agree_on_hostile_trees() -> None:
    docs = _mutants(150)
    saved = treecheck.COMPILE_AT
    got = {}
    try:
        for mode in (0, 1, 3):
            _forget()
            treecheck.COMPILE_AT = mode
            got[mode] = [_outcome(d, t) for d in docs for t in ("gaussdb", "gaussdb:raw", "postgres")]
    finally:
        treecheck.COMPILE_AT = saved
        _forget()
    assert got[0] == got[1] == got[3]


def test_deep_and_shared_trees_same_error_in_both_tiers() -> None:
    deep: dict = {"fmt": "%{a}s", "a": "x"}
    for _ in range(3000):
        deep = {"fmt": "%{a}s", "a": deep}
    shared = {"fmt": "%{a}s", "a": "x"}
    wide = {"fmt": "%{a: }s", "a": [shared] * 5000}
    bad_present = {"fmt": "%{a}s", "a": {"fmt": "x", "present": 1}}
    saved = treecheck.COMPILE_AT
    got = {}
    try:
        for mode in (0, 1):
            _forget()
            treecheck.COMPILE_AT = mode
            got[mode] = [_outcome(d, "postgres") for d in (deep, wide, bad_present)]
    finally:
        treecheck.COMPILE_AT = saved
        _forget()
    assert got[0] == got[1]
    assert all(o[0] == "error" for o in got[0])


# ---- 3. records.Struct -----------------------------------------------------------------------------------------

def test_diagnostic_as_a_user_handles_it() -> None:
    d = Diagnostic("DDLC-W001", "m", ("a", 1), "postgres", dropped_text="x", dropped_node=[1])
    e = Diagnostic("DDLC-W001", "m", ("a", 1), "postgres", dropped_text="y")
    assert d == e and hash(d) == hash(e) and len({d, e}) == 1
    assert repr(d) == "Diagnostic(code='DDLC-W001', message='m', path=('a', 1), target='postgres', " \
                      "pass_name=None, document=None, dropped_text='x')"
    back = pickle.loads(pickle.dumps(d))
    assert back == d and back.dropped_text == "x" and back.dropped_node == [1]
    assert copy.deepcopy(d).dropped_node == [1] and copy.copy(d).dropped_node is d.dropped_node
    assert dataclasses.replace(d, code="DDLC-W002").dropped_text == "x"
    assert dataclasses.asdict(d)["dropped_within"] == ()
    assert [f.name for f in dataclasses.fields(d) if not f.compare] == [
        "dropped_text", "dropped_node", "dropped_prefix", "dropped_after", "dropped_within"]
    with pytest.raises(AttributeError):
        d.code = "x"  # type: ignore[misc]


# round 8 review: the records made as msgspec Structs raised a plain AttributeError on assignment, which
# `except FrozenInstanceError` does not catch; fixed by records.sealed.
def test_frozen_struct_raises_frozen_instance_error() -> None:
    t = ddlc.translate({"TDDL": "DROP TABLE s.t"}, "postgres")
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.index = 3  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        Diagnostic("c", "m").code = "x"  # type: ignore[misc]


def test_translation_as_a_user_handles_it() -> None:
    doc = _docs()[0]
    for target in ("postgres", "gaussdb", "spark"):
        t = ddlc.translate(doc, target, on_unsupported="comment")
        u = ddlc.translate(doc, target, on_unsupported="comment")
        assert t == u and hash(t) == hash(u)
        assert pickle.loads(pickle.dumps(t)) == t and copy.deepcopy(t) == t
        assert json.dumps(dataclasses.asdict(t), default=repr)
        assert dataclasses.replace(t, index=7).index == 7
        assert len(set(t.diagnostics)) == len(set(u.diagnostics))


# ---- 4. pgparse.Recent under threads --------------------------------------------------------------------------

def test_threads_translate_as_serial() -> None:
    docs = _docs()
    docs = docs + [d.replace("t1", "t1_r8") for d in docs]

    def run(target: str) -> list[object]:
        return [(t.sql, t.error and str(t.error)) for t in ddlc.translate_many(docs, target)]

    for target in ("postgres", "gaussdb"):
        serial = run(target)
        with ThreadPoolExecutor(6) as ex:
            assert all(r == serial for r in ex.map(lambda _: run(target), range(6)))


# ---- 5. qualify_names ------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "options", "expected"), [
    ("CREATE TABLE t (a int DEFAULT nextval('s1'), b int REFERENCES r(x))", {},
     "CREATE TABLE public.t (a integer DEFAULT nextval('public.s1'), b integer, FOREIGN KEY (b) "
     "REFERENCES public.r (x));\n"),
    ("CREATE VIEW v AS SELECT a FROM t JOIN u ON t.a = u.b", {"default_schema": "ds"},
     "CREATE VIEW ds.v AS SELECT a FROM ds.t INNER JOIN ds.u ON t.a = u.b;\n"),
    ("CREATE TABLE t5 (a int DEFAULT (SELECT max(x) FROM zz))", {"schema_map": {"public": "p2"}},
     "CREATE TABLE p2.t5 (a integer DEFAULT (SELECT max(x) FROM p2.zz));\n"),
    ("ALTER TABLE public.t ADD COLUMN z int DEFAULT nextval('seq')",
     {"default_schema": "ds", "schema_map": {"public": "p2", "ds": "d2"}},
     "ALTER TABLE p2.t ADD COLUMN z integer DEFAULT nextval('d2.seq');\n"),
    ("CREATE TABLE t7 (a int DEFAULT nextval('\"S\"'), b text DEFAULT 'FROM x')", {},
     "CREATE TABLE public.t7 (a integer DEFAULT nextval('public.\"S\"'), b text DEFAULT 'FROM x');\n"),
])
def test_unqualified_names_still_qualified(text: str, options: dict, expected: str) -> None:
    assert ddlc.translate({"TDDL": text}, "postgres", **options).sql == expected


# ---- found on the way (not a round 8 change) -------------------------------------------------------------------

# round 8 review, older than round 8: a mapping that holds itself (a library caller's cyclic dict) made
# ddlc.translate loop for ever in jsonload.text_error's walk; each container is now walked once, and the tree
# check reports the cycle (DDLC-E003, an object expanded more than the server would).
def test_cyclic_mapping_fails_fast() -> None:
    import subprocess
    import sys

    code = ("import ddlc\nd = {'fmt': '%{a}s', 'a': None}\nd['a'] = d\n"
            "try:\n    ddlc.translate(d, 'postgres')\nexcept Exception:\n    pass\n")
    try:
        subprocess.run([sys.executable, "-c", code], timeout=5, check=False, cwd=ROOT)
    except subprocess.TimeoutExpired:
        pytest.fail("ddlc.translate of a cyclic mapping did not end in 5 s")


def test_cyclic_and_shared_mappings_get_one_clear_error() -> None:
    d: dict = {"fmt": "%{a}s %{b}s", "a": None, "b": None}
    d["a"] = d
    d["b"] = d
    with pytest.raises(ddlc.DdlcError) as e:
        ddlc.translate(d, "postgres")
    assert e.value.code == "DDLC-E003"
    bad = {"fmt": "X %{a}s", "a": "ok\x00"}  # one object shared: its NUL reported where it is first met
    with pytest.raises(ddlc.DdlcError) as e:
        ddlc.translate({"fmt": "%{a}s %{b}s", "a": [bad], "b": bad}, "postgres")
    assert e.value.code == "DDLC-E006" and "$.a[0].a" in str(e.value)
