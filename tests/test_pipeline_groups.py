"""Stage 2 cut into groups of documents that share no object (ddlc.pipeline.groups) gives exactly what one
ordered stream gives: the same translation of every document and the same catalog at the end, whatever
the number of buckets. Proven here without Spark (the functions Spark's workers run, called directly),
over random logs mixing a coherent history, renames, SET SCHEMA and partition maintenance across a few
schemas; and Spark's hash partitioning is checked to put every (target, bucket) in a task of its own."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import orjson
from hypothesis import HealthCheck, given, settings, strategies as st

from ddlc.api import Options
from ddlc.frontend.documents import read_documents
from ddlc.pipeline.groups import EVERYTHING, links_of, merge_catalogs, part_key, plan_groups, rel, sch
from ddlc.pipeline.work import portable, order_key, translate_rows
from ddlc.state_file import History, dump_catalog, load_catalog

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = [line for line in (ROOT / "fixtures" / "sample" / "ddl.jsonl").read_text().splitlines() if line.strip()]
CASES = [(ROOT / "fixtures" / "cases" / f / "input.json").read_text() for f in (
    "rename/schema", "rename/table-to-quoted-name", "rename/b-compat-cross-schema", "rename/b-compat-rename-table-list",
    "set_schema/table", "set_schema/view", "alter_table/split-partition", "alter_table/add-partition-subpartitions",
    "alter_table/partition-drop-truncate-exchange-merge", "create_table/range-list-subpartitions",
    "create_table/interval", "drop/table-if-exists-cascade", "drop/schema-quoted-cascade")]
CORPUS = [json.dumps(json.loads(t)) for t in SAMPLE + CASES]
SCHEMAS = ("public", "sales", "a", "archive")


def _respell(text: str, mapping: dict[str, str]) -> str:
    for old, new in mapping.items():
        text = text.replace(f'"{old}"', f'"@{new}@"').replace(f"{old}.", f"@{new}@.")
    for new in set(mapping.values()):
        text = text.replace(f"@{new}@", new)
    return text


def _log(picks: list[tuple[int, int, int]]) -> bytes:
    lines = []
    for i, (doc, a, b) in enumerate(picks):
        text = _respell(CORPUS[doc % len(CORPUS)], {"public": SCHEMAS[a], "sales": SCHEMAS[b]})
        lines.append(orjson.dumps({"location": f"0/{16 * (i + 1):X}", "xid": 100 + i,
                                   "data": orjson.dumps({"JDDL": orjson.loads(text)}).decode()}))
    return b"\n".join(lines) + b"\n"


def _rows(data: bytes, opts: Options) -> list[dict]:
    rows = []
    for seq, doc in enumerate(read_documents(data, "rows")):
        lsn = doc.lsn
        rows.append({"target": "postgres", "piece": 0, "seq": seq, "file": 0, "lsn_hi": lsn >> 32,
                     "lsn_lo": lsn & 0xFFFFFFFF, "lsn": "x", "xid": doc.xid, "source": doc.source, "line": doc.line,
                     "label": doc.label, "doc": pickle.dumps(portable(doc)), "payload": None,
                     "links": links_of(doc, opts), "position": doc.position})
    return rows


def _translated(out: list[dict]) -> dict:
    return {(r["piece"], r["seq"]): (r["status"], r.get("sql"), r.get("diagnostics"), r.get("error"))
            for r in out if r["status"] != "state"}


def _both(data: bytes, buckets: int, state: bytes | None, opts: Options):
    rows = _rows(data, opts)
    one = list(translate_rows(sorted(rows, key=order_key), opts, state, state is not None))
    plan = plan_groups(rows, buckets, History.from_json(orjson.loads(state)) if state else None)
    cut = [r | {"bucket": plan.bucket[(r["piece"], r["seq"])], "seen": (r["piece"], r["seq"]) in plan.seen}
           for r in rows]
    cut.sort(key=lambda r: (r["bucket"], *order_key(r)))
    many = list(translate_rows(cut, opts, state, state is not None, plan.owned))
    return one, many, plan


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(CORPUS) - 1), st.integers(0, 3), st.integers(0, 3)), min_size=1,
                max_size=24), st.integers(1, 4))
def test_groups_translate_exactly_like_one_stream(picks, buckets):
    opts = Options.of()
    one, many, plan = _both(_log(picks), buckets, orjson.dumps(History().to_json()), opts)
    assert _translated(many) == _translated(one)
    whole = orjson.loads([r for r in one if r["status"] == "state"][0]["state"])
    parts = [(plan.owned[d["bucket"]], d["catalog"]) for r in many if r["status"] == "state"
             for d in [orjson.loads(r["state"])]]
    merged = dump_catalog(merge_catalogs(None, parts, "public"))
    assert _sorted(merged) == _sorted(dump_catalog(load_catalog(whole["catalog"])))  # as a state saves it
    assert plan.position == (whole["history"]["last"] and (
        History.from_json(whole["history"]).last, whole["history"]["last"]["xid"]))


def _sorted(cat: dict) -> dict:
    return {k: sorted(cat[k], key=lambda e: (e["schema"] or "", e["name"])) for k in cat}


def test_state_seen_and_position_are_decided_once_for_every_bucket():
    data = _log([(i, 0, 1) for i in range(len(SAMPLE))])
    opts = Options.of()
    # a state that has seen the log up to the 5th document: the rest are translated, in any bucket
    first = list(translate_rows(sorted(_rows(data, opts), key=order_key)[:5], opts,
                                orjson.dumps(History().to_json()), True))
    saved = orjson.loads(first[-1]["state"])["history"]
    state = orjson.dumps(saved)
    one, many, plan = _both(data, 3, state, opts)
    assert _translated(many) == _translated(one)
    assert sum(1 for r in many if r["status"] == "replayed") == 5 == len(plan.seen)


def test_links_name_objects_both_sides_of_a_move():
    opts = Options.of(schema_map={"sales": "s2"})
    docs = list(read_documents(b"".join(
        orjson.dumps({"JDDL": json.loads(t)}) + b"\n" for t in CORPUS), "jsonl"))
    links = [links_of(d, opts) for d in docs]
    assert rel("public", "orders") in links[1]  # CREATE TABLE public.orders
    assert {rel("public", "orders"), rel("public", "v_orders")} <= set(links[7])  # the view and its query's table
    rename_schema = links[len(SAMPLE)]
    assert {sch("sales"), sch("sales_old"), sch("s2")} <= set(rename_schema)  # mapped name too
    set_schema = links[len(SAMPLE) + 4]
    assert {rel("public", "orders"), rel("archive", "orders")} <= set(set_schema)
    assert links_of(next(iter(read_documents(b'{"fmt": 1}\n', "jsonl"))), opts) == []  # does not build


def test_plan_joins_whole_schemas_and_drop_database_joins_everything():
    def k(i, links):
        return {"piece": 0, "seq": i, "file": 0, "lsn_hi": 0, "lsn_lo": i, "lsn": None, "xid": None, "label": str(i),
                "links": links}

    keys = [k(0, [rel("a", "t")]), k(1, [rel("b", "u")]), k(2, [rel("a", "x")]), k(3, [sch("b"), sch("c")]),
            k(4, [rel("c", "z")]), k(5, [])]
    plan = plan_groups(keys, 4)
    b = plan.bucket
    assert b[(0, 1)] == b[(0, 3)] == b[(0, 4)]  # RENAME SCHEMA b TO c holds every table of b and c
    assert len({b[(0, 0)], b[(0, 2)], b[(0, 1)]}) == 3 and plan.groups == 4
    assert sch("b") in plan.owned[b[(0, 1)]] and rel("c", "z") in plan.owned[b[(0, 1)]]
    assert plan_groups(keys + [k(6, [EVERYTHING])], 4).buckets == 1


def test_part_keys_land_in_partitions_of_their_own(spark):
    from pyspark.sql import functions as F

    for n in (1, 2, 3, 6, 16):
        keys = [part_key(i, n) for i in range(n)]
        got = (spark.session.createDataFrame([(k,) for k in keys], "k int").repartition(n, "k")
               .select("k", F.spark_partition_id().alias("p")).collect())
        assert sorted((keys.index(r["k"]), r["p"]) for r in got) == [(i, i) for i in range(n)]
