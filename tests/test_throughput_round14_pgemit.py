"""Round 14 of issue 26, the PostgreSQL emitters (ddlc/backends/postgres/misc.py).

* A CREATE TABLE AS / SELECT INTO / CREATE MATERIALIZED VIEW query (``misc._query``) asked ``exprs.wants_rewrite``
  whether its text may call a function of the rewrite table: a case-insensitive pattern ``\\b(?:name|...)\\b|u&``
  of ~30 alternatives tried at every position, ~100k instructions a query (a third of the TDDL family's emit).
  ``misc._wants_rewrite`` gives the pattern's answer for an ASCII text by ``str.find`` on the lowered text, each
  found word's boundaries tested as ``\\b`` tests them; any other text still goes to the pattern (``re.I`` folds a
  few non-ASCII letters to ASCII ones: the Kelvin sign to ``k``, the long s to ``s``).

Compared below with the pattern itself over every fixture string and generated texts: the rewrite table's words
cut, joined, cased and wrapped in every character class (word characters, ``$``, quotes, backslashes, ``$$``,
``--``, ``/*``, newlines, non-ASCII, empty), and whole statements through ``translate_many``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import ddlc
from ddlc.backends.postgres import misc
from ddlc.backends.postgres.exprs import wants_rewrite
from ddlc.backends.postgres.rewrites import REWRITES

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fixture_strings import json_strings  # noqa: E402


def test_the_words_are_the_patterns():
    assert set(misc._NAMES) == set(REWRITES)
    for name in REWRITES:  # the boundary tests assume a lowered word that starts and ends with a \w character
        assert name == name.lower() and name.isascii() and name
        assert name[0] in misc._WORD and name[-1] in misc._WORD


def _corpus_strings() -> set[str]:
    """Every string of the benchmark corpus's documents (the TDDL texts with their queries among them)."""
    import msgspec

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import corpus

    out: set[str] = set()
    for _, line in corpus.varied_corpus():
        stack = [msgspec.json.decode(line)]
        while stack:
            v = stack.pop()
            if isinstance(v, dict):
                stack.extend(v.values())
            elif isinstance(v, list):
                stack.extend(v)
            elif isinstance(v, str):
                out.add(v)
    return out


def test_every_fixture_and_corpus_string():
    texts = json_strings() | _corpus_strings()
    assert len(texts) > 500
    assert sum(wants_rewrite(t) for t in texts) >= 5  # (both answers met)
    for t in texts:
        assert misc._wants_rewrite(t) == wants_rewrite(t), t


_HOSTILE = ["", " ", "\n", "\t", "(", ")", ",", ".", "'", '"', "''", "\\", "$", "$$", "--", "/*", "*/", "_", "0", "9",
            "a", "Z", "&", "u", "U", "u&", "U&", "é", "ä", "K", "ſ", "İ", "ı", "\u00a0", "\u2028", "😀", "x$", "1"]


def _case(word: str, mask: int) -> str:
    return "".join(c.upper() if mask >> (i % 16) & 1 else c for i, c in enumerate(word))


_word = st.sampled_from(sorted(REWRITES) + ["ifx", "xif", "nvl2x", "to_", "sysdat", "_sysdate", "sysdate_"])
_piece = st.one_of(
    st.builds(_case, _word, st.integers(0, 0xFFFF)),
    st.sampled_from(_HOSTILE),
    st.text(max_size=6),
    st.text(alphabet="abcdefghijklmnopqrstuvwxyzIFNVLU_&0123456789$ ()'\"", max_size=8),
)


@settings(max_examples=4000, deadline=None)
@given(st.lists(_piece, max_size=10))
def test_generated_texts(pieces):
    t = "".join(pieces)
    assert misc._wants_rewrite(t) == wants_rewrite(t), t


@settings(max_examples=1500, deadline=None)
@given(_word, st.sampled_from(_HOSTILE), st.sampled_from(_HOSTILE), st.integers(0, 0xFFFF))
def test_a_word_between_any_two(word, before, after, mask):
    for t in (before + _case(word, mask) + after, "select " + before + _case(word, mask) + after + "(x) from t"):
        assert misc._wants_rewrite(t) == wants_rewrite(t), t


def _ctas(query: str) -> bytes:
    import orjson

    return orjson.dumps({"TDDL": "CREATE TABLE s.t AS " + query + ";"})


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["select a from s.u", "select nvl(a, 1) from s.u", "select sysdate from s.u",
                        "select decode(a, 1, 2, 3) from s.u", "select \"sysdate\" from s.u",
                        "select a as ifx from s.u", "select to_date('2020-01-01', 'YYYY-MM-DD') from s.u",
                        "select NVL2(a, 1, 2) from s.u", "select 'nvl(' || a from s.u", "select x.nvl from s.u x",
                        "select a from s.u where b = 'sysdate'", "select U&\"\\0061\" from s.u"]))
def test_statements_as_before(query):
    """The whole path with both answers: the statements, diagnostics and comments the same."""
    doc = _ctas(query)
    new = list(ddlc.translate_many([doc], target="postgres"))
    saved = misc._wants_rewrite
    misc._wants_rewrite = wants_rewrite
    try:
        old = list(ddlc.translate_many([doc], target="postgres"))
    finally:
        misc._wants_rewrite = saved
    assert repr(new) == repr(old)
