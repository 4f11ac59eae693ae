"""Trees from other GaussDB/openGauss versions: recognise a statement by its words and keys.

The deparser's top-level ``fmt`` differs between versions and between openGauss and GaussDB: an
optional specifier added (``ALTER %{objtype}s %{if_exists}s %{only}s ...``), a clause moved, keys
in GaussDB's spelling (``object_type`` for ``objtype``). A builder is written against the openGauss
form, so an unfamiliar ``fmt`` is first *normalized*: matched against the statement templates
below and rewritten into the template's form, the one the builders know.

Matching works on the tokens of ``fmt`` (literal words and specifiers; blanks do not count):

* keys are read in their canonical (openGauss) spelling (:data:`ddlc.jddl.keys.ALIASES`);
* a specifier whose value expands to nothing (``""``, an object with ``"present": false``, an
  array with no present element, under ``%s``) is left out on both sides: it says nothing, wherever
  it stands and whatever its name;
* a template slot marked optional (``%{only}s?``) may be absent from ``fmt``;
* ``⟦...⟧`` is an optional clause (literal words with their slots), ``⟪⟦a⟧⟦b⟧⟫`` a run of
  optional clauses the grammar takes in any order.

A tree is *recognised* as a template's statement when its literal words start with the template's
leading keywords (those before the first required slot) and it carries every required key. A
recognised tree whose non-empty keys the template family does not know is reported by key
(:data:`N_UNKNOWN_KEY`) and kept as text by the caller, never built with the key dropped.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from typing import Any

from ...records import record
from ...diagnostics import Severity, register
from ...jddl.formats import BACKFILL_BLOCK
from ...jddl.keys import ALIASES, CANONICAL as _KEYS
from ... import lazyre

N_UNKNOWN_KEY = register(
    "DDLC-N003", Severity.NOTE, "Unknown key in a recognised statement",
    "The tree's `fmt` starts like a statement ddlc models (its leading keywords and keys), but one of "
    "its specifiers names a key, with a non-empty value, that no known form of that statement has (a "
    "clause of another GaussDB/openGauss version). ddlc does not guess what it means: the statement "
    "is kept as text, and this note names the key. An empty value (`\"\"`, `{\"present\": false}`) "
    "under an unknown key is accepted silently, since it prints nothing.",
    '{"fmt": "DROP %{objtype}s %{if_exists}s %{objidentity}s %{cascade}s %{purge}s", "objtype": "table", '
    '"if_exists": "", "objidentity": "public.t", "cascade": "", "purge": "PURGE"}',
)

# spelling -> canonical (openGauss) key
CANONICAL: dict[str, str] = _KEYS

# ---- fmt tokens --------------------------------------------------------------------------------
_TOKEN = lazyre.compile(r"(\s*)(%%|%\{[^}]*\}[A-Za-z]\??|⟦|⟧|⟪|⟫|%|[^\s%⟦⟧⟪⟫]+)")


@record(frozen=True, slots=True)
class Spec:
    key: str  # canonical spelling
    sep: str  # ":, " or ""
    conv: str


def _spec(text: str) -> Spec:
    inner = text[2:text.index("}")]
    colon = inner.find(":")
    name, sep = (inner, "") if colon < 0 else (inner[:colon], inner[colon:])
    return Spec(CANONICAL.get(name, name), sep, text[text.index("}") + 1])


def fmt_tokens(fmt: str) -> list[str | Spec]:
    """The tokens of a ``fmt``: literal words (blanks dropped) and specifiers (canonical keys)."""
    out: list[str | Spec] = []
    for m in _TOKEN.finditer(fmt):
        tok = m.group(2)
        out.append(_spec(tok) if tok.startswith("%{") else tok)
    return out


def is_empty(spec: Spec, value: Any) -> bool:
    """True when ``value`` under ``spec`` expands to nothing."""
    if spec.conv != "s":
        return False
    if value == "":
        return True
    if isinstance(value, dict):
        return value.get("present", True) is False
    if isinstance(value, list):
        return all(isinstance(e, dict) and e.get("present", True) is False for e in value)
    return False


def _value(tree: Mapping[str, Any], key: str) -> Any:
    for k in ALIASES.get(key, (key,)):
        if k in tree:
            return tree[k]
    return _ABSENT


_ABSENT: Any = object()


# ---- templates ---------------------------------------------------------------------------------
@record(frozen=True, slots=True)
class Lit:
    text: str
    ws: str


@record(frozen=True, slots=True)
class Slot:
    spec: Spec
    raw: str  # as written in the template, without the ``?``
    ws: str
    optional: bool


@record(frozen=True, slots=True)
class Group:
    items: tuple[Any, ...]
    ws: str
    tail: str  # blanks before the closing mark
    gid: int


@record(frozen=True, slots=True)
class Free:
    groups: tuple[Group, ...]


_OPENS = ("⟦", "⟪")
_CLOSES = ("⟧", "⟫")


def _parse(source: str) -> tuple[Any, ...]:
    """The items of a template's source (see :class:`Template`)."""
    counter = iter(range(1 << 30))
    stack: list[list[Any]] = [[]]
    opens: list[tuple[str, str]] = []
    for m in _TOKEN.finditer(source):
        ws, tok = m.group(1), m.group(2)
        if tok in _OPENS:
            stack.append([])
            opens.append((tok, ws))
        elif tok == "⟧":
            items = stack.pop()
            _, open_ws = opens.pop()
            stack[-1].append(Group(tuple(items), open_ws, ws, next(counter)))
        elif tok == "⟫":
            items = stack.pop()
            opens.pop()
            stack[-1].append(Free(tuple(items)))
        elif tok.startswith("%{"):
            opt = tok.endswith("?")
            raw = tok[:-1] if opt else tok
            stack[-1].append(Slot(_spec(raw), raw, ws, opt))
        else:
            stack[-1].append(Lit(tok, ws))
    return tuple(stack[0])


class Template:
    """One statement form: its builder's ``fmt`` with optional parts marked (see the module doc).

    Made at import for every form, it reads only what recognising a tree needs (``lead``, ``required``,
    ``keys``: one pass over the tokens, no object per token); the form's tree of literals, slots and
    clauses (``items``), which matching and rewriting walk, is parsed when first used: a tree in the form
    its builder knows never needs it."""

    __slots__ = ("kind", "source", "_items", "lead", "required", "keys", "trailing")

    def __init__(self, kind: str, source: str) -> None:
        self.kind = kind
        self.source = source
        self._items: tuple[Any, ...] | None = None
        self.trailing = source[len(source.rstrip()):]
        lead: list[str] = []
        required: set[str] = set()
        keys: set[str] = set()
        depth = 0
        leading = True  # still in the leading keywords: literal words and optional slots at the top level
        for _ws, tok in _TOKEN.findall(source):
            if tok in _OPENS:
                depth += 1
                leading = False
            elif tok in _CLOSES:
                depth -= 1
            elif tok.startswith("%{"):
                name = tok[2:tok.index("}")].split(":", 1)[0]
                key = CANONICAL.get(name, name)
                keys.add(key)
                if not depth and not tok.endswith("?"):
                    required.add(key)
                    leading = False
            elif leading:
                lead.append(tok)
        self.lead = tuple(lead)
        self.required = frozenset(required)
        self.keys = frozenset(keys)

    @property
    def items(self) -> tuple[Any, ...]:
        """The form's literals (:class:`Lit`), slots (:class:`Slot`) and optional clauses (:class:`Group`,
        :class:`Free`), in order."""
        items = self._items
        if items is None:
            items = self._items = _parse(self.source)
        return items

    def recognises(self, words: tuple[str, ...], referenced: frozenset[str]) -> bool:
        return words[: len(self.lead)] == self.lead and self.required <= referenced

    def match(self, toks: list[str | Spec], referenced: frozenset[str],
              nonempty: frozenset[str]) -> frozenset[int] | None:
        """The optional clauses chosen when ``toks`` (empty specifiers left out) is this template."""
        for j, chosen in self._m(self.items, 0, toks, 0, frozenset(), referenced, nonempty):
            if j == len(toks):
                return chosen
        return None

    def _m(self, items: tuple[Any, ...], i: int, toks: list[str | Spec], j: int, chosen: frozenset[int],
           referenced: frozenset[str], nonempty: frozenset[str]) -> Iterator[tuple[int, frozenset[int]]]:
        if i == len(items):
            yield j, chosen
            return
        it = items[i]
        if isinstance(it, Lit):
            if j < len(toks) and toks[j] == it.text:
                yield from self._m(items, i + 1, toks, j + 1, chosen, referenced, nonempty)
        elif isinstance(it, Slot):
            if j < len(toks) and toks[j] == it.spec:
                yield from self._m(items, i + 1, toks, j + 1, chosen, referenced, nonempty)
            if it.spec.key not in nonempty and (it.optional or it.spec.key in referenced):
                yield from self._m(items, i + 1, toks, j, chosen, referenced, nonempty)
        elif isinstance(it, Group):
            # left out first: a clause is chosen only when the tree has it
            yield from self._m(items, i + 1, toks, j, chosen, referenced, nonempty)
            rest = it.items + items[i + 1:]
            yield from self._m(rest, 0, toks, j, chosen | {it.gid}, referenced, nonempty)
        elif isinstance(it, Free):
            yield from self._m(items, i + 1, toks, j, chosen, referenced, nonempty)
            for g in it.groups:
                if g.gid in chosen:
                    continue
                rest = g.items + (it,) + items[i + 1:]
                yield from self._m(rest, 0, toks, j, chosen | {g.gid}, referenced, nonempty)

    def render(self, chosen: frozenset[int]) -> tuple[str, dict[str, str], set[str]]:
        """The ``fmt`` of the chosen form, the keys it names (canonical -> as the template spells it)
        and the keys of the clauses left out."""
        named: dict[str, str] = {}
        dropped: set[str] = set()

        def keys_of(items: tuple[Any, ...]) -> Iterator[str]:
            for it in items:
                if isinstance(it, Slot):
                    yield it.spec.key
                elif isinstance(it, Group):
                    yield from keys_of(it.items)
                elif isinstance(it, Free):
                    yield from keys_of(it.groups)

        def out(items: tuple[Any, ...]) -> str:
            parts = []
            for it in items:
                if isinstance(it, Lit):
                    parts.append(it.ws + it.text)
                elif isinstance(it, Slot):
                    named[it.spec.key] = it.raw[2:it.raw.index("}")].split(":", 1)[0]
                    parts.append(it.ws + it.raw)
                elif isinstance(it, Group):
                    if it.gid in chosen:
                        parts.append(it.ws + out(it.items) + it.tail)
                    else:
                        dropped.update(keys_of(it.items))
                elif isinstance(it, Free):
                    parts.append(out(it.groups))
            return "".join(parts)

        text = out(self.items)
        return text.lstrip() + self.trailing, named, dropped - named.keys()



# ---- the statement forms the builders know (openGauss spelling; reference §5) --------------------
_EVENT_SCHEDULE = (
    "⟦ON SCHEDULE⟦ EVERY %{every_interval}s⟧⟦ STARTS '%{start_expr}s'⟧⟦ AT '%{start_expr}s'⟧"
    "⟦ ENDS '%{end_expr}s'⟧ ⟧"
)
_BACKFILL = BACKFILL_BLOCK  # §5.3: the AUTO_INCREMENT backfill block, literal but for its keys
TEMPLATES: tuple[Template, ...] = tuple(Template(kind, src) for kind, src in (
    ("CREATE TABLE",
     "CREATE %{persistence}s? TABLE %{if_not_exists}s? %{identity}D⟦ OF %{of_type}T⟧⟦ %{table_elements}s⟧"
     "⟦ %{inherits}s?⟧⟦ AUTO_INCREMENT = %{autoincstart}n⟧⟦ AUTO_INCREMENT = %{autoincstart}s⟧"
     "⟦ WITH (%{with:, }s)⟧⟦ %{with_clause}s⟧⟦ %{on_commit}s⟧⟦ TABLESPACE %{tablespace}I⟧⟦ %{compression}s⟧"
     "⟦ %{options:, }s⟧⟦ %{distribute_by}s⟧⟦ %{partition_by}s⟧"),
    ("CREATE INDEX",
     "CREATE %{unique}s? INDEX %{concurrently}s? %{name}I ON %{table}D USING %{index_am}s %{definition}s"
     "⟦ WITH (%{opts}s)⟧⟦ TABLESPACE %{tablespace}s⟧⟦ INVISIBLE⟧⟦ WHERE %{where}s⟧"),
    ("DROP", "DROP %{objtype}s %{concurrently}s? %{if_exists}s? %{objidentity}s %{cascade}s?"),
    ("ALTER", "ALTER %{objtype}s⟦ %{if_exists}s⟧ %{only}s? %{identity}D %{subcmds:, }s"),
    ("ALTER", "ALTER TABLE %{only}s? %{identity}D %{subcmds:, }s"),
    ("ALTER", "ALTER TABLE %{only}s? %{identity}D ALTER COLUMN %{name}I SET NOT NULL"),
    ("DECLARE", _BACKFILL),
    ("UPDATE", "UPDATE %{identity}D SET %{name}I = %{default}s WHERE %{name}I IS NULL"),
    ("CREATE SEQUENCE", "CREATE %{persistence}s? %{large}s? SEQUENCE %{identity}D %{definition: }s"),
    ("ALTER SEQUENCE", "ALTER %{large}s? SEQUENCE %{identity}D %{definition: }s"),
    ("CREATE VIEW", "CREATE %{or_replace}s? %{persistence}s? VIEW %{identity}D AS %{query}s"),
    ("CREATE FUNCTION", "%{function}s"),
    ("CREATE FUNCTION",
     "CREATE %{or_replace}s? FUNCTION %{signature}s RETURNS %{return_type}T LANGUAGE %{language}I"
     "⟪⟦ %{volatility}s?⟧⟦ %{strict}s?⟧⟦ %{security_definer}s?⟧⟦ %{leakproof}s?⟧⟦ %{cost}s?⟧⟦ %{rows}s?⟧⟫"
     " AS %{definition}L"),
    ("ALTER FUNCTION", "ALTER FUNCTION %{signature}s %{definition: }s"),
    ("ALTER FUNCTION", "ALTER PROCEDURE %{signature}s %{definition: }s"),
    ("CREATE TRIGGER",
     "CREATE %{definer}s? %{constraint}s? TRIGGER %{if_not_exists}s? %{name}I %{time}s %{events: OR }s ON %{relation}D"
     " %{from_table}s?⟦ %{constraint_attrs: }s⟧ FOR EACH %{for_each}s %{when}s?⟦ EXECUTE PROCEDURE %{function}s⟧"
     " %{bodysrc}s?"),
    ("CREATE SCHEMA", "CREATE SCHEMA %{if_not_exists}s? %{name}I %{authorization}s? %{blockchain}s?"),
    ("ALTER SCHEMA", "ALTER SCHEMA %{schemaname}I %{with}s BLOCKCHAIN"),
    ("ALTER SCHEMA", "ALTER SCHEMA %{schemaname}I CHARACTER SET = %{charset}s COLLATE = %{collate}s"),
    ("ALTER SCHEMA", "ALTER SCHEMA %{identity}I RENAME TO %{newname}I"),
    ("COMMENT", "COMMENT ON %{objtype}s %{identity}s IS %{comment}s"),
    ("COMMENT", "COMMENT ON CONSTRAINT %{identity}s ON %{domain}s? %{parentobj}s IS %{comment}s"),
    ("RENAME", "ALTER %{objtype}s %{if_exists}s? %{identity}D RENAME TO %{newname}I"),
    ("RENAME", "ALTER %{objtype}s %{if_exists}s? %{identity}D RENAME COLUMN %{colname}I TO %{newname}I"),
    ("RENAME", "ALTER TYPE %{identity}D RENAME ATTRIBUTE %{colname}I TO %{newname}I %{cascade}s?"),
    ("RENAME", "ALTER TABLE %{identity}D RENAME CONSTRAINT %{oldname}I TO %{newname}I"),
    ("RENAME", "ALTER TYPE %{identity}D RENAME TO %{newname}I"),
    ("RENAME", "RENAME TABLE %{renamelist:, }s"),
    ("SET SCHEMA", "ALTER %{objtype}s %{identity}s SET SCHEMA %{newschema}I"),
    ("CREATE TYPE", "CREATE TYPE %{identity}D AS (%{columns:, }s)"),
    ("CREATE TYPE", "CREATE TYPE %{identity}D AS ENUM (%{values:, }L)"),
    ("CREATE EVENT",
     "CREATE %{definer_opt}s? EVENT %{if_not_exits}s? %{schema}s.%{eventname}s ON SCHEDULE⟦ EVERY %{every_interval}s⟧"
     " STARTS '%{start_expr}s'⟦ ENDS '%{end_expr}s'⟧ %{event_body}s"),
    ("ALTER EVENT",
     "ALTER %{definer_opt}s? EVENT %{schema}s.%{eventname}s " + _EVENT_SCHEDULE
     + "⟦ON COMPLETION PRESERVE ⟧⟦ON COMPLETION NOT PRESERVE ⟧⟦RENAME TO %{new_name}s ⟧⟦ENABLE ⟧⟦DISABLE ⟧"
     "⟦DISABLE ON SLAVE ⟧⟦COMMENT '%{comment}s' ⟧⟦DO %{action}s ⟧"),
    ("DROP EVENT", "DROP EVENT %{if_exists}s? %{schema}s.%{eventname}s"),
    ("NEWPUB", "NEWPUB %{objtype}s %{identity}D"),
))


@record(frozen=True, slots=True)
class Reading:
    """What :func:`normalize` made of a tree: the kind recognised, and either the tree rewritten
    into a known form (``tree``) or the non-empty keys no form of that kind has (``unknown``)."""

    kind: str
    tree: dict[str, Any] | None
    unknown: tuple[str, ...] = ()
    template: str | None = None


@record(frozen=True, slots=True)
class _FmtInfo:
    toks: tuple[str | Spec, ...]
    specs: tuple[Spec, ...]
    referenced: frozenset[str]
    recognising: tuple[Template, ...]
    kind: str | None
    strangers: tuple[Spec, ...]  # specifiers whose key no form of the recognised kind has


@functools.lru_cache(maxsize=4096)  # a stream repeats a few hundred fmt strings
def _info(fmt: str) -> _FmtInfo:
    toks = tuple(fmt_tokens(fmt))
    specs = tuple(t for t in toks if isinstance(t, Spec))
    referenced = frozenset(s.key for s in specs)
    words = tuple(t for t in toks if isinstance(t, str))
    recognising = tuple(t for t in TEMPLATES if t.recognises(words, referenced))
    kinds = {t.kind for t in recognising}
    known = frozenset().union(*(t.keys for t in TEMPLATES if t.kind in kinds))
    strangers = tuple(s for s in specs if s.key not in known) if recognising else ()
    return _FmtInfo(toks, specs, referenced, recognising, recognising[0].kind if recognising else None, strangers)


def unknown_keys(tree: Mapping[str, Any]) -> tuple[str | None, tuple[str, ...]]:
    """The kind ``tree`` is recognised as, and its non-empty keys no form of that kind has."""
    fmt = tree.get("fmt")
    if not isinstance(fmt, str):
        return None, ()
    info = _info(fmt)
    if not info.strangers:  # the common case: every key of the fmt is one of its kind's
        return info.kind, ()
    spelled = {CANONICAL.get(k, k): k for k in tree}
    keys = sorted({spelled.get(s.key, s.key) for s in info.strangers if not is_empty(s, _value(tree, s.key))})
    return info.kind, tuple(keys)


def normalize(tree: Mapping[str, Any]) -> Reading | None:
    """Read ``tree``'s top-level ``fmt`` against :data:`TEMPLATES` (None: no statement recognised)."""
    fmt = tree.get("fmt")
    if not isinstance(fmt, str):
        return None
    info = _info(fmt)
    if not info.recognising:
        return None
    kind, unknown = unknown_keys(tree)
    if unknown:
        return Reading(info.kind or "", None, unknown)
    nonempty = frozenset(s.key for s in info.specs if not is_empty(s, _value(tree, s.key)))
    reduced = [t for t in info.toks if isinstance(t, str) or t.key in nonempty]
    for t in info.recognising:
        chosen = t.match(reduced, info.referenced, nonempty)
        if chosen is not None:
            return Reading(t.kind, _rewrite(tree, t, chosen, info.referenced), template=t.source)
    return Reading(info.kind or "", None)


def _rewrite(tree: Mapping[str, Any], t: Template, chosen: frozenset[int], referenced: frozenset[str]) -> dict[str, Any]:
    fmt, named, dropped = t.render(chosen)
    mentioned = named.keys() | dropped | referenced
    out: dict[str, Any] = {}
    for k, v in tree.items():
        ck = CANONICAL.get(k, k)
        if ck not in mentioned:
            out[k] = v  # not a slot of the statement (myowner, metadata): kept as it is
        elif ck in named and ck in referenced:
            out[named[ck]] = v  # under the template's spelling
    for k in named.keys() - referenced:
        out[named[k]] = ""  # a slot the tree's form does not have: empty, as the deparser leaves it
    out["fmt"] = fmt
    return out
