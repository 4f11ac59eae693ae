"""The text of a PostgreSQL CREATE INDEX, once :func:`.objects_more.create_index` has decided its parts (kept apart
so that each module stays small)."""

from __future__ import annotations

from typing import Any

from ...ir.index import CreateIndex, NullsOrder, SortOrder
from ..writer import SqlWriter, pg_option_value

# a key's ordering words by the member's identity: on Python 3.11 ``member.value`` is a Python-level property and
# an enum member's hash a Python call; an identity's lookup is neither
_WORD = {id(m): m.value for m in (*SortOrder, *NullsOrder)}


def _option_value(v: str) -> str:
    return pg_option_value(v)


def _method_name(method: str) -> str:
    """The access method's name from its spelling as the server wrote it (a word, or a quoted name)."""
    m = method.strip()
    if len(m) > 1 and m[0] == m[-1] == '"':
        return m[1:-1].replace('""', '"')
    return m.lower()


def index_statement(n: CreateIndex, e: Any, unique: bool, concurrently: bool, method: str,
                    options: list[tuple[str, str]]) -> str:
    """``CREATE [UNIQUE] INDEX [CONCURRENTLY] name ON table USING method (keys) [INCLUDE (...)] [WITH (k=v, ...)]
    [WHERE ...]`` (``options``: its options' ``(k, v)`` pairs): written at once when no fragment's text (a key
    expression, the WHERE clause) could meet the writer's spacing rule, through the writer with the same tokens
    otherwise."""
    ident = e.ident
    toks = ["CREATE", "UNIQUE", "INDEX"] if unique else ["CREATE", "INDEX"]
    if concurrently:
        toks.append("CONCURRENTLY")
    toks += (ident(n.name), "ON", e.qname(n.table), "USING",  # (the writer's tokens, in its order: the same errors)
             ident(method))  # a name, quoted
    keys, plain = [], True  # each key's tokens; whether a fragment's text could meet the writer's spacing rule
    for k in n.keys:
        key = []
        if k.column is not None:
            key.append(ident(k.column))
        else:
            text = e.expr(k.expression)
            plain = plain and _plain(text)
            key.append(text)
        if k.collation is not None:
            key += ("COLLATE", e.qname(k.collation))
        if k.opclass is not None:
            key.append(e.qname(k.opclass))
        o = k.ordering
        if o is not None:
            key.append(_WORD.get(id(o)) or o.value)
        o = k.nulls
        if o is not None:
            key += ("NULLS", _WORD.get(id(o)) or o.value)
        keys.append(key)
    include = [ident(c) for c in n.include]
    # the server's k=v form (no spaces): one token of a quoted name and a value
    opts = [ident(k) + "=" + pg_option_value(v) for k, v in options]  # (_option_value's, without its frame)
    where = e.expr(n.where) if n.where is not None else None
    if plain and (where is None or _plain(where)):  # written at once, as the writer spaces these tokens
        out = " ".join(toks) + " (" + ", ".join([" ".join(key) for key in keys]) + ")"
        if include:
            out += " INCLUDE (" + ", ".join(include) + ")"
        if opts:
            out += " WITH (" + ", ".join(opts) + ")"
        return out if where is None else out + " WHERE " + where
    w = SqlWriter().kw(*toks)
    w.open().each(keys, lambda w_, key: w_.kw(*filter(None, key))).close()
    if include:
        w.kw("INCLUDE").open().each(include, SqlWriter.raw).close()
    if opts:
        w.kw("WITH").open().each(opts, SqlWriter.raw).close()
    if where is not None:
        w.kw("WHERE").raw(where)
    return w.text()


def _plain(text: str) -> bool:
    """Whether a fragment's text is a token the writer's rule spaces as any word (not empty, no ``(`` last, not
    ``,``, no ``)`` first)."""
    return bool(text) and text[0] != ")" and text != "," and text[-1] != "("


__all__ = ["index_statement"]
