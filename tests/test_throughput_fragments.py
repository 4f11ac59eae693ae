"""Issue 26, the slot check's new fragments (round 8b): each shortcut answers exactly as the reading it skips
(kept here as the reference), over every fixture string and texts hypothesis makes (hostile quotes, comments,
dollar quotes, backslashes, ``/`` lines, non-ASCII), errors included.

* ``fragment.clean_fragment``: a text it finds clean is one fragment without a comment, in the class of every
  slot of one ``CLEAN_FRAGMENTS`` form, and the builders' ``check_fragment`` / ``has_comment`` of a text it
  remembered answer as without it;
* ``slotforms._plain_body``: a body it takes is in the ``body`` class by the tokens.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ddlc.errors import DdlcError
from ddlc.frontend import slots as S
from ddlc.frontend.sql import fragment as Fr
from ddlc.frontend.sql import slotforms as F

from test_expand_check import TREES, _paths  # noqa: E402 - every fixture tree


def _at(tree, path):
    for k in path:
        tree = tree[k]
    return tree


_CLEAN_SLOTS = list(S._CLEAN_SLOTS.values())
_STRINGS = sorted({v for tree in TREES for p in _paths(tree) if p and isinstance(v := _at(tree, p), str)})

_PARTS = st.sampled_from(list("aZ_9$ \t\n\r\f\"'();,.-/*\\:+=&é\u00a0\u0131\x00") + [
    '""', "''", "--", "/*", "*/", "E'", "U&'", "$$", "$a$", "select", "BEGIN", "END", "begin", "end", "x.END",
    "1.", "CREATE", "\n/\n", "nextval(", "::regclass", ";"])
_TEXTS = st.lists(_PARTS, max_size=12).map("".join)


def _check_outcome(text: str, query: bool):
    try:
        Fr.check_fragment(text, ("x",), "expression", query=query, document="d")
        return None
    except DdlcError as e:
        return e.code, str(e), tuple(e.path), e.document


def _agrees_clean(text: str) -> None:
    for query in (False, True):
        Fr._CLEAN.clear()
        before = [_check_outcome(text, q) for q in (False, True)], Fr.has_comment(text)
        if Fr.clean_fragment(text, query):
            assert Fr.fragment_problem(text, query=query) is None, text
            assert Fr.comments(text) == (), text
            for slot, q in _CLEAN_SLOTS:
                if q == query:
                    assert S.verdict.__wrapped__(text, slot) == (None, False), (text, slot)
        after = [_check_outcome(text, q) for q in (False, True)], Fr.has_comment(text)
        assert after == before, text
    Fr._CLEAN.clear()


def _former_body(v: str) -> F.Verdict:
    """slotforms._body before the shortcut (round 8a)."""
    why, toks = F._code_scan(v)
    if why is None:
        words = [v[s:e].upper() for k, s, e in toks if v[s:e] != ";"]
        if not (words and words[0] == "BEGIN" and words[-1] == "END"):
            why = F._statements_problem(v, toks)
    return why, False


def _agrees_body(text: str) -> None:
    if F._plain_body(text):
        assert _former_body(text) == (None, False), text
    assert F._body(text) == _former_body(text), text


def test_clean_slots_are_the_fragment_forms():
    forms = {slot.forms[0][1] for slot, _ in _CLEAN_SLOTS}
    assert forms >= {"expression", "constraint", "query", "index", "identity", "partition", "text"}
    assert "literal" not in forms and "bound" not in forms


def test_fixture_strings() -> None:
    clean = bodies = 0
    for v in _STRINGS:
        _agrees_clean(v)
        _agrees_body(v)
        clean += Fr.clean_fragment(v)
        bodies += F._plain_body(v)
    Fr._CLEAN.clear()
    assert clean > len(_STRINGS) // 2 and bodies > len(_STRINGS) // 2


@settings(max_examples=3000, deadline=None)
@given(_TEXTS)
def test_hostile_texts(text: str) -> None:
    _agrees_clean(text)
    _agrees_body(text)


@settings(max_examples=1500, deadline=None)
@given(st.text(max_size=40))
def test_any_text(text: str) -> None:
    _agrees_clean(text)
    _agrees_body(text)


def test_learn_takes_a_clean_fragment_as_its_verdict() -> None:
    """_learn by the shortcut remembers what verdict would, for the slots' texts and the hostile ones."""
    texts = _STRINGS + ["(a", "a)", "a -- x", "'a", "x /* y */", "a; b", "select 1;", "$$x$$", "é + 1"]
    for slot, _ in _CLEAN_SLOTS:
        for v in texts:
            if v:
                assert S._learn(v, slot, {}, S.quick_of(slot)) == S.verdict.__wrapped__(v, slot), (v, slot)
    Fr._CLEAN.clear()
