"""Every translation of the benchmark corpora, written out so that two trees can be compared byte for byte.

    .venv/bin/python bench/same_outputs.py > /tmp/a.json            # this tree
    .venv/bin/python bench/same_outputs.py --compare /tmp/a.json     # this tree against a file of an earlier one

The fixtures and varied corpora (bench/corpus.py), and the varied corpus with every name renamed to end in
``_é客ü`` (non-ASCII names in the trees and in the SQL text: a byte offset taken for a character one shows
there), each document translated on its own and as one stream,
for the three targets under three option sets (defaults; ``on_unsupported="comment"``; a schema map with
another default schema): statements, comments, diagnostics and errors. A throughput lever must leave all of
it unchanged; ``--compare`` prints the first differences and exits 1 when there are any.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus as corpora  # noqa: E402
import ddlc  # noqa: E402

OPTION_SETS = {
    "defaults": {},
    "comment": {"on_unsupported": "comment"},
    "schema-map": {"default_schema": "app", "schema_map": (("public", "pub2"), ("sales", "s2"), ("sales_é客ü", "s3"))},
}


def _result(t: object) -> dict[str, object]:
    err = getattr(t, "error", None)
    return {
        "statements": list(getattr(t, "statements", ())),
        "comments": list(getattr(t, "comments", ())),
        "diagnostics": [str(d) for d in getattr(t, "diagnostics", ())],
        "error": None if err is None else str(err),
        "untranslated": getattr(t, "untranslated", 0),
    }


def outputs() -> dict[str, object]:
    out: dict[str, object] = {}
    renamer = corpora.Renamer()
    varied = corpora.varied_corpus()
    wide = [(label, renamer.variant(raw, "é客ü")) for label, raw in varied]  # non-ASCII names in trees and SQL text
    for cname, docs in (("fixtures", corpora.fixtures_corpus()), ("varied", varied), ("wide", wide)):
        lines = [raw for _, raw in docs]
        for target in ("postgres", "gaussdb", "spark"):
            for oname, opts in OPTION_SETS.items():
                key = f"{cname}/{target}/{oname}"
                out[key + "/alone"] = [_result(t) for raw in lines
                                       for t in ddlc.translate_many([raw], target=target, **opts)]
                out[key + "/stream"] = [_result(t) for t in ddlc.translate_many(lines, target=target, **opts)]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--compare", metavar="FILE", help="compare with a file this script wrote for another tree")
    a = ap.parse_args()
    now = outputs()
    if not a.compare:
        sys.stdout.buffer.write(orjson.dumps(now, option=orjson.OPT_INDENT_2))
        return 0
    before = orjson.loads(Path(a.compare).read_bytes())
    diffs = 0
    for key in sorted(set(before) | set(now)):
        b, n = before.get(key), now.get(key)
        if b == n:
            continue
        if b is None or n is None or len(b) != len(n):
            print(f"{key}: {'missing' if b is None or n is None else f'{len(b)} results, now {len(n)}'}")
            diffs += 1
            continue
        for i, (x, y) in enumerate(zip(b, n)):
            if x != y:
                diffs += 1
                if diffs <= 20:
                    print(f"{key}[{i}]:\n  before {orjson.dumps(x).decode()[:600]}\n  now    {orjson.dumps(y).decode()[:600]}")
    total = sum(len(v) for v in now.values())
    print(f"{total} results compared: {'the same' if not diffs else f'{diffs} differ'}")
    return 1 if diffs else 0


if __name__ == "__main__":
    raise SystemExit(main())
