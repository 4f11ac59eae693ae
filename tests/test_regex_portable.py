"""Every regular expression of the package matches the same on every Python it installs on (3.11 and newer).

CPython 3.11.0 to 3.11.4 match possessive quantifiers (``x*+``, ``x++``, ``x?+``, ``x{m,n}+``) wrongly: a
repeated subpattern that backtracks (gh-106052) or holds a negative lookahead (gh-100061) gives a wrong match or
none, and 3.11.5 fixed both. Debian 12's ``python3`` is 3.11.2: there, the lexer's dollar-quote pattern matched
nothing, and every CREATE FUNCTION with a ``$function$`` body was refused as "an unterminated quote". The
documentation defines ``x*+`` as the atomic group ``(?>x*)``, and atomic groups match correctly on those releases,
so the package writes atomic groups. These tests fail on a possessive quantifier anywhere the package keeps a
pattern."""

from __future__ import annotations

import importlib
import pkgutil
import re
import types
from re import _constants, _parser  # (the parser's own tree: what a pattern means, not how it is spelled)

import pytest

import ddlc
from ddlc import lazyre

_REPEATS = (_constants.MAX_REPEAT, _constants.MIN_REPEAT)


def _possessive(items) -> bool:
    """Whether a parsed pattern (``re._parser``'s tree) holds a possessive repeat anywhere."""
    for op, av in items:
        if op is _constants.POSSESSIVE_REPEAT:
            return True
        inner: list = []
        if op in _REPEATS:
            inner = [av[2]]
        elif op is _constants.SUBPATTERN:
            inner = [av[-1]]
        elif op is _constants.ATOMIC_GROUP:
            inner = [av]
        elif op is _constants.BRANCH:
            inner = list(av[1])
        elif op in (_constants.ASSERT, _constants.ASSERT_NOT):
            inner = [av[1]]
        elif op is _constants.GROUPREF_EXISTS:
            inner = [x for x in av[1:] if x is not None]
        if any(_possessive(x) for x in inner):
            return True
    return False


def _is_possessive(pattern: str | bytes, flags: int = 0) -> bool:
    try:
        return _possessive(_parser.parse(pattern, flags))
    except re.error:
        return False


def _modules() -> list[types.ModuleType]:
    out = []
    for info in pkgutil.walk_packages(ddlc.__path__, "ddlc."):
        if info.name.endswith("__main__"):
            continue
        out.append(importlib.import_module(info.name))
    return out


def _patterns(value, seen: set[int], depth: int = 0):
    """Patterns held by a module's globals, the classes it defines and the containers they hold."""
    if id(value) in seen or depth > 4:
        return
    seen.add(id(value))
    if isinstance(value, re.Pattern):
        yield value.pattern, value.flags
    elif isinstance(value, lazyre._Pattern):
        yield value._args
    elif isinstance(value, dict):
        for v in value.values():
            yield from _patterns(v, seen, depth + 1)
    elif isinstance(value, (tuple, list, set, frozenset)):
        for v in value:
            yield from _patterns(v, seen, depth + 1)
    elif isinstance(value, type) and value.__module__.startswith("ddlc"):
        for v in vars(value).values():
            yield from _patterns(v, seen, depth + 1)


def test_the_patterns_the_package_keeps_are_not_possessive():
    seen: set[int] = set()
    kept = [(m.__name__, p) for m in _modules() for v in list(vars(m).values())
            for p in _patterns(v, seen)]
    assert len(kept) > 150  # (the walk reaches the lexer's, the partition reader's, quoting's... patterns)
    bad = [(name, p[0][:80]) for name, p in kept if _is_possessive(*p)]
    assert not bad, f"possessive quantifiers (wrong on Python 3.11.0-3.11.4; write (?>x*) instead): {bad}"


def _constants_of(code: types.CodeType):
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            yield from _constants_of(c)
        elif isinstance(c, (str, bytes)):
            yield c


_LOOKS_LIKE_A_PATTERN = re.compile(r"[\[(\\]")  # (a class, a group or an escape: not an operator list)


def test_no_pattern_text_in_the_source_is_possessive():
    """The pieces the patterns are made of, as the source writes them (a pattern made in a function, or of
    f-string pieces, is seen here by its literal parts)."""
    bad = []
    for module in _modules():
        path = getattr(module, "__file__", "") or ""
        if not path.endswith(".py"):
            continue
        with open(path, encoding="utf-8") as f:
            code = compile(f.read(), path, "exec")
        for text in _constants_of(code):
            s = text if isinstance(text, str) else text.decode("latin-1")
            if _LOOKS_LIKE_A_PATTERN.search(s) and re.search(r"[*+?}]\+", s) and _is_possessive(text):
                bad.append((module.__name__, s[:80]))
    assert not bad, bad


def test_the_check_knows_a_possessive_pattern():
    assert _is_possessive(r"'[^']*+'") and _is_possessive(r"(?:a|b)++") and _is_possessive(r"(?:x(?!y)z{2}+)")
    assert not _is_possessive(r"'(?>[^']*)'") and not _is_possessive(r"a\++") and not _is_possessive(r"[*+]+")


@pytest.mark.parametrize("body", ["$function$ begin return a + 1; end $function$", "$$ select 1 $$",
                                  "$f$ select '$g$' $f$", "$_x1$ a $ b $_x $_x1$"])
def test_a_dollar_quoted_function_body_is_read(body):
    """The shape that 3.11.2 refused (a dollar quote read with possessive repeats around a lookahead)."""
    text = f"CREATE OR REPLACE FUNCTION public.add1(a integer)\n RETURNS integer\n LANGUAGE plpgsql\nAS {body};\n"
    out = ddlc.translate({"fmt": "%{function}s", "function": text}, target="postgres")
    assert out.error is None, out.error
    assert body in out.statements[0]


def _td_run(s: bytes, pos: int) -> int:
    """Where a test_decoding row's run from ``pos`` ends, by hand: plain bytes, '...' and "..." pieces; an
    unclosed quote ends it before the quote."""
    i, n = pos, len(s)
    while i < n:
        c = s[i:i + 1]
        if c in (b"'", b'"'):
            j = s.find(c, i + 1)
            if j < 0:
                return i
            i = j + 1
        else:
            i += 1
    return n


def _js_string_end(s: bytes, k: int) -> int | None:
    """The end of a cJSON string's body from ``k`` (at its closing quote, or where it cannot go on), and
    whether it closed: a backslash takes the next byte but a newline."""
    n = len(s)
    while k < n:
        c = s[k:k + 1]
        if c == b"\\":
            if k + 1 < n and s[k + 1:k + 2] != b"\n":
                k += 2
                continue
            return k
        if c == b'"':
            return k
        k += 1
    return k


def _js_run(s: bytes, pos: int) -> int:
    i, n = pos, len(s)
    while i < n:
        if s[i:i + 1] == b'"':
            k = _js_string_end(s, i + 1)
            if k >= n or s[k:k + 1] != b'"':
                return i
            i = k + 1
        else:
            i += 1
    return n


def test_the_decoding_row_patterns_read_as_by_hand():
    """streams_text's unrolled loops (7b04c59's atomic groups made the log reader 0.7 % slower; the unrolled
    form is as fast as the possessive one was) against the rules they stand for, at every start of every text
    of up to 5 bytes over the bytes that matter, and on longer random ones."""
    import itertools
    import random

    from ddlc.frontend import streams_text

    alphabet = [b"'", b'"', b"\\", b"a", b"\n", b" ", b"\xc3"]
    texts = [b"".join(t) for size in range(6) for t in itertools.product(alphabet, repeat=size)]
    rnd = random.Random(26)
    texts += [b"".join(rnd.choice(alphabet) for _ in range(rnd.randint(6, 60))) for _ in range(3000)]
    for s in texts:
        for pos in range(len(s) + 1):
            assert streams_text._TD_RUN.match(s, pos).end() == _td_run(s, pos), (s, pos)
            assert streams_text._JS_RUN.match(s, pos).end() == _js_run(s, pos), (s, pos)
            assert streams_text._JS_REST.match(s, pos).end() == _js_string_end(s, pos), (s, pos)
