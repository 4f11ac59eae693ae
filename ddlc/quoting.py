"""Identifier and literal quoting on the GaussDB/openGauss side, and canonical whitespace.

* :func:`quote_ident` is openGauss's ``quote_identifier`` (ruleutils): a name stays bare only if it
  matches ``[a-z_][a-z0-9_]*`` and is not a RESERVED, COL_NAME or TYPE_FUNC_NAME keyword of
  openGauss's ``kwlist.h`` (``ddlc/data/opengauss_keywords.tsv``).
* :func:`quote_literal` is the expander's ``%L``: ``'s'`` unless the string holds ``'`` or ``\\``,
  then a dollar quote whose tag grows through the cyclic suffix ``_XYZZYX_``.
* :func:`canonicalize` is canonical GaussDB text (``canonical-form.md``): blank runs collapsed to one
  space outside quotes and dollar-quoted bodies, ends trimmed. One addition to that definition: a
  ``-- comment`` keeps the line break that ends it (collapsing it would turn the code after the
  comment into comment), and ``/* ... */`` comments are kept verbatim.
"""

from __future__ import annotations

from functools import lru_cache
from . import lazyre

_SAFE = lazyre.compile(r"[a-z_][a-z0-9_]*\Z")


@lru_cache(maxsize=1)
def opengauss_keywords() -> dict[str, str]:
    """keyword -> category (RESERVED_KEYWORD, COL_NAME_KEYWORD, TYPE_FUNC_NAME_KEYWORD, UNRESERVED_KEYWORD)."""
    from importlib import resources  # lazily: ~6 ms of start-up

    text = resources.files("ddlc.data").joinpath("opengauss_keywords.tsv").read_text("utf-8")
    out: dict[str, str] = {}
    for line in text.splitlines()[1:]:
        if line:
            word, cat = line.split("\t")
            out[word] = cat
    return out


@lru_cache(maxsize=1)
def _forced() -> frozenset[str]:
    return frozenset(w for w, c in opengauss_keywords().items() if c != "UNRESERVED_KEYWORD")


_FORCED: frozenset[str] | None = None  # _forced(), kept once read (quote_ident is called per name written)


def _load_forced() -> frozenset[str]:
    global _FORCED
    _FORCED = _forced()
    return _FORCED


def ident_is_bare(name: str) -> bool:
    """True when openGauss writes ``name`` without quotes."""
    return _SAFE.match(name) is not None and name not in (_FORCED or _load_forced())


def quote_ident(name: str) -> str:
    # (an ASCII identifier with a lower-case letter and no capital is what _SAFE matches: three C tests decide
    # the common name without the regex; anything else, "_" or "_1" included, is the regex's to judge)
    if ((name.islower() and name.isascii() and name.isidentifier()) or _SAFE.match(name) is not None) \
            and name not in (_FORCED or _load_forced()):
        return name
    return '"' + name.replace('"', '""') + '"'


_SUFFIX = "_XYZZYX_"


def quote_literal(value: str) -> str:
    """The expander's ``%L``: never escapes, switches to dollar quoting instead."""
    if "'" not in value and "\\" not in value:
        return "'" + value + "'"
    tag = "$"
    i = 0
    while tag in value:
        tag += _SUFFIX[i % len(_SUFFIX)]
        i += 1
    tag += "$"
    return tag + value + tag


_WS = " \t\r\n\f\v"


def _is_ident_char(c: str) -> bool:
    return c.isalnum() or c == "_" or c == "$"


_DOLLAR_TAG = lazyre.compile(r"\$([^\x00-\x40\x5b-\x5e\x60\x7b-\x7f][^\x00-\x2f\x3a-\x40\x5b-\x5e\x60\x7b-\x7f]*)?\$")
_SPECIAL = lazyre.compile(r"['\"$\s]|--|/\*")


_NOT_PLAIN = lazyre.compile(r"\$|--|/\*")  # what canonicalize reads apart from quotes and blank runs
# a text whose every quote closes, as the scan reads quotes (a doubled quote inside is one character):
# atomic groups, so that one attempt is linear in the text
_CLOSED = lazyre.compile(r"(?>(?:(?>[^'\"]+)|'(?>(?:[^']|'')*)'|\"(?>(?:[^\"]|\"\")*)\")*)")
_QUOTED = lazyre.compile(r"('(?>(?:[^']|'')*)'|\"(?>(?:[^\"]|\"\")*)\")")
# a blank run (of _WS's characters: not \s, other blanks are kept as they are) that is not one space
_ODD_RUN = lazyre.compile(r"[\t\n\r\f\v](?>[ \t\n\r\f\v]*)| (?>[ \t\n\r\f\v]+)")  # (atomic: 3x faster, the same runs)


def canonicalize(text: str) -> str:
    """Collapse blank runs outside quotes/dollar bodies to one space and trim the ends."""
    if text.isascii():
        # The texts made canonical most: the space their only blank, no dollar quote, no comment (issue 26, round
        # 11). Each test is a search for one character first (memchr's), not a pass per character.
        if ("\n" in text or "\t" in text or "\r" in text or "\x0b" in text or "\x0c" in text or "$" in text
                or ("-" in text and "--" in text) or ("/" in text and "/*" in text)):
            got = _ascii(text)
        elif "'" in text or '"' in text:
            got = _spaced_quoted(text)
        else:
            while "  " in text:
                text = text.replace("  ", " ")
            return text.strip(" ")
        if got is not None:
            return got
    return _general(text)


def _spaced_quoted(text: str) -> str | None:
    """:func:`canonicalize` of an ASCII ``text`` that holds quotes, whose only blank is the space (its runs are
    ``"  "``'s), without ``$``, ``--`` or ``/*``; None when a quote does not close (:func:`_general` reads it).

    The quoted runs by splits in C: when the ``'`` and the ``"`` each pair off in order (an even count of each,
    no ``"`` between two paired ``'`` and no ``'`` between two paired ``"``), the runs :func:`_ascii_mixed`'s scan
    finds are those pairs (two pairs of one kind side by side: one run with a doubled quote inside), and their
    insides are the pieces between the pairs' quotes. No run of spaces in them: every run is outside quotes,
    folded in the whole text. Anything else (a quote inside a run of the other kind, a run of spaces inside
    quotes) is the scan's (tests/test_throughput_round11_glue.py compares both with :func:`_general`)."""
    if "'" not in text or '"' not in text:  # one kind: as _ascii_plain reads it (each quote opens or closes a run)
        q = "'" if "'" in text else '"'
        if "  " not in text:  # (no run anywhere: no piece made; an odd count is a quote that does not close)
            return None if text.count(q) & 1 else text.strip(" ")
        pieces = text.split(q)
        if not len(pieces) & 1:  # one that does not close
            return None
        inside = "".join(pieces[1::2])
    else:
        pieces = text.split("'")
        if not len(pieces) & 1:  # an odd count of ': inside a "..." run, or one that does not close
            return _scanned_quotes(text)
        inside = "".join(pieces[1::2])
        if '"' in inside:
            return _scanned_quotes(text)
        # the text with each '...' pair left as its bare ' (no " in them): the "..." pairs off alone
        pieces = "'".join(pieces[0::2]).split('"')
        if not len(pieces) & 1:
            return _scanned_quotes(text)
        inside_dq = "".join(pieces[1::2])
        if "'" in inside_dq:
            return _scanned_quotes(text)
        inside += inside_dq
    if "  " in inside:  # a run inside quotes, kept: the scan folds the pieces outside
        return _scanned_quotes(text)
    while "  " in text:
        text = text.replace("  ", " ")
    return text.strip(" ")


def _scanned_quotes(text: str) -> str | None:
    got = _ascii_mixed(text, True)
    return None if got is None else got.strip(" ")


def _general(text: str) -> str:
    """:func:`canonicalize` of any text: the regular expressions, and the scan where they cannot decide."""
    if _SPECIAL.search(text) is None:
        return text
    if _NOT_PLAIN.search(text) is None:  # no dollar quote, no comment: the blank runs outside quotes, by regex
        got = _plain(text)
        if got is not None:
            return got.strip(" ")
    else:
        got = _one_dollar_quote(text)
        if got is not None:
            return got
    return _scanned(text)


def _plain(text: str) -> str | None:
    """``text`` (no ``$``, ``--`` or ``/*`` in it) with its blank runs outside quotes made one space, its ends not
    trimmed; None when a quote does not close (the scan keeps the rest as it is)."""
    if "'" not in text and '"' not in text:
        return _ODD_RUN.sub(" ", text)
    if _CLOSED.fullmatch(text) is None:
        return None
    parts = _QUOTED.split(text)  # outside quotes, a quoted run, outside quotes, ...
    for k in range(0, len(parts), 2):
        parts[k] = _ODD_RUN.sub(" ", parts[k])
    return "".join(parts)


def _dollar_body(text: str) -> tuple[int, int] | None:
    """Where ``text``'s first dollar quote runs, from its opening tag to the end of its closing one, when the
    first ``$`` opens one (not inside a name) and it closes; None otherwise."""
    i = text.find("$")
    if i < 0 or (i > 0 and _is_ident_char(text[i - 1])):
        return None
    m = _DOLLAR_TAG.match(text, i)
    if m is None:
        return None
    tag = m.group(0)
    k = text.find(tag, m.end())
    return None if k < 0 else (i, k + len(tag))


def _one_dollar_quote(text: str) -> str | None:
    """:func:`canonicalize` of a text whose one dollar quote (a function's body) has plain text on each side (no
    other ``$``, no ``--`` or ``/*``, every quote closed before it): the sides by :func:`_plain`, the body as it
    is; None for any other text (the scan reads it)."""
    span = _dollar_body(text)
    if span is None:
        return None
    i, j = span
    before, after = text[:i], text[j:]
    if "$" in after or _NOT_PLAIN.search(before) is not None or _NOT_PLAIN.search(after) is not None:
        return None
    head, tail = _plain(before), _plain(after)
    if head is None or tail is None:
        return None
    return (head + text[i:j] + tail).strip(" ")


def _scanned(text: str) -> str:
    """:func:`canonicalize` by a scan of the characters (dollar quotes, comments, a quote that does not close)."""
    out: list[str] = []
    n = len(text)
    i = 0
    pending_space = False
    newline_needed = False
    while i < n:
        c = text[i]
        if c in _WS:
            pending_space = True
            i += 1
            continue
        if pending_space:
            if out:
                out.append("\n" if newline_needed else " ")
            pending_space = False
            newline_needed = False
        if c == "-" and text.startswith("--", i):
            # a line comment keeps its end of line, or it would swallow the code after it
            k = text.find("\n", i)
            j = n if k < 0 else k
            out.append(text[i:j])
            i = j
            newline_needed = k >= 0
            continue
        if c == "/" and text.startswith("/*", i):
            k = text.find("*/", i + 2)
            j = n if k < 0 else k + 2
            out.append(text[i:j])
            i = j
            continue
        if c == "'" or c == '"':
            j = i + 1
            while True:
                k = text.find(c, j)
                if k < 0:  # unterminated: keep the rest verbatim
                    j = n
                    break
                if k + 1 < n and text[k + 1] == c:
                    j = k + 2
                    continue
                j = k + 1
                break
            out.append(text[i:j])
            i = j
            continue
        if c == "$" and (i == 0 or not _is_ident_char(text[i - 1])):
            m = _DOLLAR_TAG.match(text, i)
            if m is not None:
                tag = m.group(0)
                k = text.find(tag, m.end())
                j = n if k < 0 else k + len(tag)
                out.append(text[i:j])
                i = j
                continue
        # plain run up to the next special character
        m = _SPECIAL.search(text, i + 1)
        j = n if m is None else m.start()
        out.append(text[i:j])
        i = j
    return "".join(out)


# -- canonical text by C string passes (issue 26, round 10) ------------------------------------------------------
# The texts made canonical most are expansions the server printed: ASCII, no comment, mostly no line break and no
# dollar quote. The regular expressions above stop at every character (~58k instructions for a 140-character
# statement); for those texts the runs are found by str.replace (the space the only blank) or str.split (a line
# break too), the quotes by str.split / str.find. Anything else (a comment, a control character str.split reads as
# a blank and canonicalize does not, a quote that does not close, a second dollar quote) is left to _general, so
# the result is always its result (tests/test_throughput_round10_glue.py compares both).

# _WS's blanks are " \t\r\n\f\v"; in ASCII, str.split's are those and these four: a text holding one goes to _general
_SPLIT_ONLY = ("\x1c", "\x1d", "\x1e", "\x1f")


def _ascii(text: str) -> str | None:
    """:func:`canonicalize` of an ASCII ``text`` by C string passes, or None where :func:`_general` must read it."""
    # printable ASCII: no blank but the space; otherwise the runs are str.split's, once the four it alone
    # reads as blanks are known to be absent
    printable = text.isprintable()
    if not printable and ("\x1c" in text or "\x1d" in text or "\x1e" in text or "\x1f" in text):
        return None
    if "$" in text:  # (a comment inside the body is the body's)
        got = _ascii_dollar_quote(text, printable)
    elif "--" in text or "/*" in text:
        return None
    else:
        got = _ascii_plain(text, printable)
    return None if got is None else got.strip(" ")


def _ascii_plain(text: str, printable: bool) -> str | None:
    """``text`` (ASCII, no ``$``, ``--`` or ``/*``) with each blank run outside quotes made one space, its ends
    not trimmed; None when a quote does not close."""
    if "'" in text:
        if '"' in text:
            return _ascii_mixed(text, printable)
        q = "'"
    elif '"' in text:
        q = '"'
    else:
        return _ascii_one_space(text) if printable else _ascii_blanks(text)
    # one kind of quote: each one opens or closes a quoted run (a doubled one closes and opens again), so the
    # pieces between them are outside, inside, outside...; an odd count of quotes is a quote left open
    if text.count(q) & 1:
        return None
    if printable and "  " not in text:  # no run anywhere (and no piece made: a text of many quotes stays linear)
        return text
    parts = text.split(q)
    inside = q.join(parts[1::2])
    if "  " in inside or not (printable or inside.isprintable()):  # a run inside quotes, kept: found one by one
        return _ascii_mixed(text, printable)
    return _ascii_one_space(text) if printable else _ascii_blanks(text)  # (every run is outside quotes: none holds a quote)


def _ascii_one_space(text: str) -> str:
    """``text`` (no blank but the space) with each run of spaces made one."""
    while "  " in text:
        text = text.replace("  ", " ")
    return text


def _ascii_blanks(text: str) -> str:
    """``text`` (ASCII, none of ``_SPLIT_ONLY``) with each blank run made one space, its ends too."""
    core = " ".join(text.split())
    if core == text:
        return text
    if not core:
        return " " if text else text
    if text[0].isspace():
        core = " " + core
    if text[-1].isspace():
        core += " "
    return core


def _ascii_mixed(text: str, printable: bool) -> str | None:
    """:func:`_plain` of a ``text`` that holds quotes: each quoted run kept (a doubled quote inside it is one
    character), the blank runs between them made one space."""
    runs = _ascii_one_space if printable else _ascii_blanks
    sq = text.find("'")
    dq = text.find('"')
    out = []
    pos = 0
    while True:
        if sq < 0:
            if dq < 0:
                out.append(runs(text[pos:]))
                break
            k = dq
        elif dq < 0 or sq < dq:
            k = sq
        else:
            k = dq
        q = text[k]
        out.append(runs(text[pos:k]))
        j = k + 1
        while True:
            e = text.find(q, j)
            if e < 0:  # a quote that does not close: canonicalize keeps the rest as it is
                return None
            j = e + 1
            if text.startswith(q, j):
                j += 1
                continue
            break
        out.append(text[k:j])
        pos = j
        if 0 <= sq < pos:  # (-1: none left after an earlier find; looking again would make it quadratic)
            sq = text.find("'", pos)
        if 0 <= dq < pos:
            dq = text.find('"', pos)
    return "".join(out)


def _ascii_dollar_quote(text: str, printable: bool) -> str | None:
    """As :func:`_one_dollar_quote`: a text whose one dollar quote (a routine's body) has plain text on each
    side, the sides by :func:`_plain` and the body as it is, the ends not trimmed; None for any other text."""
    span = _dollar_body(text)
    if span is None:
        return None
    i, j = span
    before, after = text[:i], text[j:]
    if "$" in after or "--" in before or "/*" in before or "--" in after or "/*" in after:
        return None
    head = _ascii_plain(before, printable)
    if head is None:
        return None
    tail = _ascii_plain(after, printable)
    if tail is None:
        return None
    return head + text[i:j] + tail
