"""Issue 26: the text frontend's canonical forms (``frontend/text._canonical``, used to see that two texts are
the same tokens but for blank runs) are :func:`ddlc.quoting.canonicalize`'s, worked out by it: no second
reading of quotes and blank runs. These tests keep the former reading (a non-possessive split at quotes) to
show that the answers are the same, and that hostile texts (long quotes that do not close, many doubled
quotes) cost work linear in their length."""

from __future__ import annotations

import itertools
import re
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from ddlc.frontend.text import _canonical, _same_blanks_aside
from ddlc.quoting import canonicalize

# --- the former reading (frontend/text/__init__.py before this change) ------------------------------------

_F_NOT_PLAIN = re.compile(r"\$|--|/\*")
_F_QUOTED = re.compile(r"('(?:[^']|'')*'|\"(?:[^\"]|\"\")*\")")
_F_BLANK_RUN = re.compile(r"[ \t\n\r\f\v]+")


def _former_plain(t: str) -> str | None:
    parts = _F_QUOTED.split(t)
    for k in range(0, len(parts), 2):
        p = parts[k]
        if "'" in p or '"' in p:
            return None
        parts[k] = _F_BLANK_RUN.sub(" ", p)
    return "".join(parts).strip(" ")


def _former(t: str) -> str:
    got = None if _F_NOT_PLAIN.search(t) else _former_plain(t)
    return got if got is not None else canonicalize(t)


# --- the same answers -------------------------------------------------------------------------------------

_PIECES = st.lists(st.sampled_from(["'", '"', "''", '""', " ", "  ", "\t", "\n", "\r\n", "\f", "\v", "\u00a0", "a",
                                    "select", "x'1'", "$", "$$", "$a$", "--", "/*", "*/", "\\", ";", "é"]),
                   max_size=30).map("".join)


@settings(max_examples=2000, deadline=None)
@given(_PIECES | st.text(max_size=40))
def test_canonical_as_the_former_reading(text: str) -> None:
    assert _canonical(text, {}) == _former(text) == canonicalize(text)


def test_canonical_as_the_former_reading_every_short_text() -> None:
    alphabet = ["'", '"', " ", "a", "\t", "\u00a0"]
    for n in range(7):
        for chars in itertools.product(alphabet, repeat=n):
            text = "".join(chars)
            assert _canonical(text, {}) == _former(text), text


def test_canonical_remembered_per_text() -> None:
    canon: dict[str, str] = {}
    assert _canonical("a  'b  c'\n d", canon) == "a 'b  c' d"
    assert canon == {"a  'b  c'\n d": "a 'b  c' d"}
    canon["x  y"] = "remembered"
    assert _canonical("x  y", canon) == "remembered"


# --- hostile texts: linear work ---------------------------------------------------------------------------

_HOSTILE = {
    "open quote, doubled quotes": lambda k: "'" + "''" * k,
    "open quote, spaced doubled quotes": lambda k: "'" + " ''" * k,
    "open name, doubled quotes": lambda k: '"' + '""' * k,
    "both, open": lambda k: "'" + "''" * k + ' "' + '""' * k,
    "alternating quotes": lambda k: "'\"" * k,
    "words and open quotes": lambda k: "x '" * k,
    "doubled quotes and blanks": lambda k: "a  'b''" * k,
    "name in an open string": lambda k: "\"'" + "'' " * k,
}


def _cost(text: str) -> float:
    best = float("inf")
    for _ in range(5):
        t0 = time.process_time()
        _canonical(text, {})
        best = min(best, time.process_time() - t0)
    return max(best, 1e-5)


def test_canonical_linear_on_hostile_texts() -> None:
    for name, make in _HOSTILE.items():
        small, large = make(20000), make(80000)
        assert _canonical(small, {}) == canonicalize(small), name
        ratio = _cost(large) / _cost(small)
        assert ratio < 10, (name, ratio)  # 4x the text: ~4x the work (quadratic would be ~16x)
        assert _cost(large) < 2.0, name


def test_same_blanks_aside_on_hostile_texts() -> None:
    text = "'" + "''" * 80000
    t0 = time.process_time()
    assert _same_blanks_aside(text, text + "  ", {}) is False  # the open quote keeps its blanks
    assert _same_blanks_aside("a  " + text, "a " + text, {}) is True
    assert time.process_time() - t0 < 2.0
