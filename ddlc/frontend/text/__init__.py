"""The text frontend: GaussDB's DDL text (TDDL) -> the typed IR the tree builders make.

GaussDB prints a DDL statement as text (``{"TDDL": "..."}``) when JSON output is off. That text is
the canonical expansion of the JDDL tree the database built (``canonical-form.md``), so it is read
back through the deparser's own templates: each family module here (named after its
``frontend/build/`` counterpart) declares the ``fmt`` templates of its statements and what their
placeholders hold (:mod:`._match`), the matcher finds the tree whose expansion is the text, and the
family's builder (``frontend/build/``) makes the IR from it, so a statement read from text and the
same statement read from its tree are one IR, through one builder (SQL fragments parsed once, by the
SQL layer, as for trees). Every tree is checked before it is built: its expansion must be the text,
token for token (blank runs aside, names and strings compared by value), so a misreading cannot
pass as a translation.

Statement kinds with no tree (packages, materialized views, TRUNCATE, REINDEX, GRANT, CREATE TABLE AS,
LARGE SEQUENCE...) are read by :mod:`ddlc.frontend.recover`. A statement nothing reads stays text
(an :class:`~ddlc.ir.statement.Opaque`): the GaussDB target prints it, other targets report it with
DDLC-N404 (with the byte offset where reading stopped) or DDLC-N405, never silently.
"""

from __future__ import annotations

import importlib
import re
from typing import Any

from ...diagnostics import Diagnostic
from ...ir.statement import Opaque, OpaqueReason, Statement
from ...jddl.expand import expand
from ...quoting import canonicalize
from ..build import build
from ..build._read import BuildContext
from ..recover import N_TDDL_UNPARSED, query_span, recover_tddl, recovers
from ..tddl_text import text_kind
from ..sql.lexer import Lexed, ScanError, Tok, tokenize
from ._match import Shape, TextError, match, norm
from ... import lazyre

FAMILIES = ("followup", "rename", "set_schema", "sequence", "table", "alter", "index", "view", "drop", "comment", "schema", "typedef", "routine",
            "trigger", "event")

_DISPATCH: list[tuple[re.Pattern[str], Shape]] | None = None


def _dispatch() -> list[tuple[re.Pattern[str], Shape]]:
    global _DISPATCH
    if _DISPATCH is None:
        out = []
        for fam in FAMILIES:
            try:
                mod = importlib.import_module(f"{__name__}.{fam}")
            except ModuleNotFoundError as e:
                if e.name != f"{__name__}.{fam}":
                    raise
                continue
            for head, shape in mod.SHAPES.items():
                out.append((re.compile(head), shape))
        _DISPATCH = out
    return _DISPATCH


_BY_WORD: tuple[dict[str, list[tuple[re.Pattern[str], Shape]]], list[tuple[re.Pattern[str], Shape]]] | None = None


def _candidates(head: str) -> list[tuple[re.Pattern[str], Shape]]:
    """The entries of :func:`_dispatch` whose head pattern may match ``head``, in order: a pattern that
    starts with a word and a blank matches only a head starting with that word."""
    global _BY_WORD
    if _BY_WORD is None:
        entries = _dispatch()
        words = [m[1] if (m := re.match(r"([A-Z]+) ", rx.pattern)) else None for rx, _shape in entries]
        _BY_WORD = ({w: [e for e, k in zip(entries, words) if k in (None, w)] for w in set(words) - {None}},
                    [e for e, k in zip(entries, words) if k is None])
    by_word, others = _BY_WORD
    return by_word.get(head.partition(" ")[0], others)


def _head(text: Lexed) -> str:
    return " ".join(t.upper or t.text for t in text.head(12))  # the first tokens only: never the whole text


def _body_end(text: str) -> int:
    """The end of the statement without its terminating ``;``."""
    stripped = text.rstrip()
    return len(stripped) - 1 if stripped.endswith(";") else len(stripped)


def same_tokens(a: str, b: str) -> int | None:
    """None when ``a`` and ``b`` are the same tokens (meanings, see :func:`._match.norm`); else the byte
    offset in ``b`` of the first token that differs."""
    return _differs(tokenize(a), tokenize(b), len(b))


def _differs(ta: list[Tok], tb: list[Tok], end: int) -> int | None:
    """:func:`same_tokens` of two texts' tokens (``end``: the length of the second text)."""
    for x, y in zip(ta, tb):
        if x.text != y.text and norm(x) != norm(y):  # the same text is the same token (most are)
            return y.start
    if len(ta) != len(tb):
        return tb[len(ta)].start if len(tb) > len(ta) else end
    return None


# where canonicalize and the lexer may cut a text differently: a backslash (E'' strings), a dollar sign
# (dollar quotes, parameters), a comment
_UNLIKE_LEXER = lazyre.compile(r"[\\$]|--|/\*")


def _same_blanks_aside(a: str, b: str, canon: dict[str, str]) -> bool:
    """Whether ``a`` and ``b`` are the same tokens for a reason cheaper to see than their tokens: the same text
    but for runs of blanks outside quotes (:func:`~ddlc.quoting.canonicalize`, whose quotes are the lexer's
    where neither holds a backslash, a dollar sign or a comment; blank runs end every other token).
    ``canon``: the canonical forms worked out for this text so far."""
    return _UNLIKE_LEXER.search(a) is None and _UNLIKE_LEXER.search(b) is None and \
        _canonical(a, canon) == _canonical(b, canon)


def _canonical(t: str, canon: dict[str, str]) -> str:
    """:func:`~ddlc.quoting.canonicalize` of ``t``, worked out once per text (``canon``)."""
    got = canon.get(t)
    if got is None:
        got = canon[t] = canonicalize(t)
    return got


def read_tree(text: str | Lexed) -> tuple[dict[str, Any] | None, TextError | None]:
    """The JDDL tree whose expansion is ``text`` (one statement, its ``;`` optional), or why none."""
    tree, err, _out = _read_tree(text if isinstance(text, Lexed) else Lexed(text), {})
    return tree, err


def _read_tree(lexed: Lexed, canon: dict[str, str]) -> tuple[dict[str, Any] | None, TextError | None, str]:
    """:func:`read_tree`, and the expansion of the tree read (``""`` when none is); ``canon``: the canonical
    forms of the texts compared (:func:`_same_blanks_aside`), kept for the caller."""
    text = lexed.text
    end = _body_end(text)
    head = _head(lexed)
    err: TextError | None = None
    for rx, shape in _candidates(head):
        if not rx.match(head):
            continue
        try:
            tree = match(shape, lexed, end)
        except TextError as e:
            if err is None or e.pos > err.pos:
                err = e
            continue
        except ScanError as e:
            return None, TextError(str(e), e.pos), ""
        try:
            out = expand(tree)
        except Exception as e:  # noqa: BLE001 - a template read wrongly: reported as not read
            return None, TextError(f"internal: the tree read does not expand ({e})", 0), ""
        # the text's tokens up to its end (or to its ';'): the match read those already, and the tokens
        # of text[:end] are the same ones (its end is a ';' or a blank, which ends no token before it)
        whole = out.rstrip().endswith(";")
        if _same_blanks_aside(out, text if whole else text[:end], canon):
            bad = None
        else:
            bad = _differs(tokenize(out), lexed.upto(None if whole else end), len(text) if whole else end)
        if bad is not None:
            err = TextError("the text reads as a tree whose expansion differs", bad)
            continue
        return tree, None, out
    return None, err, ""


# kinds the recovery reads that trees have too (CREATE TABLE AS is the recovery's only when the templates fail)
_TREE_KINDS = frozenset({"CREATE TABLE", "CREATE LARGE SEQUENCE", "ALTER LARGE SEQUENCE", "DROP LARGE SEQUENCE"})


def _table_as(kind: str, text: Lexed) -> bool:
    """A CREATE TABLE with a query (``... AS query``, :func:`~ddlc.frontend.recover.query_span`): recovered before the
    templates are tried. No template reads a text PostgreSQL's grammar reads as a CREATE TABLE AS (the table
    family's needs a column list with types, ``(...)`` or ``()``, or ``OF type`` after the name, and has no
    top-level ``AS``), so the recovery, which reads only those, gives what it gave after the templates failed,
    and for any other text nothing (then the templates, as before)."""
    return kind == "CREATE TABLE" and query_span(text) is not None


def _deparser_drop(text: Lexed) -> bool:
    """``DROP function ...``: the drop message's own text (the deparser writes the object type in lower case),
    whose tokens all scan (its first two read first: the whole text only for such a DROP)."""
    toks = text.head(2)
    if not (len(toks) == 2 and toks[0].upper == "DROP" and toks[1].text.islower()):
        return False
    try:
        text.upto()
    except ScanError:
        return False
    return True


def read_tddl(text: str, *, document: str | None = None) -> tuple[Statement, list[Diagnostic]]:
    """Build the IR of one TDDL statement text. Never raises on text. The text is scanned once, for every
    reader of it (its kind, the templates, the check of the tree read, the recovery)."""
    lexed = Lexed(text)
    kind = lexed.notes["kind"] = text_kind(text, lexed)  # (from its first characters where they allow it)
    if recovers(kind) and (kind not in _TREE_KINDS or _table_as(kind, lexed)) and \
            not (kind[:4] == "DROP" and _deparser_drop(lexed)):  # no tree (a deparser's DROP starts with DROP)
        stmt, diags = recover_tddl(lexed, document=document)
        if not isinstance(stmt, Opaque):
            return stmt, diags
    canon: dict[str, str] = {}
    try:
        tree, err, out = _read_tree(lexed, canon)
    except RecursionError:
        tree, err, out = None, TextError("statement nested too deeply", 0), ""
    if tree is not None:
        try:
            stmt, diags = build(tree, document=document)
        except Exception as e:  # noqa: BLE001 - a tree the builder refuses: as if not read
            err = TextError(f"not built: {e}", 0)
        else:
            if _written_by_hand(out, text, canon) and any(d.code.startswith("DDLC-N") for d in diags):
                hand = _handwritten(text, document)  # a fragment of a hand-written text the templates misread
                if not isinstance(hand, str) and not any(d.code.startswith("DDLC-N") for d in hand[1]):
                    return hand
            return stmt, diags
    stmt, diags = recover_tddl(lexed, document=document)
    if not isinstance(stmt, Opaque):
        return stmt, diags
    hand = _handwritten(text, document)
    if not isinstance(hand, str):
        return hand
    if err is None:
        return stmt, diags
    ctx = BuildContext(document)
    why = f"; as hand-written SQL, {hand}" if hand else ""
    ctx.diag(N_TDDL_UNPARSED, f"TDDL {kind or 'statement'} not parsed ({err.message}, at byte {err.pos}); "
                              f"kept as text{why}", ())
    return Opaque(text, kind=kind, reason=OpaqueReason.UNPARSED), ctx.diagnostics


def _written_by_hand(out: str, text: str, canon: dict[str, str]) -> bool:
    """Whether ``text`` differs from ``out``, the expansion of the tree read from it, beyond blank runs (the
    case of a keyword, the quoting of a name): then it is not the database's own text."""

    def body(t: str) -> str:
        t = _canonical(t, canon)
        return t[:-1].rstrip() if t.endswith(";") else t

    try:
        return body(out) != body(text)
    except Exception:  # noqa: BLE001 - not the database's own text then
        return True


def _handwritten(text: str, document: str | None) -> tuple[Statement, list[Diagnostic]] | str:
    """The statement read from ``text`` as hand-written SQL (:mod:`.pgtext`), or why not (``""``: PostgreSQL's
    grammar does not read it either)."""
    from .pgtext import I_HANDWRITTEN, NotRead, read_sql  # its PostgreSQL readers: only when the templates fail

    try:
        tree, kind = read_sql(text)
    except NotRead as e:
        return f"{e.message} (at byte {e.pos})" if e.message else ""
    try:
        stmt, diags = build(tree, document=document)
    except Exception as e:  # noqa: BLE001 - a tree the builder refuses (a bad type modifier...): not read
        return f"not built: {e}"
    if isinstance(stmt, Opaque):
        return "not built: " + "; ".join(d.message for d in diags)
    ctx = BuildContext(document)
    ctx.diag(I_HANDWRITTEN, f"TDDL {kind} read as hand-written SQL by PostgreSQL's grammar "
                            "(not the database's canonical form)", ())
    return stmt, ctx.diagnostics + list(diags)


__all__ = ["read_tddl", "read_tree", "same_tokens"]
