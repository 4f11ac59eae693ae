"""Issue 26.2: fragment_problem's shortcut for plain texts (words, numbers, blanks, punctuation, operators and
parentheses only) gives what the lexer's tokens give, for every text (hypothesis) and every fixture fragment."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from ddlc.frontend.sql.fragment import _PLAIN, _scanned_problem, fragment_problem

ROOT = Path(__file__).resolve().parents[1]
PLAIN_CHARS = "abcXYZ_019 \t\r\n(),.+*<>=!:%&|^~@#?[]-"
OTHER = "'\"$;/\\\v\fé"


def _both(text: str) -> None:
    for query in (False, True):
        for glued in (False, True):
            assert fragment_problem.__wrapped__(text, query=query, glued_quotes=glued) == \
                _scanned_problem(text, query, glued), (text, query, glued)


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet=PLAIN_CHARS, max_size=40))
def test_plain_texts(text):
    _both(text)


@settings(max_examples=1500, deadline=None)
@given(st.text(alphabet=PLAIN_CHARS + OTHER, max_size=30))
def test_any_texts(text):
    _both(text)


def test_parentheses_in_order():
    assert fragment_problem.__wrapped__(")(") == "a ')' without its '('"
    assert fragment_problem.__wrapped__("(a) (b") == "a '(' without its ')'"
    assert fragment_problem.__wrapped__("f(a, (b))") is None
    assert fragment_problem.__wrapped__("a -- b") == _scanned_problem("a -- b", False, False)
    assert _PLAIN.match("nextval(x) + 1") and not _PLAIN.match("'x'") and not _PLAIN.match("a/b")


def test_fixture_strings():
    from fixture_strings import json_strings  # (every string of the fixtures' JSON: the cases' inputs and more)

    texts = json_strings(max_len=1 << 20)
    assert len(texts) > 500
    for t in texts:
        _both(t)
