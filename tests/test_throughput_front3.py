"""Issue 26, the front half's fixed cost of a short statement (round 7): each shortcut answers exactly as the
path it skips (kept here as the reference), over every fixture tree, every slot class and texts hypothesis
makes, errors included.

* a new name judged by one match (``slots.quick_of``) against the slot's verdict.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ddlc.frontend import slots as S
from ddlc.frontend.sql import slotforms as F

from test_expand_check import TREES, _paths  # noqa: E402 - every fixture tree


def _at(tree, path):
    for k in path:
        tree = tree[k]
    return tree


_SLOTS = list({id(s): s for node in S.NODES.values() for s in node.values()}.values()) + [S._GENERIC]
_QUICK_SLOTS = [s for s in _SLOTS if S.quick_of(s) is not None]

_PARTS = st.sampled_from(list("aZ_9$ \t\n\"'();,.-/*\\:+=é\u00a0\x00") + ['""', "--", "/*", "E'", "select", "DEFAULT",
                                                                           "CREATE", "BEGIN", "END", "COST 5"])
_TEXTS = st.lists(_PARTS, max_size=10).map("".join)
_NAME = st.from_regex(r'[A-Za-z_][A-Za-z0-9_]{0,8}|"[^"\'\\/\-\x00]{1,8}"', fullmatch=True)
_DOTTED = st.lists(_NAME, min_size=1, max_size=4).map(".".join)


def test_every_quick_form_is_met():
    """The shortcut has slots of both kinds, and most name and fragment slots have it."""
    matches = {S.quick_of(s) for s in _QUICK_SLOTS}
    assert matches == {F.QUICK_DOTTED.match, F.QUICK_NAME.match}
    assert len(_QUICK_SLOTS) > 10


def _agrees(text: str) -> None:
    for slot in _QUICK_SLOTS:
        if S.quick_of(slot)(text) is not None:
            assert S.verdict.__wrapped__(text, slot) == (None, False), (text, slot)


@settings(max_examples=1500, deadline=None)
@given(st.one_of(_TEXTS, _DOTTED, _NAME))
def test_a_quick_name_is_in_its_class(text: str) -> None:
    _agrees(text)


def test_quick_names_on_fixture_strings() -> None:
    strings = {v for tree in TREES for p in _paths(tree) if p and isinstance(v := _at(tree, p), str)}
    hits = 0
    for v in strings:
        _agrees(v)
        hits += F.QUICK_DOTTED.match(v) is not None
    assert hits > len(strings) // 4


# ---- the short statements' builders --------------------------------------------------------------------------
from ddlc.errors import DdlcError  # noqa: E402
from ddlc.frontend.build._read import BuildContext, Obj  # noqa: E402
from ddlc.frontend.build.comment import _read_literal_or_null, read_literal_or_null  # noqa: E402
from ddlc.frontend.build.drop import keyword  # noqa: E402


def _outcome(fn, *args):
    try:
        return "ok", fn(*args)
    except DdlcError as e:
        return e.code, str(e), tuple(e.path), e.document


def _former_keyword(o: Obj, name: str, word: str) -> bool:
    v = o.raw(name, "")
    if isinstance(v, dict) and v.get("present", True) is False:
        v = ""
    if not isinstance(v, str):
        raise o.ctx.error(f'element "{name}" must be a string', o.at(name))
    if v == "":
        return False
    if v == word:
        return True
    raise o.ctx.error(f'element "{name}" must be "" or "{word}", not {v!r}', o.at(name))


_MEMBER = st.one_of(st.sampled_from(["", "CASCADE", "cascade", " CASCADE", "IF EXISTS", None, 1, True, [],
                                     {"present": False}, {"present": True}, {"fmt": "CASCADE"}]), st.text(max_size=3))


@settings(max_examples=800, deadline=None)
@given(st.dictionaries(st.sampled_from(["cascade", "if_exists", "x"]), _MEMBER, max_size=3),
       st.sampled_from([("cascade", "CASCADE"), ("if_exists", "IF EXISTS")]))
def test_keyword_as_before(d: dict, member: tuple) -> None:
    o = Obj(d, ("p",), BuildContext("d"))
    assert _outcome(keyword, o, *member) == _outcome(_former_keyword, o, *member)


_PRESENT = st.sampled_from([True, False, None, "yes", 0, 1])
_PART = st.one_of(
    st.fixed_dictionaries({}, optional={"fmt": st.sampled_from(["NULL", "null", "", "%{value}L", "%{value}s", None]),
                                        "present": _PRESENT, "value": st.sampled_from(["a", "", "it's", None, 1])}),
    st.sampled_from(["", None, 1, []]))


@settings(max_examples=1500, deadline=None)
@given(st.fixed_dictionaries({}, optional={"fmt": st.sampled_from(["%{null}s %{literal}s", "%{null}s", None, 3]),
                                           "null": _PART, "literal": _PART}))
def test_literal_or_null_as_before(d: dict) -> None:
    o = Obj(d, ("comment",), BuildContext("d"))
    assert _outcome(read_literal_or_null, o) == _outcome(_read_literal_or_null, o)


def test_literal_or_null_forms_met() -> None:
    null = {"fmt": "NULL", "present": True}
    o = Obj({"fmt": "%{null}s %{literal}s", "null": null, "literal": {"fmt": "", "present": False}}, (), BuildContext())
    assert read_literal_or_null(o) is None
    lit = {"fmt": "%{value}L", "present": True, "value": "c"}
    o = Obj({"fmt": "%{null}s %{literal}s", "null": {**null, "present": False}, "literal": lit}, (), BuildContext())
    assert read_literal_or_null(o) == "c"


# ---- what build reads once per fmt ----------------------------------------------------------------------------
from ddlc.frontend import build as B  # noqa: E402
from ddlc.frontend.build.variants import unknown_keys  # noqa: E402
from test_expand_check import mutated  # noqa: E402

_TOP = [t for t in TREES if isinstance(t, dict) and isinstance(t.get("fmt"), str)]


def _keys_as_unknown_keys(tree: dict) -> bool:
    keys = B._fmt_entry(tree["fmt"])[2]
    return keys is B._ASK or keys == unknown_keys(tree)


def test_fmt_entry_answers_as_unknown_keys_on_fixtures() -> None:
    B.load_families()
    assert len(_TOP) > 100
    assert all(_keys_as_unknown_keys(t) for t in _TOP)
    assert sum(B._fmt_entry(t["fmt"])[2] is not B._ASK for t in _TOP) > len(_TOP) // 2


_ANY = st.one_of(st.text(max_size=4), st.just(""), st.none(), st.just({"present": False}), st.just(["x"]))


@settings(max_examples=600, deadline=None)
@given(st.data(), st.sampled_from(["x_extra", "if_exists", "cascade", "objtype", "name", "with", "comment"]), _ANY)
def test_fmt_entry_answers_as_unknown_keys_on_mutated_trees(data, key: str, value) -> None:
    B.load_families()
    tree = mutated(data, _ANY, _TOP, keep_fmt=True)
    tree[key] = value
    assert _keys_as_unknown_keys(tree)
