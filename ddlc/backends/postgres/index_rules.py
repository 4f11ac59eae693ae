"""What PostgreSQL has for CREATE INDEX (access methods, storage parameters, ``pg_catalog`` operator classes) and
the predicates of :mod:`.objects_more`'s CREATE INDEX rules (kept apart so that each module stays small).

The predicates that are false whenever a field of the index is (no WITH options, not INVISIBLE, no LOCAL list,
not CONCURRENTLY) say so by ``needs``: ``drop_unsupported`` tests the field before it calls them, and most
indexes have none of those clauses."""

from __future__ import annotations

import re

from ... import lazyre
from ...ir.base import replace
from ...ir.index import CreateIndex, IndexKey, PartitionScope

_NONE_SCOPE = PartitionScope.NONE  # (read once: on Python 3.11 a read through an Enum class goes through a hook)

# ---- what PostgreSQL has ---------------------------------------------------------------------
_REPLACED_METHODS = {"psort": "btree", "cbtree": "btree", "cgin": "gin"}
INDEX_RELOPTIONS: dict[str, frozenset[str]] = {
    "btree": frozenset({"fillfactor", "deduplicate_items"}),
    "hash": frozenset({"fillfactor"}),
    "gist": frozenset({"fillfactor", "buffering"}),
    "spgist": frozenset({"fillfactor"}),
    "gin": frozenset({"fastupdate", "gin_pending_list_limit"}),
    "brin": frozenset({"pages_per_range", "autosummarize"}),
}
# pg_catalog operator classes of PostgreSQL 15, by method (SELECT amname, opcname FROM pg_opclass ...)
_BRIN = ("bit_minmax box_inclusion range_inclusion inet_inclusion varbit_minmax name_minmax "
         "char_minmax bpchar_minmax text_minmax bytea_minmax " + " ".join(
             f"{t}_{k}" for t in ("date float4 float8 inet int2 int4 int8 interval macaddr8 macaddr numeric oid "
                                  "pg_lsn tid time timestamp timestamptz timetz uuid").split()
             for k in ("bloom", "minmax", "minmax_multi")) + " bpchar_bloom bytea_bloom char_bloom name_bloom "
         "text_bloom")
_OPCLASSES_TEXT = {
    "btree": "array bit bool bpchar bpchar_pattern bytea char cidr date enum float4 float8 inet int2 int4 "
             "int8 interval jsonb macaddr8 macaddr money multirange name numeric oid oidvector pg_lsn range "
             "record_image record text text_pattern tid time timestamp timestamptz timetz tsquery tsvector "
             "uuid varbit varchar varchar_pattern xid8",
    "hash": "aclitem array bool bpchar bpchar_pattern bytea char cid cidr date enum float4 float8 inet int2 "
            "int4 int8 interval jsonb macaddr8 macaddr multirange name numeric oid oidvector pg_lsn range "
            "record text text_pattern tid time timestamp timestamptz timetz uuid varchar varchar_pattern "
            "xid8 xid",
    "gin": "array jsonb jsonb_path tsvector",
    "gist": "box circle inet multirange point poly range tsquery tsvector",
    "spgist": "box inet kd_point poly quad_point range text",
    "brin": _BRIN,
}
PG_OPCLASSES: dict[str, frozenset[str]] = {
    am: frozenset(w + "_ops" for w in text.split()) for am, text in _OPCLASSES_TEXT.items()
}
# the spellings the server writes of the methods PostgreSQL has (and ubtree): each is its own stripped, lowered form
_PLAIN_METHODS = frozenset({"btree", "hash", "gist", "spgist", "gin", "brin", "ubtree"})


def target_method(method: str) -> str:
    """The PostgreSQL access method for a GaussDB ``index_am`` (pre-quoted text)."""
    if method in _PLAIN_METHODS:  # (the common spelling: what the strips and lower below leave as it is)
        return "btree" if method == "ubtree" else method
    m = method.strip().strip('"').lower()
    return "btree" if m == "ubtree" else _REPLACED_METHODS.get(m, m)


def index_options(text: str | None) -> list[tuple[str, str]]:
    """``k=v, k=v`` (unquoted values, as the server writes them) -> [(k, v)]."""
    out: list[tuple[str, str]] = []
    for part in (text or "").split(","):
        if part.strip():
            k, _, v = part.partition("=")
            out.append((k.strip().lower(), v.strip()))
    return out


def _kept_options(n: CreateIndex) -> list[tuple[str, str]]:
    allowed = INDEX_RELOPTIONS.get(target_method(n.method))
    opts = index_options(n.options)
    return opts if allowed is None else [(k, v) for k, v in opts if k in allowed]


def _bad_opclass(n: CreateIndex, k: IndexKey) -> bool:
    classes = PG_OPCLASSES.get(target_method(n.method))
    return (classes is not None and k.opclass is not None and k.opclass.schema == "pg_catalog"
            and k.opclass.name not in classes)


def _column_store(n: CreateIndex) -> bool:
    """Whether the index's method is a column-store one PostgreSQL does not have (psort, cbtree, cgin)."""
    m = n.method
    return m not in _PLAIN_METHODS and m.strip().strip('"').lower() in _REPLACED_METHODS


def _options_dropped(n: CreateIndex) -> bool:
    """Whether a storage parameter of ``n`` is not one of its PostgreSQL method's (``_kept_options`` would
    leave one out): the parameters read once, the method once."""
    allowed = INDEX_RELOPTIONS.get(target_method(n.method))
    return allowed is not None and any([k not in allowed for k, _v in index_options(n.options)])


_options_dropped.needs = ("options",)  # type: ignore[attr-defined]  # (no WITH options: nothing to drop)


def _any_bad_opclass(n: CreateIndex) -> bool:
    """Whether a key of ``n`` names a ``pg_catalog`` operator class PostgreSQL does not have for the method
    (``_bad_opclass`` of any key): the keys' classes looked at first, the method only for such a key."""
    for k in n.keys:
        c = k.opclass
        if c is not None and c.schema == "pg_catalog":
            classes = PG_OPCLASSES.get(target_method(n.method))
            if classes is not None and c.name not in classes:
                return True
    return False


def _invisible(n: CreateIndex) -> bool:
    return n.invisible


_invisible.needs = ("invisible",)  # type: ignore[attr-defined]


def _local_names(n: CreateIndex) -> bool:
    return bool(n.partitions)


_local_names.needs = ("partitions",)  # type: ignore[attr-defined]


def _concurrently_partitioned(n: CreateIndex) -> bool:
    return n.concurrently and n.partition_scope is not _NONE_SCOPE


_concurrently_partitioned.needs = ("concurrently",)  # type: ignore[attr-defined]


_B_COLLATION = lazyre.compile(r"(?:utf8mb4|utf8|gbk|gb18030|latin1)_[a-z0-9_]+|binary\Z", re.I)


def _b_collation(k: IndexKey) -> bool:
    """Whether the key's collation is a B-compatibility one PostgreSQL does not have."""
    return k.collation is not None and _B_COLLATION.match(k.collation.name) is not None


_b_collation.needs = ("collation",)  # type: ignore[attr-defined]  # (most keys have no COLLATE)


def _drop_opclasses(n: CreateIndex) -> CreateIndex:
    return replace(n, keys=tuple(replace(k, opclass=None) if _bad_opclass(n, k) else k for k in n.keys))
