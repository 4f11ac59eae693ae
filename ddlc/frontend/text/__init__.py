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
from itertools import islice
from typing import Any

from ...diagnostics import Diagnostic
from ...ir.statement import Opaque, OpaqueReason, Statement
from ..sql.lexer import ScanError, tokenize, tokens
from ._match import Shape, TextError, match, norm

FAMILIES = ("followup", "rename", "set_schema", "sequence", "table", "alter", "index", "view", "drop", "comment", "schema", "typedef", "routine",
            "trigger")

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


def _head(text: str) -> str:
    words = []
    try:
        for t in islice(tokens(text), 12):  # the first tokens only: never the whole text
            words.append(t.upper or t.text)
    except ScanError:
        pass
    return " ".join(words)


def _body_end(text: str) -> int:
    """The end of the statement without its terminating ``;``."""
    stripped = text.rstrip()
    return len(stripped) - 1 if stripped.endswith(";") else len(stripped)


def same_tokens(a: str, b: str) -> int | None:
    """None when ``a`` and ``b`` are the same tokens (meanings, see :func:`._match.norm`); else the byte
    offset in ``b`` of the first token that differs."""
    ta, tb = tokenize(a), tokenize(b)
    for x, y in zip(ta, tb):
        if x.text != y.text and norm(x) != norm(y):  # the same text is the same token (most are)
            return y.start
    if len(ta) != len(tb):
        return tb[len(ta)].start if len(tb) > len(ta) else len(b)
    return None


def read_tree(text: str) -> tuple[dict[str, Any] | None, TextError | None]:
    """The JDDL tree whose expansion is ``text`` (one statement, its ``;`` optional), or why none."""
    from ...jddl.expand import expand

    end = _body_end(text)
    head = _head(text)
    err: TextError | None = None
    for rx, shape in _dispatch():
        if not rx.match(head):
            continue
        try:
            tree = match(shape, text, end)
        except TextError as e:
            if err is None or e.pos > err.pos:
                err = e
            continue
        except ScanError as e:
            return None, TextError(str(e), e.pos)
        try:
            out = expand(tree)
        except Exception as e:  # noqa: BLE001 - a template read wrongly: reported as not read
            return None, TextError(f"internal: the tree read does not expand ({e})", 0)
        bad = same_tokens(out, text if out.rstrip().endswith(";") else text[:end])
        if bad is not None:
            err = TextError("the text reads as a tree whose expansion differs", bad)
            continue
        return tree, None
    return None, err


# kinds the recovery reads that trees have too (CREATE TABLE AS is the recovery's only when the templates fail)
_TREE_KINDS = frozenset({"CREATE TABLE", "CREATE LARGE SEQUENCE", "ALTER LARGE SEQUENCE", "DROP LARGE SEQUENCE"})


def _deparser_drop(text: str) -> bool:
    """``DROP function ...``: the drop message's own text (the deparser writes the object type in lower case)."""
    try:
        toks = tokenize(text)[:2]
    except ScanError:
        return False
    return len(toks) == 2 and toks[0].upper == "DROP" and toks[1].text.islower()


def read_tddl(text: str, *, document: str | None = None) -> tuple[Statement, list[Diagnostic]]:
    """Build the IR of one TDDL statement text. Never raises on text."""
    from ..build import build
    from ..build._read import BuildContext
    from ..recover import N_TDDL_UNPARSED, recover_tddl, recovers, statement_kind

    kind = statement_kind(text)
    if recovers(kind) and kind not in _TREE_KINDS and not _deparser_drop(text):  # a kind with no tree
        stmt, diags = recover_tddl(text, document=document)
        if not isinstance(stmt, Opaque):
            return stmt, diags
    try:
        tree, err = read_tree(text)
    except RecursionError:
        tree, err = None, TextError("statement nested too deeply", 0)
    if tree is not None:
        try:
            stmt, diags = build(tree, document=document)
        except Exception as e:  # noqa: BLE001 - a tree the builder refuses: as if not read
            err = TextError(f"not built: {e}", 0)
        else:
            if _written_by_hand(tree, text) and any(d.code.startswith("DDLC-N") for d in diags):
                hand = _handwritten(text, document)  # a fragment of a hand-written text the templates misread
                if not isinstance(hand, str) and not any(d.code.startswith("DDLC-N") for d in hand[1]):
                    return hand
            return stmt, diags
    stmt, diags = recover_tddl(text, document=document)
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


def _written_by_hand(tree: dict[str, Any], text: str) -> bool:
    """Whether ``text`` differs from the expansion of the tree read from it beyond blank runs (the case of a
    keyword, the quoting of a name): then it is not the database's own text."""
    from ...jddl.expand import expand
    from ...quoting import canonicalize

    def body(t: str) -> str:
        t = canonicalize(t)
        return t[:-1].rstrip() if t.endswith(";") else t

    try:
        return body(expand(tree)) != body(text)
    except Exception:  # noqa: BLE001 - the tree expanded when it was read
        return True


def _handwritten(text: str, document: str | None) -> tuple[Statement, list[Diagnostic]] | str:
    """The statement read from ``text`` as hand-written SQL (:mod:`.pgtext`), or why not (``""``: PostgreSQL's
    grammar does not read it either)."""
    from ..build import build
    from ..build._read import BuildContext
    from .pgtext import I_HANDWRITTEN, NotRead, read_sql

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
