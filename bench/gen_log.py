"""Realistic logical-decoding logs of any size, for the benchmarks (deterministic for a seed).

    python bench/gen_log.py --size 200MB --format rows-json -o /tmp/log.jsonl [--ddl-ratio 0.01] [--seed 1]

Transactions of 1 to 8 records between BEGIN and COMMIT; about ``--ddl-ratio`` of the records are DDL
(the JDDL trees of fixtures/sample/ddl.jsonl and the fixture cases, 0.3-5 KB: CREATE/ALTER/DROP TABLE,
INDEX, VIEW, FUNCTION, ..., the sample's history replayed under a new schema name each round so the
log stays coherent), the rest DML rows of 0.1-2 KB (INSERT/UPDATE/DELETE, some values holding
newlines). Formats: ``rows-json`` (the rows of pg_logical_slot_get_changes as JSON lines) and
``decoding`` (test_decoding text). Prints the counts it wrote as JSON on stderr.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _ddl_rounds() -> list[str]:
    """The sample's coherent history, as JSON texts with the schema name as a placeholder."""
    texts = []
    for line in (ROOT / "fixtures" / "sample" / "ddl.jsonl").read_text().splitlines():
        if line.strip():
            # every object of the round in the round's schema (the DML below writes to it too)
            texts.append(line.replace('"sales"', '"@S@"').replace("sales.", "@S@.")
                         .replace('"public"', '"@S@"').replace("public.", "@S@."))
    return texts


def _dml(rng: random.Random, schema: str, n: int) -> str:
    size = rng.randint(100, 2000)
    note = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz ") for _ in range(size // 3))
    note = note * 3
    if rng.random() < 0.05:
        note = note[:50] + "\n" + note[50:]  # a value holding a newline
    op = rng.random()
    if op < 0.7:
        return f"table {schema}.orders: INSERT: id[integer]:{n} note[character varying]:'{note[:size]}'"
    if op < 0.9:
        return (f"table {schema}.orders: UPDATE: old-key: id[integer]:{n} new-tuple: id[integer]:{n} "
                f"note[character varying]:'{note[:size]}'")
    return f"table {schema}.orders: DELETE: id[integer]:{n}"


def generate(out, size: int, fmt: str, ddl_ratio: float = 0.01, seed: int = 1) -> dict[str, int]:
    rng = random.Random(seed)
    rounds = _ddl_rounds()
    counts = {"bytes": 0, "records": 0, "ddl": 0, "dml": 0, "transaction": 0}
    lsn, xid, n, rnd, k = 0x16B00000, 1000, 0, 0, 0
    schema = "s0"

    def emit(data: str) -> None:
        nonlocal lsn
        if fmt == "rows-json":
            line = json.dumps({"location": f"{lsn >> 32:X}/{lsn & 0xFFFFFFFF:X}", "xid": xid, "data": data}) + "\n"
        else:
            line = data + "\n"
        b = line.encode()
        out.write(b)
        counts["bytes"] += len(b)
        counts["records"] += 1
        lsn += len(b)

    while counts["bytes"] < size:
        xid += 1
        emit(f"BEGIN {xid}")
        counts["transaction"] += 1
        for _ in range(rng.randint(1, 8)):
            if rng.random() < ddl_ratio:
                text = rounds[k].replace("@S@", schema)
                k += 1
                if k == len(rounds):
                    k, rnd = 0, rnd + 1
                    schema = f"s{rnd}"
                if fmt == "rows-json":
                    emit(json.dumps({"JDDL": json.loads(text)}))
                else:
                    body = json.dumps({"JDDL": json.loads(text)})
                    emit(f"message: prefix deparse, relid 0, cmdtype: Create, sz: {len(body.encode()) + 1} "
                         f"content: {body}")
                counts["ddl"] += 1
            else:
                n += 1
                emit(_dml(rng, schema, n))
                counts["dml"] += 1
        emit(f"COMMIT {xid}")
        counts["transaction"] += 1
    return counts


def parse_size(text: str) -> int:
    t = text.upper().rstrip("B")
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(t[-1:], 1)
    return int(float(t.rstrip("KMG")) * mult)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", default="100MB")
    ap.add_argument("--format", choices=["rows-json", "decoding"], default="rows-json")
    ap.add_argument("--ddl-ratio", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    with open(a.output, "wb") as fh:
        counts = generate(fh, parse_size(a.size), a.format, a.ddl_ratio, a.seed)
    sys.stderr.write(json.dumps(counts) + "\n")


if __name__ == "__main__":
    main()
