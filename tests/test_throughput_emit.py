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
