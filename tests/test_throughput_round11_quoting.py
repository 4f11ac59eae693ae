"""Round 11: ``quoting.quote_ident`` decides the common name by three str tests before ``_SAFE``; the former
reading (the regex alone) is kept here and must agree on every name."""

from __future__ import annotations

import string

from hypothesis import given, settings
from hypothesis import strategies as st

from ddlc import quoting


def _former(name: str) -> str:
    if quoting._SAFE.match(name) is not None and name not in (quoting._FORCED or quoting._load_forced()):
        return name
    return '"' + name.replace('"', '""') + '"'


EDGES = ["", "_", "_1", "a", "A", "aB", "a1", "1a", "a$", "select", "user", "é", "aé", "a b", "a\n", "ǅ", "ß",
         "ﬁ", "a\u0301", "ª", "º", "a_b_c", "abc_", "x" * 70, "ⅰ", "ᵃ", "a\x00", "aⅰ", "aᵃ", 'a"b', "ı", "K"]


def test_edges_agree() -> None:
    for name in EDGES:
        assert quoting.quote_ident(name) == _former(name), name


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet=string.ascii_letters + string.digits + "_$\"é ªﬁǅⅰᵃ\u0301", max_size=12))
def test_generated_names_agree(name: str) -> None:
    assert quoting.quote_ident(name) == _former(name)


@settings(max_examples=2000, deadline=None)
@given(st.text(max_size=8))
def test_any_text_agrees(name: str) -> None:
    assert quoting.quote_ident(name) == _former(name)


def test_forced_words_still_quoted() -> None:
    for word in sorted(quoting._FORCED or quoting._load_forced())[:200]:
        assert quoting.quote_ident(word) == _former(word)
