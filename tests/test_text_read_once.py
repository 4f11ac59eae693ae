"""Issue 26, item 2: a TDDL text is read once. Its tokens are scanned once for every reader of it
(``frontend.sql.lexer.Lexed``), each template literal is lexed once (``frontend.text._pattern``), and the
matcher tries only the alternatives and ALTER subcommands that may start with the token at hand. Each of
these gives exactly what the reading it replaces gave: proven here on random texts and on every TDDL text
of the fixtures (and their truncations)."""

from __future__ import annotations

import json
from itertools import islice
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ddlc.frontend.sql.lexer import Lexed, ScanError, tokenize, tokens

ROOT = Path(__file__).resolve().parents[1]
SETTINGS = settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow], deadline=None)
# the characters the lexer turns on, and the blanks Python strips but the lexer does not (str.rstrip: _body_end)
SQLISH = st.lists(st.sampled_from(list("aZ_$9.e'E\"NxX-/*()[],;:+<>=|!% \t\n\\é\xa0\u3000\x1c") +
                                  ["--", "/*", "*/", "$$", "$a$", "''", ";", " ;", "; "]),
                  max_size=30).map("".join)
ANY_TEXT = st.text(max_size=60) | SQLISH


def _tokenize(text: str, end: int | None = None):
    try:
        return tokenize(text, 0, end)
    except ScanError as e:
        return ("error", str(e), e.pos)


def _upto(lx: Lexed, end: int | None = None):
    try:
        return lx.upto(end)
    except ScanError as e:
        return ("error", str(e), e.pos)


def _head(text: str, n: int):
    out = []
    try:
        out.extend(islice(tokens(text), n))
    except ScanError:
        pass
    return out


@SETTINGS
@given(ANY_TEXT, st.integers(0, 12), st.lists(st.integers(-1, 70), max_size=4))
def test_one_scan_answers_as_tokenize(text, n, ends):
    lx = Lexed(text)
    assert lx.head(n) == _head(text, n)  # the first tokens only, before the rest is scanned
    for end in ends:
        end = None if end < 0 else min(end, len(text))
        assert _upto(lx, end) == _tokenize(text, end)
        assert lx.head(n) == _head(text, n)


@SETTINGS
@given(ANY_TEXT)
def test_a_statement_body_has_the_tokens_of_its_text_cut_there(text):
    """``read_tree`` checks the tree read against the tokens of ``text[:end]`` (end: before the ``;``): they
    are the tokens the matcher read, those of ``text`` up to ``end``, whenever it could read them."""
    from ddlc.frontend.text import _body_end

    end = _body_end(text)
    got = _tokenize(text, end)
    if isinstance(got, list):
        assert tokenize(text[:end]) == got


@SETTINGS
@given(ANY_TEXT | SQLISH.map(lambda t: t.replace("$", "").replace("--", "-").replace("/*", "/")))
def test_canonical_forms_worked_out_as_canonicalize_does(text):
    from ddlc.frontend.text import _canonical
    from ddlc.quoting import canonicalize

    assert _canonical(text, {}) == canonicalize(text)


BLANKS = st.sampled_from([" ", "  ", "\t", "\n", " \r\n ", "\f", "\v"])
CHUNKS = st.lists(SQLISH.filter(bool), min_size=1, max_size=6)


@SETTINGS
@given(CHUNKS, st.data())
def test_texts_the_same_but_for_blank_runs_are_the_same_tokens(chunks, data):
    """``read_tree`` takes the tree read as proven when its expansion is the text but for blank runs outside
    quotes (no backslash, dollar sign or comment in either): then it is the same tokens, as the lexer reads it.
    Two texts of the same chunks joined by other blank runs (inside a quote of a chunk's, too)."""
    from ddlc.frontend.text import _same_blanks_aside

    def joined() -> str:
        seps = data.draw(st.lists(BLANKS, min_size=len(chunks) + 1, max_size=len(chunks) + 1))
        ends = data.draw(st.tuples(st.booleans(), st.booleans()))
        return (seps[0] if ends[0] else "") + "".join(c + s for c, s in zip(chunks, seps[1:]))[:None if ends[1] else -1]

    text, other = joined(), joined()
    if _same_blanks_aside(text, other, {}):
        a, b = _tokenize(text), _tokenize(other)
        if isinstance(a, list) and isinstance(b, list):
            assert [(t.kind, t.text) for t in a] == [(t.kind, t.text) for t in b]
        else:
            assert not isinstance(a, list) and not isinstance(b, list)


def _tddl_texts() -> list[str]:
    out = []
    for p in sorted((ROOT / "fixtures" / "cases").rglob("input.json")):
        doc = json.loads(p.read_text("utf-8"))
        if isinstance(doc, dict) and isinstance(doc.get("TDDL"), str):
            out.append(doc["TDDL"])
    for p in sorted((ROOT / "fixtures" / "cases").rglob("expected.gaussdb.sql")):
        out.extend(s.strip() + ";" for s in p.read_text("utf-8").split(";\n") if s.strip())
    return out


@pytest.fixture()
def unfiltered(monkeypatch):
    """The matcher as it was: every alternative and every spec of an ``Either`` tried at every token."""
    from ddlc.frontend.text import _dispatch, _match

    shapes, eithers, seen = [], [], set()

    def walk(spec):
        if id(spec) in seen:
            return
        seen.add(id(spec))
        if isinstance(spec, _match.Either):
            eithers.append(spec)
            for s in spec.specs:
                walk(s)
        if isinstance(spec, _match.Shape):
            shapes.append(spec)
            for s in spec.keys.values():
                walk(s)

    for _rx, shape in _dispatch():
        walk(shape)
    saved = [(s, s._plan) for s in shapes]
    saved_ix = [(e, e.__dict__.pop("_index", None)) for e in eithers]
    for s in shapes:
        s._plan = tuple(_unfilter(s.plan()))
    for e in eithers:
        object.__setattr__(e, "_index", ({}, e.specs))
    yield
    for s, p in saved:
        s._plan = p
    for e, ix in saved_ix:
        e.__dict__.pop("_index", None)
        if ix is not None:
            object.__setattr__(e, "_index", ix)


def _unfilter(alts):
    from ddlc.frontend.text._pattern import CHOICE

    out = []
    for steps, befores, _ in alts:
        steps = tuple((CHOICE, tuple(_unfilter(st_[1]))) if st_[0] == CHOICE else st_ for st_ in steps)
        out.append((steps, befores, None))
    return out


def _reads(texts):
    from ddlc.frontend.text import read_tree

    out = []
    for t in texts:
        tree, err = read_tree(t)
        out.append((tree, None if err is None else (err.message, err.pos)))
    return out


def test_the_first_token_filters_change_no_reading(request):
    texts = _tddl_texts()
    assert len(texts) > 150
    cuts = [t[:k] for t in texts[::7] for k in range(0, len(t), max(1, len(t) // 9))]  # misreadings too
    filtered = _reads(texts + cuts)
    request.getfixturevalue("unfiltered")
    assert _reads(texts + cuts) == filtered


@SETTINGS
@given(st.lists(st.sampled_from(["ALTER", "CREATE", "DROP", "COMMENT", "ON", "TABLE", "TYPE", "x", "(", "AS",
                                 "RENAME", "TO", "UPDATE", "DECLARE", "SCHEMA", "ALTERX", "", "OR", "REPLACE"]),
                max_size=8).map(" ".join))
def test_the_dispatch_by_first_word_keeps_every_pattern_that_matches(head):
    from ddlc.frontend.text import _candidates, _dispatch

    assert [e for e in _candidates(head) if e[0].match(head)] == [e for e in _dispatch() if e[0].match(head)]


def test_the_dispatch_by_first_word_on_the_fixtures():
    from ddlc.frontend.sql.lexer import Lexed
    from ddlc.frontend.text import _candidates, _dispatch, _head

    for text in _tddl_texts():
        head = _head(Lexed(text))
        assert [e for e in _candidates(head) if e[0].match(head)] == [e for e in _dispatch() if e[0].match(head)]
