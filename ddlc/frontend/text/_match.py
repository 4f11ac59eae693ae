"""The template matcher: GaussDB text read back through the deparser's own ``fmt`` templates.

A TDDL statement is the canonical expansion of a JDDL tree (``canonical-form.md``): its words are
the ``fmt`` literals, and its names, types, literals and SQL fragments are the tree's values put
through ``%I``/``%D``/``%T``/``%L``/``%n``/``%s``. :func:`match` runs that expansion backwards: given
a :class:`Shape` (the ``fmt`` templates the deparser writes for one object, and what each
placeholder holds), it finds the tree whose expansion is the text.

Templates use the small pattern language of the ALTER readers (``frontend/build/alter_partitions``):
``[x]`` optional, ``{x|y}`` one of, ``x|y`` at the top level; the ``fmt`` of the tree is the text of
the branches taken. Matching works on the text's tokens (the SQL layer's lexer; blanks ignored, so a
clause left empty by the server, ``a int4 , b``, reads like any other) and is a chart parse: for a
template and a start token, every end token it can reach, each with the first tree (in template
order) that reaches it, memoized per (shape, start), so the work stays polynomial whatever the
ambiguity of SQL fragments. The caller checks the result: the tree must expand to the same tokens
as the text (``frontend/text/__init__.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import field
from decimal import Decimal
from typing import Any

from ...records import record
from ..sql.lexer import Lexed, Tok, string_value, tokenize
from . import _ends
from ._lazy import Chain, Span, reading as _reading, resolve
from ._pattern import CHOICE, LIT, SLOT, compile_pattern, first_fmt, literal_words, norm, plan

Value = Any
Results = dict[int, Value]  # end token index -> the first value that reaches it


class TextError(Exception):
    """The text does not read as any template; ``pos`` is the byte offset where reading stopped."""

    def __init__(self, message: str, pos: int) -> None:
        super().__init__(message)
        self.message = message
        self.pos = pos


# ---- value specs ---------------------------------------------------------------------------------
class Spec:
    """What a placeholder holds: ``read(m, i)`` gives the reachable ends and values."""

    def read(self, m: Matcher, i: int) -> Results:  # pragma: no cover - abstract
        raise NotImplementedError


@record(frozen=True)
class Ident(Spec):
    """``%I`` (or a bare name written with ``%s``): one name token, its value unquoted (``raw``: as written)."""

    raw: bool = False

    def read(self, m: Matcher, i: int) -> Results:
        t = m.tok(i)
        if t is None or t.kind not in ("word", "qident"):
            return {}
        if self.raw:
            return {i + 1: t.text}
        return {i + 1: t.text if t.kind == "word" else t.text[1:-1].replace('""', '"')}


def _name(t: Tok | None) -> str | None:
    if t is None or t.kind not in ("word", "qident"):
        return None
    return t.text if t.kind == "word" else t.text[1:-1].replace('""', '"')


@record(frozen=True)
class QName(Spec):
    """``%D``: ``[schema.]name[.attr]``."""

    parts: tuple[int, ...] = (2, 1, 3)

    def read(self, m: Matcher, i: int) -> Results:
        names: list[str] = []
        j = i
        out: Results = {}
        while len(names) < 3:
            n = _name(m.tok(j))
            if n is None:
                break
            names.append(n)
            j += 1
            ends = j
            if len(names) in self.parts:
                keys = {1: ("objname",), 2: ("schemaname", "objname"), 3: ("schemaname", "objname", "attrname")}
                out.setdefault(ends, dict(zip(keys[len(names)], names)))
            t = m.tok(j)
            if t is None or t.text != ".":
                break
            j += 1
        # prefer the longest reading
        return dict(sorted(out.items(), reverse=True))


_SPECIAL_TYPES = ("TIMESTAMP WITH TIME ZONE", "TIME WITH TIME ZONE", "TIMESTAMP", "TIME", "INTERVAL")
_ZONES = ("with time zone", "without time zone")


@record(frozen=True)
class TypeSpec(Spec):
    """``%T``: ``[schema.]name[typmod][[]]`` or an SQL-standard spelling (``TIMESTAMP(0) without time zone``)."""

    def read(self, m: Matcher, i: int) -> Results:
        out: Results = {}
        t = m.tok(i)
        if t is None:
            return out
        heads: list[tuple[int, dict[str, Any]]] = []
        if t.kind == "word" and t.text in ("TIMESTAMP", "TIME", "INTERVAL"):
            for sp in _SPECIAL_TYPES:
                words = sp.split()
                if [x.text if x else None for x in m.toks[i:i + len(words)]] == words:
                    heads.append((i + len(words), {"typename": sp, "schemaname": ""}))
                    break
        for end, v in QName((2, 1)).read(m, i).items():
            d = {"typename": v["objname"]}
            if "schemaname" in v:
                d["schemaname"] = v["schemaname"]
            heads.append((end, d))
        for end, d in heads:
            for j, typmod in self._typmods(m, end, d.get("schemaname") == ""):
                for k, arr in self._array(m, j):
                    out.setdefault(k, {"typmod": typmod, "typarray": arr, **d})
        return out

    @staticmethod
    def _typmods(m: Matcher, j: int, special: bool) -> list[tuple[int, str]]:
        opts: list[tuple[int, str]] = []
        k = j
        t = m.tok(j)
        if t is not None and t.text == "(":
            close = m.close(j)
            if close is not None:
                k = close + 1
        cands = [k] if k == j else [k, j]
        for c in cands:
            text = m.span(j, c) if c > j else ""
            if special:
                for z in _ZONES:
                    words = z.split()
                    if [x.text if x else None for x in m.toks[c:c + len(words)]] == words:
                        opts.append((c + len(words), (text + " " + z) if text else " " + z))
            opts.append((c, text))
        return opts

    @staticmethod
    def _array(m: Matcher, j: int) -> list[tuple[int, bool]]:
        a, b = m.tok(j), m.tok(j + 1)
        if a is not None and b is not None and a.text == "[" and b.text == "]":
            return [(j + 2, True), (j, False)]
        return [(j, False)]


@record(frozen=True)
class Literal(Spec):
    """``%L``: a quoted string (or dollar-quoted), its value."""

    def read(self, m: Matcher, i: int) -> Results:
        t = m.tok(i)
        if t is None or t.kind not in ("string", "dollar") or t.text[:1] not in ("'", "$"):
            return {}
        return {i + 1: string_value(t)}


@record(frozen=True)
class Number(Spec):
    """``%n``: a number (an int when it reads as one)."""

    def read(self, m: Matcher, i: int) -> Results:
        t = m.tok(i)
        sign = ""
        j = i
        if t is not None and t.text == "-":
            sign, j = "-", i + 1
            t = m.tok(j)
        if t is None or t.kind != "number":
            return {}
        s = sign + t.text
        exponent = t.text.lower().partition("e")[2].lstrip("+-").lstrip("0")
        if len(exponent) > 4 or int(exponent or "0") > 1000:  # numeric_in's range: no tree holds it (and
            return {}  # %n would print 9e999999999 as a billion digits)
        try:
            return {j + 1: int(s)}
        except ValueError:
            return {j + 1: Decimal(s)}


@record(frozen=True)
class Words(Spec):
    """``%s`` holding one of a few keyword phrases (``""`` allowed when listed); the value is the phrase."""

    choices: tuple[str, ...]

    def read(self, m: Matcher, i: int) -> Results:
        index = self.__dict__.get("_index") or self._by_first()
        out: Results = {}
        for c, words in index[0].get(m.norm(i), index[1]):  # those that may start with the token, in order
            if m._at(i, words):
                out.setdefault(i + len(words), c)
        return out

    def _by_first(self) -> tuple[dict[Any, tuple[tuple[str, Any], ...]], tuple[tuple[str, Any], ...]]:
        """The phrases (with their token meanings) by the meaning of their first token, in order, ``""``
        in each; and ``""`` alone, for any other token."""
        pairs = [(c, literal_words(c)) for c in self.choices]
        index = ({f: tuple(p for p in pairs if not p[1] or p[1][0] == f) for f in {w[0] for _, w in pairs if w}},
                 tuple(p for p in pairs if not p[1]))
        object.__setattr__(self, "_index", index)  # derived from the fields: not one of them
        return index


@record(frozen=True)
class Frag(Spec):
    """``%s`` holding an SQL fragment: a balanced run of tokens (its exact text is the value).

    ``stop``: tokens it never holds at its own depth (``,`` for a default in a column list);
    ``empty``: it may be empty (value ``""``); ``max_tokens``: at most this many tokens."""

    stop: tuple[str, ...] = ()
    empty: bool = False
    max_tokens: int = 0
    words: bool = False  # only bare words (a name or a keyword phrase)

    def read(self, m: Matcher, i: int, want: int | None = None) -> Results:
        """Every end from ``i``; ``want``: whether it reaches that one end (in constant time, for a
        fragment without stops or limits: a statement's last fragment is tried from every token)."""
        if want is not None and not (self.stop or self.words or self.max_tokens):
            return m.reach(i, want, self.empty)
        return self.scan(m, i)

    def scan(self, m: Matcher, i: int) -> Results:
        out: Results = {i: ""} if self.empty else {}
        depth = 0
        j = i
        while j < len(m.toks):
            t = m.toks[j]
            if self.max_tokens and j - i >= self.max_tokens:
                break
            if self.words and t.kind not in ("word", "qident"):
                break
            if t.kind == "punct" and t.text in "([":
                depth += 1
            elif t.kind == "punct" and t.text in ")]":
                if depth == 0:
                    break
                depth -= 1
            elif depth == 0 and t.text in self.stop:
                break
            j += 1
            if depth == 0:
                out[j] = Span(m.text, m.toks[i].start, m.toks[j - 1].end)
        return out


@record(frozen=True)
class Either(Spec):
    """One of several specs (the first that reaches an end gives its value)."""

    specs: tuple[Spec, ...]

    def read(self, m: Matcher, i: int) -> Results:
        index = self.__dict__.get("_index") or self._by_first()
        out: Results = {}
        for s in index[0].get(m.norm(i), index[1]):  # those that may start with the token, in order
            for j, v in s.read(m, i).items():
                out.setdefault(j, v)
        return out

    def _by_first(self) -> tuple[dict[tuple[str, str], tuple[Spec, ...]], tuple[Spec, ...]]:
        """For each token meaning some spec must start with, the specs that may start with it (in order); and
        those that may start with any token (an ALTER's hundred subcommands are tried by their first word)."""
        firsts = [_firsts(s) for s in self.specs]
        words = set().union(*(f for f in firsts if f is not None))
        index = ({w: tuple(s for s, f in zip(self.specs, firsts) if f is None or w in f) for w in words},
                 tuple(s for s, f in zip(self.specs, firsts) if f is None))
        object.__setattr__(self, "_index", index)  # derived from the fields: not one of them
        return index


@record(frozen=True)
class Rest(Spec):
    """Everything from here to the end of the text (its exact text), starting with ``first`` (a word)."""

    first: tuple[str, ...] = ()

    def read(self, m: Matcher, i: int) -> Results:
        t = m.tok(i)
        if t is None or (self.first and t.upper not in self.first):
            return {}
        return {len(m.toks): m.text[t.start:m.toks[-1].end]}


@record(frozen=True)
class Const(Spec):
    """Matches nothing and gives a fixed value (a member the template does not print)."""

    value: Any

    def read(self, m: Matcher, i: int) -> Results:
        return {i: self.value}


@record(frozen=True)
class Custom(Spec):
    """A reader written by hand: ``fn(m, i) -> Results``."""

    fn: Callable[[Matcher, int], Results]

    def read(self, m: Matcher, i: int) -> Results:
        return self.fn(m, i)


@record(eq=False)
class Shape(Spec):
    """A JDDL object: its templates (pattern language), what each placeholder holds, constant members.

    ``absent``: the object may be left out (``{"fmt": <first fmt>, "present": false}``, nothing printed).
    ``post``: a function that finishes the members read (derived members), or refuses them (None); it
    runs for every end the object may have, on members as read (fragments as :class:`Span`, arrays as
    :class:`Chain`). ``final``: a function that finishes a statement's tree once it is read whole
    (plain values), for the shape :func:`match` is given."""

    templates: str
    keys: Mapping[str, Spec] = field(default_factory=dict)
    extra: Mapping[str, Any] = field(default_factory=dict)
    absent: bool = False
    absent_fmt: str | None = None
    post: Callable[[dict[str, Any]], dict[str, Any] | None] | None = None
    final: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    _alts: list[list[Any]] | None = None
    _plan: tuple[Any, ...] | None = None
    _left_out: str | None = None  # the fmt of the object left out (``absent``)

    def alternatives(self) -> list[list[Any]]:
        if self._alts is None:
            self._alts = compile_pattern(self.templates)
        return self._alts

    def plan(self) -> tuple[Any, ...]:
        """The alternatives made ready to match (:func:`._pattern.plan`), once per shape."""
        if self._plan is None:
            self._plan = plan(self.alternatives(), lambda name, sep, conv: _slot(self, name, sep, conv))
        return self._plan

    def read(self, m: Matcher, i: int, want: int | None = None) -> Results:
        return m.shape(self, i, want)


_CONV: dict[str, Spec] = {"I": Ident(), "D": QName(), "T": TypeSpec(), "L": Literal(), "n": Number()}

def _slot(s: Shape, name: str, sep: str | None, conv: str) -> tuple[Any, ...]:
    """The planned step of a placeholder of ``s`` (see :func:`._pattern.plan`)."""
    # a key's spec is for %s; other conversions read their own form (``name%X`` overrides that)
    spec = s.keys.get(f"{name}%{conv}") or (s.keys.get(name) if conv == "s" else _CONV.get(conv))
    fmt = "%{" + name + (":" + sep if sep is not None else "") + "}" + conv
    return (SLOT, name, spec, fmt, None if sep is None else literal_words(sep), conv,
            isinstance(spec, Frag), isinstance(spec, Shape | Frag))


def _firsts(spec: Spec) -> frozenset[tuple[str, str]] | None:
    """What the first token ``spec`` reads may mean, when it must read one of a few (None: any token, or none)."""
    if isinstance(spec, Shape):
        if spec.absent:
            return None
        alts = [a[2] for a in spec.plan()]
        return None if any(a is None for a in alts) else frozenset().union(*alts)
    if isinstance(spec, Words):
        words = [literal_words(c) for c in spec.choices]
        return None if any(not w for w in words) else frozenset(w[0] for w in words)
    return None


class Matcher:
    """The tokens of one text and the memo of what each shape reaches from each token. ``text``: the
    text, or its tokens as read for every reader of it (:class:`~ddlc.frontend.sql.lexer.Lexed`)."""

    def __init__(self, text: str | Lexed, end: int | None = None) -> None:
        if isinstance(text, Lexed):
            self.text = text.text
            self.toks: list[Tok] = text.upto(end)
        else:
            self.text = text
            self.toks = tokenize(text, 0, end)
        self._memo: dict[tuple[int, ...], Results] = {}
        self._norms: list[tuple[str, str] | None] = [None] * len(self.toks)
        self._depths: dict[int, tuple[list[int], list[int]]] = {}
        self._fragix: tuple[list[int], list[int], dict[Any, Any]] | None = None
        self._closes: dict[int, int | None] = {}
        self.furthest = 0  # the furthest token a literal matched up to (for error positions)

    def tok(self, i: int) -> Tok | None:
        return self.toks[i] if 0 <= i < len(self.toks) else None

    def reach(self, i: int, want: int, empty: bool) -> Results:
        return _ends.reach(self, i, want, empty)

    def frag_ends(self, f: Frag, i: int, before: tuple[str, str]) -> Results:
        return _ends.frag_ends(self, f, i, before)

    def norm(self, i: int) -> tuple[str, str] | None:
        """:func:`norm` of token ``i`` (None past the end), worked out once per token."""
        if not 0 <= i < len(self.toks):
            return None
        got = self._norms[i]
        if got is None:
            got = self._norms[i] = norm(self.toks[i])
        return got

    def span(self, i: int, j: int) -> str:
        return self.text[self.toks[i].start:self.toks[j - 1].end] if j > i else ""

    def pos(self, i: int) -> int:
        return self.toks[i].start if i < len(self.toks) else (self.toks[-1].end if self.toks else 0)

    def close(self, i: int) -> int | None:
        if i not in self._closes:
            depth = 0
            res = None
            for k in range(i, len(self.toks)):
                t = self.toks[k]
                if t.kind == "punct" and t.text in "([":
                    depth += 1
                elif t.kind == "punct" and t.text in ")]":
                    depth -= 1
                    if depth == 0:
                        res = k
                        break
            self._closes[i] = res
        return self._closes[i]

    def lex(self, literal: str) -> tuple[tuple[str, str], ...]:
        """What the tokens of a template literal mean (:func:`._pattern.literal_words`)."""
        return literal_words(literal)

    def _at(self, i: int, words: tuple[tuple[str, str], ...]) -> bool:
        """Whether the tokens from ``i`` mean ``words``."""
        toks, norms = self.toks, self._norms
        if i + len(words) > len(toks):
            return False
        for k, w in enumerate(words):
            got = norms[i + k]
            if got is None:
                got = norms[i + k] = norm(toks[i + k])
            if got != w:
                return False
        return True

    # -- shapes ------------------------------------------------------------------------------------
    def shape(self, s: Shape, i: int, want: int | None = None) -> Results:
        """Every end ``s`` reaches from token ``i``, each with its tree; ``want``: only that end (the
        statement's, for :func:`match`: the trees of the others are never made)."""
        key = (id(s), i) if want is None else (id(s), i, want)
        got = self._memo.get(key)
        if got is not None:
            return got
        self._memo[key] = {}  # a shape that reaches itself without consuming: no reading
        out: Results = {}
        first = self.norm(i)
        for alt in s.plan():
            if alt[2] is not None and first not in alt[2]:  # it must start with another token
                continue
            for j, (vals, fmt) in self._seq(alt, i, want).items():
                if j in out:
                    continue
                obj = {"fmt": fmt, **s.extra, **vals}
                if s.post is not None:
                    obj = s.post(obj)
                    if obj is None:
                        continue
                out[j] = obj
        if s.absent and i not in out:
            if s._left_out is None:
                s._left_out = s.absent_fmt or first_fmt(s.alternatives())
            out[i] = {"fmt": s._left_out, "present": False}
        self._memo[key] = out
        return out

    def _seq(self, alt: tuple[Any, ...], i: int, want: int | None = None) -> dict[int, tuple[dict[str, Any], str]]:
        # a reading so far is a link to the reading it extends (members and fmt text are put together
        # only for the readings the sequence ends with: not copied at every piece, for every end)
        steps, befores, _ = alt
        states: dict[int, tuple[Any, dict[str, Any], str] | None] = {i: None}
        last = len(steps) - 1
        for k, step in enumerate(steps):
            nxt: dict[int, tuple[Any, dict[str, Any], str] | None] = {}
            if step[0] == LIT:  # a literal: the same tokens from each state
                words, fmt = step[2], step[1]
                n = len(words)
                for p, link in states.items():
                    if self._at(p, words):
                        j = p + n
                        if j > self.furthest:
                            self.furthest = j
                        if j not in nxt:
                            nxt[j] = (link, None, fmt)
            elif step[0] == SLOT and step[4] is None and (want is None or k != last):  # one value, every end
                _, name, spec, fmt, _, conv, is_frag, _ = step
                if spec is None:
                    raise KeyError(f"no value spec for %{{{name}}}{conv}")
                before = befores[k] if is_frag else None
                for p, link in states.items():
                    got = spec.read(self, p) if before is None else self.frag_ends(spec, p, before)
                    for j, v in got.items():
                        if j not in nxt:
                            nxt[j] = (link, (name, v), fmt)
            else:
                w, before = (want if k == last else None), befores[k]
                for p, link in states.items():
                    for j, (v2, f2) in self._piece(step, p, w, before).items():
                        if j not in nxt:
                            nxt[j] = (link, v2, f2)
            states = nxt
            if not states:
                break
        if want is not None:
            return {want: _reading(states[want])} if want in states else {}
        return {j: _reading(link) for j, link in states.items()}

    def _piece(self, step: tuple[Any, ...], i: int, want: int | None = None,
               before: tuple[str, str] | None = None) -> dict[int, tuple[Any, str]]:
        """end -> (what the step read: one member ``(name, value)`` or a dict of members; its fmt) for a
        choice or a placeholder; ``want``: that end only (the step ends the statement); ``before``: the
        next step is a literal starting with a token of that meaning (a fragment need only stop there)."""
        if step[0] == CHOICE:
            out: dict[int, tuple[dict[str, Any], str]] = {}
            first = self.norm(i)
            for alt in step[1]:
                if alt[2] is not None and first not in alt[2]:  # it must start with another token
                    continue
                for j, r in self._seq(alt, i, want).items():
                    out.setdefault(j, r)
            return out
        _, name, spec, fmt, sep_words, conv, is_frag, reads_one = step
        if spec is None:
            raise KeyError(f"no value spec for %{{{name}}}{conv}")
        if sep_words is None:  # a member is (name, value): a dict each would cost four times the memory
            if want is None:
                if before is not None and is_frag:
                    return {j: ((name, v), fmt) for j, v in self.frag_ends(spec, i, before).items()}
                return {j: ((name, v), fmt) for j, v in spec.read(self, i).items()}
            got = spec.read(self, i, want) if reads_one else spec.read(self, i)
            return {want: ((name, got[want]), fmt)} if want in got else {}
        # an array: one or more elements joined by sep
        out2: dict[int, tuple[dict[str, Any], str]] = {}
        frontier: dict[int, Chain] = {j: Chain(None, v) for j, v in spec.read(self, i).items()}
        while frontier:
            new: dict[int, Chain] = {}
            for j, items in frontier.items():
                if j in out2:
                    continue
                out2[j] = ((name, items), fmt)
                if not self._at(j, sep_words):
                    continue
                for e, v in spec.read(self, j + len(sep_words)).items():
                    if e > j and e not in out2 and e not in new:
                        new[e] = Chain(items, v)
            frontier = new
        if want is not None:
            return {want: out2[want]} if want in out2 else {}
        return out2


def match(shape: Shape, text: str, end: int | None = None) -> dict[str, Any]:
    """The tree ``shape`` reads from the whole of ``text[:end]`` (:class:`TextError` when none does)."""
    m = Matcher(text, end)
    got = m.shape(shape, 0, want=len(m.toks)).get(len(m.toks))
    if got is None:
        raise TextError("the text does not read as the statement's form", m.pos(m.furthest))
    tree = resolve(got)
    return shape.final(tree) if shape.final is not None else tree


__all__ = ["Shape", "Spec", "Ident", "QName", "TypeSpec", "Literal", "Number", "Words", "Frag", "Either", "Rest", "Const", "Custom",
           "Matcher", "TextError", "match", "norm", "compile_pattern", "Span", "Chain", "resolve"]
