"""Issue 26: the faster paths of the back half give what the former code gives.

* :func:`ddlc.quoting.canonicalize` collapses the blank runs of a text without dollar quotes or comments,
  whose every quote closes, by regular expressions; the character scan (``_scanned``, the former whole
  algorithm) does the rest. Both must give the same text for every text (hypothesis, and every raw
  GaussDB expansion of the fixtures), in linear time for texts whose quotes do not close.
"""

from __future__ import annotations

import glob
import time
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from ddlc import quoting

ROOT = Path(__file__).resolve().parents[1]


def _former(text: str) -> str:
    """canonicalize as it was: the scan of every character (after the same first test)."""
    if quoting._SPECIAL.search(text) is None:
        return text
    return quoting._scanned(text)


_PIECES = ["a", "b1", "_x", " ", "  ", "\t", "\n", "\r\n", "\x0b", "\x0c", "\xa0", "\x1c", "\x85", "\u2028", "'",
           "''", '"', '""', "$", "$$", "$a$", "-", "--", "/", "/*", "*/", "\\", "é", ";", "(", ")", ","]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=24))
def test_canonicalize_as_the_scan(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert quoting.canonicalize(text) == _former(text)


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=40))
def test_canonicalize_any_text(text: str) -> None:
    assert quoting.canonicalize(text) == _former(text)


def _expansions() -> list[str]:
    import ddlc

    out = []
    for f in sorted(glob.glob(str(ROOT / "fixtures" / "**" / "*.json"), recursive=True)):
        try:
            t = ddlc.translate(Path(f).read_bytes(), target="gaussdb", mode="raw")
        except Exception:  # noqa: BLE001 - not a document
            continue
        out.extend(t.statements)
    return out


def test_canonicalize_fixture_expansions() -> None:
    texts = _expansions()
    assert len(texts) > 150
    for t in texts:
        assert quoting.canonicalize(t) == _former(t), t


def test_canonicalize_linear_on_open_quotes() -> None:
    for text in ("'" + "''" * 20000, "x '" * 20000, '"' + '""' * 20000 + " '", "a  'b''" * 10000):
        t0 = time.process_time()
        assert quoting.canonicalize(text) == _former(text)
        assert time.process_time() - t0 < 2.0


def _former_qname(q) -> str:
    from ddlc.backends.writer import pg_ident

    return ".".join(pg_ident(p) for p in (q.schema, q.name, q.attr) if p is not None)


_PARTS = st.one_of(st.none(), st.sampled_from(["", "a", "A", "select", "x\x00", 'q"t', "my table", "é"]))


@settings(max_examples=1000, deadline=None)
@given(_PARTS, _PARTS, _PARTS)
def test_postgres_qname_as_the_join(schema, name, attr) -> None:
    """Emit.qname writes what the join of the quoted parts wrote, and fails on the same part first."""
    from types import SimpleNamespace

    from ddlc.backends.postgres.context import Emit
    from ddlc.errors import DdlcError

    q = SimpleNamespace(schema=schema, name=name, attr=attr)
    try:
        want = _former_qname(q)
    except DdlcError as e:
        want = ("error", str(e))
    try:
        got = Emit.qname(q)
    except DdlcError as e:
        got = ("error", str(e))
    assert got == want


def test_translation_fields_in_order() -> None:
    """api.translation passes the Translation's fields by position: each lands in its own field."""
    import dataclasses

    from ddlc.api import Translation, translation
    from ddlc.compiler import Result
    from ddlc.frontend.documents import as_document

    doc = as_document(b'{"fmt": "DROP TABLE %{objidentity}s", "objidentity": "s.t"}', index=7, source="f.jsonl")
    r = Result(("a",), "own", (), ("c",), None, 1, frozenset({0}), "why", "Drop", "s.t")
    backend = type("B", (), {"name": "tgt"})()
    got = translation(doc, backend, r)
    want = Translation(index=doc.index, document=doc.label, target="tgt", statements=r.statements, owner=r.owner,
                       diagnostics=r.diagnostics, error=r.error, source=doc.source, line=doc.line,
                       comments=r.comments, untranslated=r.untranslated, blocks=r.blocks, filtered=r.filtered,
                       kind=r.kind, object=r.object)
    assert dataclasses.astuple(got) == dataclasses.astuple(want)
