"""Throughput round 10 (issue 26): the per-document glue and the GaussDB target, old algorithm beside new.

* :func:`ddlc.backends.gaussdb.canonical.canonical` is :func:`ddlc.quoting.canonicalize` on every fixture string,
  every fixture tree's expansion and generated texts (quotes of both kinds doubled and left open, blank runs of
  every blank, dollar quotes, comments, controls, non-ASCII blanks).
"""

from __future__ import annotations

import glob
from pathlib import Path

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from ddlc.backends.gaussdb.canonical import canonical
from ddlc.quoting import canonicalize

from fixture_strings import json_strings

ROOT = Path(__file__).resolve().parents[1]
CASES = sorted(glob.glob(str(ROOT / "fixtures" / "cases" / "**" / "input.json"), recursive=True))


def _expansions() -> list[str]:
    """Every fixture case's raw expansion (the texts the GaussDB target makes canonical)."""
    from ddlc.jddl.expand import expand

    out = []
    for f in CASES:
        try:
            value = orjson.loads(Path(f).read_bytes())
        except orjson.JSONDecodeError:
            continue
        tree = value.get("JDDL", value) if isinstance(value, dict) else None
        if not isinstance(tree, dict) or "fmt" not in tree:
            continue
        try:
            out.append(expand(tree))
        except Exception:  # noqa: BLE001 - a tree the expander refuses has no text to compare
            continue
    return out


def test_canonical_fixture_texts():
    texts = sorted(json_strings()) + _expansions()
    assert len(texts) > 1000
    for t in texts:
        assert canonical(t) == canonicalize(t), t


_PIECES = ["a", "b1", "x_y", "(", ")", ",", "'", "''", '"', '""', " ", "  ", "   ", "\t", "\n", "\r\n", "\f", "\v",
           "$", "$$", "$q$", "--", "-", "/*", "*/", "/", "*", "\x1c", "\x1f", "\x00", "\x7f", "\xa0", "\u2003", "é",
           "e'x'", " '  ' ", ' "  " ', "'it''s'", 'pg_catalog."varchar"', "VALUES ('a  b')"]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=24))
def test_canonical_generated(pieces):
    t = "".join(pieces)
    assert canonical(t) == canonicalize(t)


@settings(max_examples=1500, deadline=None)
@given(st.text(alphabet=st.sampled_from(list(" \t\n'\"$-/*ab;()\x1f\xa0")), max_size=40))
def test_canonical_generated_characters(t):
    assert canonical(t) == canonicalize(t)
