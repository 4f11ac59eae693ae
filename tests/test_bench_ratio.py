"""bench/bench_ratio.py runs, and its unique corpus is what it claims: every document renamed, afresh for
each variant, and translated as the original. No timing is asserted (speed is measured in bench/)."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys

import orjson
import pytest

from conftest import ROOT

BENCH = ROOT / "bench"


def _corpus_module():
    spec = importlib.util.spec_from_file_location("bench_corpus", BENCH / "corpus.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


corpus = _corpus_module()


@pytest.fixture(scope="module")
def renamer():
    return corpus.Renamer()


def test_bench_runs_in_a_tiny_mode():
    r = subprocess.run([sys.executable, str(BENCH / "bench_ratio.py"), "--chunks", "2", "--chunk", "4",
                        "--repeat", "1", "--targets", "postgres,gaussdb", "--json", "--quiet"],
                       capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stderr
    res = json.loads(r.stdout)
    keys = {f"{c}/{t}" for c in ("fixtures", "varied", "unique") for t in ("postgres", "gaussdb")}
    assert set(res["figures"]) == keys
    for key in keys:
        assert len(res["chunks"][key]) == 2
        for field in ("ratio", "noise_ddlc", "noise_orjson", "ddlc_us", "orjson_us"):
            s = res["figures"][key][field]
            assert s["n"] == 2 and 0 < s["q1"] <= s["median"] <= s["q3"]
    info = res["info"]
    assert info["corpora"]["varied"]["families"] == info["corpora"]["unique"]["families"] >= 17
    assert info["corpora"]["fixtures"]["documents"] >= 200 and info["corpora"]["varied"]["documents"] >= 300
    # the renamed corpus fails exactly where the varied one does (gaussdb: nowhere)
    for t in ("postgres", "gaussdb"):
        assert info["failed"][f"unique/{t}"] == info["failed"][f"varied/{t}"]
    assert info["failed"]["varied/gaussdb"] == 0


def test_the_report_prints_every_corpus_and_target():
    r = subprocess.run([sys.executable, str(BENCH / "bench_ratio.py"), "--chunks", "1", "--chunk", "3",
                        "--repeat", "1", "--targets", "gaussdb", "--corpora", "unique", "--quiet", "--api", "one"],
                       capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stderr
    assert re.search(r"^unique/gaussdb +0/408 ", r.stdout, re.M), r.stdout
    assert "noise ddlc/ddlc" in r.stdout


def test_varied_corpus_covers_every_family():
    docs = corpus.varied_corpus()
    families = {p.name for p in (ROOT / "fixtures" / "cases").iterdir() if p.is_dir()} - corpus.NOT_A_FAMILY
    assert set(corpus.families(docs)) == families
    assert len(docs) == 24 * len(families)


def _names(node, key=None, out=None):
    """The values of the keys that always hold a name."""
    out = set() if out is None else out
    if isinstance(node, dict):
        for k, v in node.items():
            _names(v, k, out)
    elif isinstance(node, list):
        for v in node:
            _names(v, key, out)
    elif isinstance(node, str) and key in ("objname", "object_name", "colname", "newname") and node:
        out.add(node)
    return out


def test_unique_variants_rename_every_document(renamer):
    seen = set()
    for label, line in corpus.varied_corpus():
        a, b = renamer.variant(line), renamer.variant(line)
        assert a != line and a != b, label
        assert len(a) == len(b), label  # every variant of a document has the same size
        assert orjson.loads(a).keys() == orjson.loads(line).keys()
        seen.add(a)
        # no name of the original is left in the variant's names, but those ddlc must know
        # (pg_catalog."default", a keyword)
        kept = {n for n in _names(orjson.loads(line)) & _names(orjson.loads(a)) if renamer.renames(n)}
        assert not kept, label
    assert len(seen) == len(corpus.varied_corpus())


def test_tddl_texts_are_renamed_consistently(renamer):
    line = orjson.dumps({"TDDL": "CREATE TABLE public.t_ctas WITH (orientation = 'row') AS SELECT a, b "
                                 "FROM public.t_src WHERE a > 1;"})
    tag = renamer.tag()
    text = orjson.loads(renamer.variant(line, tag))["TDDL"]
    assert text == (f"CREATE TABLE public.t_ctas_{tag} WITH (orientation = 'row') AS SELECT a_{tag}, b_{tag} "
                    f"FROM public.t_src_{tag} WHERE a_{tag} > 1;")


def test_derived_names_stay_derived(renamer):
    # a serial column's sequence is named <table>_<column>_seq: renamed part by part
    line = orjson.dumps({"fmt": "%{t}s %{c}s %{d}s", "t": "all_types", "c": "c_serial",
                         "d": "nextval('public.all_types_c_serial_seq'::regclass)"})
    tag = renamer.tag()
    assert orjson.loads(renamer.variant(line, tag))["d"] == \
        f"nextval('public.all_types_{tag}_c_serial_{tag}_seq'::regclass)"


@pytest.mark.parametrize("target", ["postgres", "gaussdb"])
def test_unique_corpus_translates_as_the_varied_one(renamer, target):
    docs = list(dict(corpus.varied_corpus()).items())  # each distinct document once
    res = corpus.check(docs, target, renamer)
    assert res["status"] == [] and res["differs"] == [] and res["unrenamed"] == []
    assert res["same"] == res["renamed"] == len(docs)
