"""Throughput round 11 (issue 26): the GaussDB target's canonical text, old beside new.

* :func:`ddlc.quoting.canonicalize` reads the common text (ASCII, the space its only blank, no dollar quote, no
  comment) itself, its quoted runs by ``str.split`` (``_spaced_quoted``): compared with the former reading
  (``quoting._ascii``, then ``quoting._general``) and with ``_general`` alone, on every fixture string, every
  fixture tree's expansion and generated texts (both quote kinds, doubled, nested in each other, left open; runs
  of spaces inside and outside quotes; controls that are no blank).
"""

from __future__ import annotations

import glob
from pathlib import Path

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from ddlc.quoting import _ascii, _general, canonicalize

from fixture_strings import json_strings

ROOT = Path(__file__).resolve().parents[1]
CASES = sorted(glob.glob(str(ROOT / "fixtures" / "cases" / "**" / "input.json"), recursive=True))


def _former(text: str) -> str:
    """canonicalize as it was at 4a0c31e."""
    if text.isascii():
        got = _ascii(text)
        if got is not None:
            return got
    return _general(text)


def _trees() -> list[dict]:
    out = []
    for f in CASES:
        try:
            value = orjson.loads(Path(f).read_bytes())
        except orjson.JSONDecodeError:
            continue
        tree = value.get("JDDL", value) if isinstance(value, dict) else None
        if isinstance(tree, dict) and "fmt" in tree:
            out.append(tree)
    return out


def _expansions() -> list[str]:
    from ddlc.jddl.expand import expand

    out = []
    for tree in _trees():
        try:
            out.append(expand(tree))
        except Exception:  # noqa: BLE001 - a tree the expander refuses has no text to compare
            continue
    return out


def test_canonical_fixture_texts():
    texts = sorted(json_strings()) + _expansions()
    assert len(texts) > 1000
    spaced = 0
    for t in texts:
        got = canonicalize(t)
        assert got == _former(t), t
        assert got == _general(t), t
        spaced += t.isascii() and ("'" in t or '"' in t) and not any(c in t for c in "\n\t\r\x0b\x0c$")
    assert spaced > 100  # (the new path was taken)


_PIECES = ["a", "b1", "x_y", "(", ")", ",", "'", "''", '"', '""', " ", "  ", "   ", "'a b'", '"a b"', "'  '", '"  "',
           "'it''s'", '"q""d"', "\"it's\"", "'say \"x\"'", "'\"'", "\"'\"", "-", "/", "*", "\x01", "\x1c", "\x1f",
           "\x7f", "\x00", "e'x'", "pg_catalog.\"varchar\"", "DEFAULT 'x'  ,", "COMMENT ' a  b '"]


@settings(max_examples=6000, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=30))
def test_canonical_generated_spaced_quotes(pieces):
    t = "".join(pieces)
    got = canonicalize(t)
    assert got == _former(t)
    assert got == _general(t)


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet=st.sampled_from(list(" '\"ab;()-/*\x01\x1c\t\n$")), max_size=48))
def test_canonical_generated_characters(t):
    got = canonicalize(t)
    assert got == _former(t)
    assert got == _general(t)
