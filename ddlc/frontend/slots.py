"""Every raw slot of every JDDL shape the frontend reads, classified in one table (issue 20, item 3).

A ``%{name}s`` specifier pastes a string as it is: the expander quotes nothing, and the GaussDB target
writes the expansion back. So each member a ``%s`` can paste has a class here, and a string outside its
class fails its document (``DDLC-E011``), on every target, at build time (:func:`check_tree`, called by
:func:`ddlc.frontend.build.build` with the shape the tree was built as; nothing after the frontend parses):

* **keyword**: one of a closed set of phrases (compared by words, case aside; ``""`` prints nothing);
* **number**: digits in the server's forms (``integer``, ``numeric``, ``timestamp``, ``cost``);
* **identifier**: one name token as the server writes it (``name``: a word or a quoted name;
  ``word``: a plain word; ``words``: names separated by blanks, the raw constraint name of COMMENT ON
  CONSTRAINT). The PostgreSQL and Spark writers quote the name themselves;
* **fragment**: server-made SQL, lexed by the SQL layer (:mod:`.sql.fragment`) and, by the targets
  other than GaussDB, printed from its parse. A fragment that holds a comment (which the server never
  renders), a bound with the server's unescaped quote, or text the server put between quotes without
  escaping it (an event's comment holding a quote or a backslash) is recorded in
  ``Statement.unpastable``: the GaussDB target, which writes fragments as they came, refuses it.
  Routine texts and inline bodies (``routine``, ``body``) are user code: comments are theirs, but none
  may run to the text's end.

A member that is written only quoted (``%I``, ``%L``, ``%D``, ``%T``, ``%n``) is ``quoted``; metadata that
no ``fmt`` prints (``type``, ``contype``...) is ``meta``; as a ``%s`` slot either is refused. A member
holding an object names the node it is read as (``node``; ``items``: the node of an array's objects);
its string form must be ``""`` unless the slot lists more (``""``, which prints nothing, passes anywhere).
The literal text of every ``fmt`` is checked too (:func:`fmt_problem`): words, blanks, ``( ) , = .``
and ``'%{x}s'`` quotes only (the back-fill block, a PL/pgSQL block of the server's own, is lexed
instead); a value the fmt puts between its own quotes that holds a quote or a backslash is recorded in
``unpastable``.

Members of another version's form (a key no node lists) are fragments of form ``text``. Trees of a shape
no builder knows are not read here (they are kept as text, for the GaussDB target only).
``tests/test_slot_classes.py`` walks every shape of ``grammars/`` and every template the frontend knows
and fails on a string member without a class.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from ..diagnostics import E_FRAGMENT
from ..errors import DdlcError, Path
from ..jddl.expand import parse_fmt
from ..jddl.keys import CANONICAL
from ..records import record
from .sql.typmod import check_spelling, check_typmod
from .sql.slotforms import (
    CLEAN_FRAGMENTS, DESCRIBED, NUMBERS, QUICK_DOTTED, QUICK_FRAGMENTS, QUICK_NAME, Verdict, fmt_problem,
    fragment_verdict, identifier_verdict, quote_free,
)
from .sql.fragment import clean_fragment


class Kind(str, enum.Enum):
    KEYWORD = "keyword"
    NUMBER = "number"
    IDENTIFIER = "identifier"
    FRAGMENT = "fragment"


@record(frozen=True, slots=True)
class Slot:
    """The class of one member: the keyword phrases and forms a string may have, the node of an object."""

    words: frozenset[str] = frozenset()  # upper case, blanks collapsed; "" prints nothing
    forms: tuple[tuple[Kind, str], ...] = ()
    node: str | None = None  # the node an object value is read as
    items: str | None = None  # the node of the objects of an array (default: node)
    quoted: bool = False  # written only by %I %L %D %T %n
    meta: bool = False  # never printed

    @property
    def kinds(self) -> tuple[Kind, ...]:
        out = (Kind.KEYWORD,) if self.words - {""} else ()
        return out + tuple(dict.fromkeys(k for k, _ in self.forms))

    @property
    def classified(self) -> bool:
        """Whether a string in this member has a class (or cannot be a raw slot at all)."""
        return bool(self.words or self.forms or self.quoted or self.meta)


def kw(*words: str, node: str | None = None, items: str | None = None) -> Slot:
    return Slot(frozenset(_norm(w) for w in words), node=node, items=items)


def num(form: str) -> Slot:
    return Slot(forms=((Kind.NUMBER, form),))


def ident(form: str = "name", *, empty: bool = False) -> Slot:
    return Slot(frozenset({""}) if empty else frozenset(), ((Kind.IDENTIFIER, form),))


def frag(form: str, *, node: str | None = None, items: str | None = None) -> Slot:
    return Slot(frozenset({""}) if node or items else frozenset(), ((Kind.FRAGMENT, form),), node, items)


def clause(node: str | None = None, *, items: str | None = None) -> Slot:
    return Slot(frozenset({""}), node=node, items=items)


def one_of(*slots: Slot) -> Slot:
    return Slot(frozenset().union(*(s.words for s in slots)), tuple(f for s in slots for f in s.forms),
                next((s.node for s in slots if s.node), None), next((s.items for s in slots if s.items), None))


QUOTED = Slot(quoted=True)
META = Slot(meta=True)


def _norm(v: str) -> str:
    return " ".join(v.split()).upper()


# ---- the closed sets -----------------------------------------------------------------------------------
_IF_EXISTS = kw("", "IF EXISTS")
_IF_NOT_EXISTS = kw("", "IF NOT EXISTS")
_CASCADE = kw("", "CASCADE", node="empty")
_PERSISTENCE = kw("", "UNLOGGED", "TEMPORARY", "GLOBAL TEMPORARY")
_RELATION_KINDS = ("TABLE", "INDEX", "VIEW", "TYPE", "SEQUENCE", "LARGE SEQUENCE", "FOREIGN TABLE",
                   "MATERIALIZED VIEW")
_COMMENT_KINDS = ("COLUMN", "DOMAIN", "FUNCTION", "INDEX", "SCHEMA", "SEQUENCE", "LARGE SEQUENCE", "TABLE",
                  "TABLESPACE", "TRIGGER", "TYPE", "VIEW", "???")
_DROP_KINDS = ("table", "index", "type", "schema", "sequence", "view", "function", "trigger", "large sequence",
               "table constraint", "procedure", "materialized view", "foreign table", "composite type", "relation")
_SECURITY = ("SECURITY DEFINER", "SECURITY INVOKER", "AUTHID DEFINER", "AUTHID CURRENT_USER")
_BACKFILL_TYPES = ("bool", "int1", "int2", "int4", "int8", "int16")
_NAME = ident()
_TBLSPC = ident(empty=True)
_BOUND = frag("bound")
_EXPR = frag("expression")

# ---- the nodes: member -> class -------------------------------------------------------------------------
_COLUMN: dict[str, Slot] = {
    "name": _NAME, "coltype": QUOTED, "collate": QUOTED, "collation": clause("collation"),
    "auto_increment": kw("", "AUTO_INCREMENT"), "default": clause("default"), "on_update": _EXPR,
    "not_null": kw("", "NOT NULL", "NULL"), "generated_column": clause("generated"), "type": META,
}
_ELEMENT = {**_COLUMN, "definition": frag("constraint"), "tblspc": _NAME, "contype": META}
_OPTION = {"label": clause("option_label"), "value": one_of(num("numeric"), ident("word"))}
_SEQUENCE = {"persistence": _PERSISTENCE, "large": kw("", "LARGE"), "identity": QUOTED,
             "definition": clause(items="sequence_option"), "myowner": META}
_SUBCOMMAND: dict[str, Slot] = {
    # ADD / DROP / ALTER COLUMN, MODIFY / CHANGE (reference §5.2)
    "objtype": kw("COLUMN", "ATTRIBUTE"), "if_not_exists": _IF_NOT_EXISTS, "if_exists": _IF_EXISTS,
    "cascade": _CASCADE, "definition": frag("expression", node="column"), "add_first": clause("empty"),
    "add_after_name": clause("named"), "column": _NAME, "ori_column": _NAME, "col": _NAME, "colname": _NAME,
    "datatype": QUOTED, "coltype": QUOTED, "type_of": QUOTED, "collation": clause("collation"),
    "using": clause("using"), "default": frag("expression", node="default"), "generated_column": clause("generated"),
    "on_update": _EXPR, "not_null": kw("", "NOT NULL", "NULL"), "charset": _NAME, "collate": _NAME,
    "storage": kw("PLAIN", "EXTERNAL", "EXTENDED", "MAIN"), "statistics": QUOTED,
    # options, constraints, relation settings
    "option": kw("SET", "RESET"), "set_reset": kw("SET", "RESET"), "options": clause(items="option"),
    "name": _NAME, "constraint": _NAME, "constraint_type": kw("PRIMARY KEY", "UNIQUE"),
    "index_name": _NAME, "deferrable": kw("DEFERRABLE", "NOT DEFERRABLE"),
    "init_deferred": kw("INITIALLY DEFERRED", "INITIALLY IMMEDIATE"),
    "compression": kw("COMPRESS", "NOCOMPRESS"), "autoincstart": num("numeric"), "comment": QUOTED,
    "owner": _NAME, "index": _NAME, "tablespace": _NAME, "trigger": _NAME, "rule": _NAME, "parent": QUOTED,
    "ident": kw("DEFAULT", "FULL", "NOTHING", node="named"), "index_identity": _NAME, "fk_identity": _NAME,
    "partition_identity": _NAME,
    # partitions
    "maxvalues": _BOUND, "tblspc": _TBLSPC, "subpartitions": clause(items="subpartition"), "subpart": _NAME,
    "partition": _NAME, "gpi": kw("", "UPDATE GLOBAL INDEX"), "issub": kw("PARTITION", "SUBPARTITION"),
    "exchange_tbl": QUOTED, "name_list": _NAME, "partition_list": _NAME, "split_list": clause("split_pair"),
    "define_list": clause("split_pair"), "partlist": clause(items="partlist"), "type": META,
}
_RENAME = {"objtype": kw(*_RELATION_KINDS, "???"), "if_exists": _IF_EXISTS, "identity": _NAME, "newname": _NAME,
           "colname": _NAME, "oldname": _NAME, "cascade": _CASCADE, "renamelist": clause(items="rename_pair"),
           "myowner": META}
_EVENT = {"definer_opt": frag("definer"), "if_not_exits": _IF_NOT_EXISTS, "if_exists": _IF_EXISTS,
          "schema": _NAME, "eventname": _NAME, "every_interval": frag("interval"), "start_expr": num("timestamp"),
          "end_expr": num("timestamp"), "event_body": clause("event_body"), "newname": _NAME,
          "comment": frag("literal"), "action": frag("body"), "myowner": META}
_GAUSS_FUNCTION = {
    "or_replace": kw("", "OR REPLACE"), "signature": clause("signature"), "return_type": QUOTED, "language": _NAME,
    "volatility": kw("", "IMMUTABLE", "STABLE", "VOLATILE"),
    "strict": kw("", "STRICT", "CALLED ON NULL INPUT", "RETURNS NULL ON NULL INPUT"),
    "security_definer": kw("", *_SECURITY), "leakproof": kw("", "LEAKPROOF", "NOT LEAKPROOF"),
    "cost": Slot(frozenset({""}), ((Kind.NUMBER, "cost"),), node="cost"),
    "rows": Slot(frozenset({""}), ((Kind.NUMBER, "cost"),), node="cost"), "definition": QUOTED, "myowner": META,
}

NODES: dict[str, dict[str, Slot]] = {
    # CREATE TABLE (§5.1, GaussDB §9, pre-release §11) and its parts (§3.3-§3.5)
    "create_table": {
        "persistence": _PERSISTENCE, "if_not_exists": _IF_NOT_EXISTS, "identity": QUOTED, "of_type": QUOTED,
        "table_elements": clause("table_elements", items="element"), "inherits": clause("inherits"),
        "autoincstart": num("numeric"), "with": clause(items="option"), "with_clause": clause("with_clause"),
        "on_commit": clause("on_commit"), "tablespace": _NAME, "options": clause(items="table_option"),
        "partition_by": frag("partition"), "distribute_by": frag("distribution"),
        "compression": kw("", "COMPRESS", "NOCOMPRESS"), "myowner": META,
    },
    "table_elements": {"elements": clause(items="element"), **_ELEMENT},
    "element": _ELEMENT,
    "column": _COLUMN,
    "collation": {"name": QUOTED},
    "default": {"default": _EXPR},
    "generated": {"generation_expr": _EXPR},
    "inherits": {"parents": QUOTED},
    "with_clause": {"with": clause(items="option")},
    "on_commit": {"on_commit_value": kw("DROP", "DELETE ROWS", "PRESERVE ROWS")},
    "table_option": {"comment": QUOTED},
    "option": _OPTION,
    "option_label": {"label": _NAME, "schema": _NAME},
    # ALTER TABLE / INDEX / VIEW / SEQUENCE / TYPE (§5.2) and the follow-up messages (§5.3)
    "alter-relation": {"objtype": kw(*_RELATION_KINDS, "???"), "only": kw("", "ONLY"), "if_exists": _IF_EXISTS,
                       "identity": QUOTED, "subcmds": frag("text", items="subcommand"), "myowner": META},
    "subcommand": _SUBCOMMAND,
    "empty": {},
    "named": {"name": _NAME, "index": _NAME},
    "using": {"expression": _EXPR},
    "subpartition": {"name": _NAME, "maxvalue": _BOUND, "tblspc": _TBLSPC},
    "split_pair": {"name1": _NAME, "name2": _NAME, "tblspc1": _TBLSPC, "tblspc2": _TBLSPC},
    "partlist": {"partname": _NAME, "maxvalues": _BOUND, "tblspc": _TBLSPC},
    "alter-table-followup": {"only": kw("", "ONLY"), "identity": QUOTED, "subcmds": frag("text", items="subcommand"),
                             "name": _NAME, "myowner": META},
    "backfill-update": {"identity": QUOTED, "name": _NAME, "default": _EXPR, "myowner": META},
    "autoincrement-backfill": {"typname": kw(*_BACKFILL_TYPES), "identity": QUOTED, "colname": _NAME,
                               "seqname": QUOTED, "myowner": META},
    # DROP (§5.4), CREATE INDEX (§5.5), sequences (§5.6), CREATE VIEW (§5.7)
    "drop": {"objtype": kw(*_DROP_KINDS), "concurrently": kw("", "CONCURRENTLY"), "if_exists": _IF_EXISTS,
             "objidentity": frag("identity"), "cascade": kw("", "CASCADE"), "myowner": META},
    "create_index": {"unique": kw("", "UNIQUE"), "concurrently": kw("", "CONCURRENTLY"), "name": _NAME,
                     "table": QUOTED, "index_am": _NAME, "definition": frag("index"), "opts": frag("options"),
                     "tablespace": _NAME, "where": _EXPR, "myowner": META},
    "create_sequence": _SEQUENCE,
    "alter_sequence": _SEQUENCE,
    "sequence_option": {"value": num("integer"), "no": kw("", "NO"), "order": kw("ORDER", "NOORDER"),
                        "owner": QUOTED, "identity": QUOTED, "clause": META},
    "create_view": {"or_replace": kw("", "OR REPLACE"), "persistence": _PERSISTENCE, "identity": QUOTED,
                    "query": frag("query"), "myowner": META},
    # functions (§5.8, §5.9; GaussDB's CREATE FUNCTION tree)
    "create_function": {"function": frag("routine"), "myowner": META},
    "create_function_gaussdb": _GAUSS_FUNCTION,
    "cost": {"cost": QUOTED, "rows": QUOTED},
    "alter_function": {"signature": clause("signature"), "definition": clause(items="function_action"),
                       "myowner": META},
    "signature": {"identity": QUOTED, "arguments": clause(items="argument")},
    "argument": {"type": QUOTED},
    "function_action": {"set_name": _NAME, "set_value": frag("text"), "value": kw("SAFE", "UNSAFE", "RESTRICTED"),
                        "cost": QUOTED, "rows": QUOTED},
    # CREATE TRIGGER (§5.10)
    "create_trigger": {
        "definer": clause("definer"), "constraint": kw("", "CONSTRAINT"), "if_not_exists": _IF_NOT_EXISTS,
        "name": _NAME, "time": kw("BEFORE", "AFTER", "INSTEAD OF"),
        "events": kw("INSERT", "UPDATE", "DELETE", "TRUNCATE", items="update_of"), "relation": QUOTED,
        "from_table": clause("from_table"), "constraint_attrs": kw("NOT", "DEFERRABLE INITIALLY", "IMMEDIATE",
                                                                    "DEFERRED", "DEFERRABLE", "NOT DEFERRABLE",
                                                                    "INITIALLY DEFERRED", "INITIALLY IMMEDIATE"),
        "for_each": kw("ROW", "STATEMENT"), "when": clause("when"), "function": clause("trigger_function"),
        "bodysrc": clause("bodysrc"), "myowner": META,
    },
    "definer": {"definer": _NAME}, "update_of": {"columns": _NAME, "kind": META},
    "from_table": {"relation": QUOTED}, "when": {"clause": _EXPR},
    "trigger_function": {"funcname": QUOTED, "args": QUOTED},
    "bodysrc": {"bodysrc": frag("body")},
    # schemas (§5.11), COMMENT (§5.12), RENAME (§5.13), SET SCHEMA (§5.14), types (§5.15)
    "create_schema": {"if_not_exists": _IF_NOT_EXISTS, "name": ident(empty=True),
                      "authorization": clause("authorization"), "blockchain": clause("blockchain"), "myowner": META},
    "authorization": {"authorization_role": _NAME}, "blockchain": {"blockchain": kw("")},
    "alter_schema": {"schemaname": _NAME, "with": kw("WITH", "WITHOUT"), "charset": _NAME, "collate": _NAME,
                     "myowner": META},
    "comment": {"objtype": kw(*_COMMENT_KINDS), "identity": frag("identity"), "comment": clause("comment_literal"),
                "myowner": META},
    "comment_constraint": {"identity": ident("words"), "domain": one_of(kw("", "DOMAIN"), _NAME),
                           "parentobj": frag("identity"), "comment": clause("comment_literal"), "myowner": META},
    "comment_literal": {"null": clause("empty"), "literal": clause("literal")}, "literal": {"value": QUOTED},
    "rename_relation": _RENAME, "rename_column": _RENAME, "rename_attribute": _RENAME, "rename_constraint": _RENAME,
    "rename_schema": _RENAME, "rename_type": _RENAME, "rename_tables": _RENAME,
    "rename_pair": {"ori": QUOTED, "modify": QUOTED},
    "set_schema": {"objtype": kw(*_COMMENT_KINDS), "identity": frag("identity"), "newschema": _NAME, "myowner": META},
    "create_type_composite": {"identity": QUOTED, "columns": clause(items="column"), "myowner": META},
    "create_type_enum": {"identity": QUOTED, "values": QUOTED, "myowner": META},
    # events, B-compatible (§5.16), and NEWPUB (§5.17)
    "create_event": _EVENT, "alter_event": _EVENT, "drop_event": _EVENT,
    "event_body": {"opt_ev_on_completion": kw("ON COMPLETION NOT PRESERVE", "ON COMPLETION PRESERVE"),
                   "opt_ev_status": kw("", "DISABLE", "DISABLE ON SLAVE", "ENABLE"), "comment_opt": frag("literal"),
                   "ev_body": frag("body")},
    "newpub": {"objtype": kw("TABLE"), "identity": QUOTED, "myowner": META},
}


# (enum members read once: on Python 3.11 a read through an Enum class goes through a hook, ~800 instructions)
_NUMBER, _IDENTIFIER = Kind.NUMBER, Kind.IDENTIFIER


@lru_cache(maxsize=16384)
def verdict(v: str, slot: Slot) -> Verdict:
    """Whether the string ``v`` is in ``slot``'s class: (why not, or None; whether a paste is refused)."""
    if v == "" or (slot.words and _norm(v) in slot.words):  # "" prints nothing, in any slot
        return None, False
    why = "not in its class"
    for kind, form in slot.forms:
        if kind is _NUMBER:
            got: Verdict = (None if NUMBERS[form].match(v) else f"not {DESCRIBED[form]}"), False
        elif kind is _IDENTIFIER:
            got = identifier_verdict(v, form)
        else:
            got = fragment_verdict(v, form)
        if got[0] is None:
            return got
        why = got[0]
    words = [repr(w) for w in sorted(slot.words) if w]
    if not slot.forms:
        why = "a member that is never written raw" if slot.quoted or slot.meta else \
            f"not one of {' | '.join(words)}" if words else "not in its class"
    elif len(slot.forms) > 1 or words:  # say every class it could have had
        alts = [DESCRIBED.get(form, f"a fragment ({form})") for _, form in slot.forms]
        why = "not " + " or ".join(([f"one of {' | '.join(words)}"] if words else []) + alts)
    return why, False


# ---- the walk -------------------------------------------------------------------------------------------
_GENERIC = Slot(forms=((Kind.FRAGMENT, "text"),))  # a member of another version's form
BLOCKS = frozenset({"autoincrement-backfill"})  # shapes whose fmt is a PL/pgSQL block of the server's own


@lru_cache(maxsize=4096)  # a stream repeats a few hundred fmt strings
def _fmt_info(fmt: str, block: bool) -> tuple[str | None, frozenset[str], tuple[tuple[str, str | None, str], ...]]:
    """:func:`fmt_problem` of ``fmt`` and its specifiers ``(name, separator, conversion)``."""
    why, quoted = fmt_problem(fmt, block)
    specs = tuple(t for t in parse_fmt(fmt) if type(t) is not str and t[0] is not None)
    return why, quoted, specs  # type: ignore[return-value]


def _fail(message: str, path: Path, document: str | None) -> DdlcError:
    return DdlcError(message, code=E_FRAGMENT, path=path, document=document)


class _Walk:
    __slots__ = ("document", "unpastable")

    def __init__(self, document: str | None) -> None:
        self.document = document
        self.unpastable: list[Path] = []

    def node(self, obj: Mapping[str, Any], node: Mapping[str, Slot], path: Path, depth: int,
             block: bool = False) -> None:
        fmt = obj.get("fmt")
        if not isinstance(fmt, str) or obj.get("present", True) is False or depth > 64:
            return  # the expander and the builders report these
        why, quoted, specs = _fmt_info(fmt, block)
        if why is not None:
            raise _fail(f"{'the statement' if not path else 'an object'} is not a form the server writes: {why}",
                        path + ("fmt",), self.document)
        for name, sep, conv in specs:
            value = obj.get(name, _ABSENT)
            if value is _ABSENT:
                continue
            if quoted and name in quoted and not quote_free(value) and path + (name,) not in self.unpastable:
                self.unpastable.append(path + (name,))  # between the fmt's own quotes, unescaped
            if conv != "s":
                if conv == "T":
                    self.types(value, path + (name,))
                continue
            slot = node.get(CANONICAL.get(name, name), _GENERIC)
            if type(value) is str:  # the common case, as self.value would take it
                self.string(value, name, slot, path + (name,))
            elif sep is not None and isinstance(value, list):
                for i, elem in enumerate(value):
                    self.value(elem, name, slot, slot.items or slot.node, path + (name, i), depth)
            else:
                self.value(value, name, slot, slot.node, path + (name,), depth)

    def value(self, v: Any, name: str, slot: Slot, child: str | None, path: Path, depth: int) -> None:
        if isinstance(v, str):
            self.string(v, name, slot, path)
        elif isinstance(v, dict):
            self.node(v, NODES.get(child, {}) if child else {}, path, depth + 1)

    def string(self, v: str, name: str, slot: Slot, path: Path) -> None:
        why, refused = _verdict(v, slot)
        if why is not None:
            raise _fail(f"{name} {v[:60]!r} is {why} (a raw %s slot: {self.describe(slot)})", path, self.document)
        if refused and path not in self.unpastable:
            self.unpastable.append(path)

    def types(self, v: Any, path: Path) -> None:
        for i, t in enumerate(v if isinstance(v, list) else [v]):
            at = path + (i,) if isinstance(v, list) else path
            if not isinstance(t, dict):
                continue
            typmod = t.get("typmod")
            if isinstance(typmod, str) and typmod:
                check_typmod(typmod, at + ("typmod",), self.document)
            schema = next((t[k] for k in ("schemaname", "schema_name") if k in t), None)
            name = next((t[k] for k in ("typename", "type_name") if k in t), None)
            if schema == "" and isinstance(name, str):
                check_spelling(name, at + ("typename",), self.document)

    @staticmethod
    def describe(slot: Slot) -> str:
        parts = [k.value for k in slot.kinds] or (["never raw"] if slot.quoted or slot.meta else ["keyword ''"])
        return " or ".join(parts)


_ABSENT: Any = object()

# verdict's answers per slot object (the table's slots live as long as the process): a dict lookup by the
# string instead of hashing the (string, Slot) pair. Bounded: all answers are dropped past _MAX of them.
_VERDICTS: dict[int, tuple[Slot, dict[str, Verdict]]] = {}
_MAX = 16384
_count = 0


def _known(slot: Slot) -> dict[str, Verdict]:
    """The answers remembered for ``slot`` (a dict kept for the slot's life, emptied in place past _MAX)."""
    hit = _VERDICTS.get(id(slot))
    if hit is None or hit[0] is not slot:
        hit = _VERDICTS[id(slot)] = (slot, {})
    return hit[1]


def quick_of(slot: Slot) -> Any:
    """The ``match`` of a pattern whose texts are in ``slot``'s class, ``(None, False)``, without its verdict
    (:data:`~.sql.slotforms.QUICK_DOTTED`, :data:`~.sql.slotforms.QUICK_NAME`: the names a stream names afresh),
    or None: the slot check judges a new name by one match (and remembers it, as any verdict)."""
    if any(kind is Kind.FRAGMENT and form in QUICK_FRAGMENTS for kind, form in slot.forms):
        return QUICK_DOTTED.match
    if any(kind is Kind.IDENTIFIER and form in ("name", "words") for kind, form in slot.forms):
        return QUICK_NAME.match
    return None


_TAKEN: Verdict = (None, False)
# The slots of one :data:`~.sql.slotforms.CLEAN_FRAGMENTS` form (by id: the slot, whether a query): a text
# :func:`~.sql.fragment.clean_fragment` finds clean is in their class, ``(None, False)``, and that one reading
# serves the builders' check of the same text (tests/test_throughput_fragments.py).
_CLEAN_SLOTS: dict[int, tuple[Slot, bool]] = {
    id(s): (s, s.forms[0][1] == "query") for s in [_GENERIC, *(s for node in NODES.values() for s in node.values())]
    if len(s.forms) == 1 and s.forms[0][0] is Kind.FRAGMENT and s.forms[0][1] in CLEAN_FRAGMENTS}


def _learn(v: str, slot: Slot, known: dict[str, Verdict], quick: Any = None) -> Verdict:
    """:func:`verdict` of a string ``known`` does not hold yet, remembered there. ``quick``: the slot's
    :func:`quick_of`, whose texts are in the class without the verdict's reading (a new name)."""
    global _count
    if _count >= _MAX:
        for _, answers in list(_VERDICTS.values()):  # (a copy: another thread may add a slot meanwhile)
            answers.clear()
        _count = 0
    if quick is not None and quick(v) is not None:
        got = known[v] = _TAKEN
    elif (clean := _CLEAN_SLOTS.get(id(slot))) is not None and clean[0] is slot and clean_fragment(v, clean[1]):
        got = known[v] = _TAKEN  # a clean fragment (the common DEFAULT, CHECK, view query), for the builders too
    else:
        got = known[v] = verdict.__wrapped__(v, slot)  # (the lru_cache of verdict would hash the Slot again)
    _count += 1
    return got


def _verdict(v: str, slot: Slot) -> Verdict:
    """:func:`verdict`, remembered per slot object."""
    known = _known(slot)
    got = known.get(v)
    return _learn(v, slot, known) if got is None else got


# A fmt read as a node: its problem (or None) and, per specifier in order, what the walk needs of it (the
# member's slot and its remembered verdicts, whether the fmt quotes it, the node its object or its array's
# objects are read as, the match of the texts it takes at once: quick_of), worked out once per (fmt, node, block)
# instead of per document.
_Entry = tuple[str, "str | None", str, Slot, bool, "dict[str, Verdict]", "str | None", "str | None", Any]
_PLANS: dict[tuple[str, str | None, bool], tuple[str | None, tuple[_Entry, ...]]] = {}
_NO_SLOTS: dict[str, Slot] = {}


def _plan(fmt: str, node: str | None, block: bool) -> tuple[str | None, tuple[_Entry, ...]]:
    why, quoted, specs = _fmt_info(fmt, block)
    table = NODES.get(node, _NO_SLOTS) if node else _NO_SLOTS
    entries = []
    for name, sep, conv in specs:
        slot = table.get(CANONICAL.get(name, name), _GENERIC)
        entries.append((name, sep, conv, slot, name in quoted, _known(slot), slot.node, slot.items or slot.node,
                        quick_of(slot)))
    plan = why, tuple(entries)
    if len(_PLANS) < 8192:
        _PLANS[(fmt, node, block)] = plan
    return plan


class _Check(_Walk):
    """:class:`_Walk` by plans (:func:`_plan`): the same checks in the same order, a string's verdict looked up
    in its slot's answers directly, no path built unless it is reported or descended into."""

    __slots__ = ()

    def check(self, obj: Mapping[str, Any], node: str | None, path: Path, depth: int, block: bool = False) -> None:
        fmt = obj.get("fmt")
        if type(fmt) is not str and not isinstance(fmt, str) or obj.get("present", True) is False or depth > 64:
            return  # the expander and the builders report these
        plan = _PLANS.get((fmt, node, block))
        if plan is None:
            plan = _plan(fmt, node, block)
        why, entries = plan
        if why is not None:
            raise _fail(f"{'the statement' if not path else 'an object'} is not a form the server writes: {why}",
                        path + ("fmt",), self.document)
        for name, sep, conv, slot, inquote, known, child, items, quick in entries:
            value = obj.get(name, _ABSENT)
            if value is _ABSENT:
                continue
            if inquote and not quote_free(value) and path + (name,) not in self.unpastable:
                self.unpastable.append(path + (name,))  # between the fmt's own quotes, unescaped
            if conv != "s":
                if conv == "T":
                    self.types(value, path + (name,))
                continue
            if type(value) is str:  # the common case ("" prints nothing: in its class in any slot)
                if value:
                    got = known.get(value)
                    if got is None:
                        got = _learn(value, slot, known, quick)
                    if got[0] is not None or got[1]:
                        self.judged(value, name, slot, got, path + (name,))
            elif type(value) is dict:
                self.check(value, child, path + (name,), depth + 1)
            elif sep is not None and isinstance(value, list):
                for i, elem in enumerate(value):
                    if type(elem) is dict:
                        self.check(elem, items, path + (name, i), depth + 1)
                    else:
                        self.item(elem, name, slot, items, path + (name, i), depth)
            else:
                self.item(value, name, slot, child, path + (name,), depth)

    def item(self, v: Any, name: str, slot: Slot, child: str | None, path: Path, depth: int) -> None:
        if isinstance(v, str):
            got = _verdict(v, slot)
            if got[0] is not None or got[1]:
                self.judged(v, name, slot, got, path)
        elif isinstance(v, dict):
            self.check(v, child, path, depth + 1)

    def types(self, v: Any, path: Path) -> None:
        if type(v) is dict:
            self.type_of(v, path)
        elif isinstance(v, list):
            for i, t in enumerate(v):
                if isinstance(t, dict):
                    self.type_of(t, path + (i,))
        elif isinstance(v, dict):
            self.type_of(v, path)

    def type_of(self, t: Mapping[str, Any], at: Path) -> None:
        """A ``%T`` object's typmod and SQL-standard spelling, as :meth:`_Walk.types` checks them."""
        typmod = t.get("typmod")
        if isinstance(typmod, str) and typmod:
            check_typmod(typmod, at + ("typmod",), self.document)
        schema = t["schemaname"] if "schemaname" in t else t.get("schema_name") if "schema_name" in t else None
        if schema == "":
            name = t["typename"] if "typename" in t else t.get("type_name") if "type_name" in t else None
            if isinstance(name, str):
                check_spelling(name, at + ("typename",), self.document)

    def judged(self, v: str, name: str, slot: Slot, got: Verdict, path: Path) -> None:
        """A string outside its class (raised) or one a target must not paste (recorded)."""
        why, refused = got
        if why is not None:
            raise _fail(f"{name} {v[:60]!r} is {why} (a raw %s slot: {self.describe(slot)})", path, self.document)
        if refused and path not in self.unpastable:
            self.unpastable.append(path)


def check_tree(tree: Mapping[str, Any], shape: str | None, document: str | None = None) -> tuple[Path, ...]:
    """Check every raw slot of ``tree`` (built as the shape ``shape``) against :data:`NODES`: a value outside
    its class raises ``DDLC-E011``; the paths of the fragments a target must not paste as they came are
    returned (``Statement.unpastable``). A shape the table does not know is not read here."""
    if shape is None or shape not in NODES:
        return ()
    walk = _Check(document)
    walk.check(tree, shape, (), 0, shape in BLOCKS)
    return tuple(walk.unpastable) if walk.unpastable else ()


class _Slots(_Walk):
    __slots__ = ("found",)

    def __init__(self) -> None:
        super().__init__(None)
        self.found: list[tuple[Path, Slot | None, str]] = []

    def string(self, v: str, name: str, slot: Slot, path: Path) -> None:
        self.found.append((path, None if slot is _GENERIC else slot, v))


def raw_slots(tree: Mapping[str, Any], shape: str) -> list[tuple[Path, Slot | None, str]]:
    """Every string ``tree`` pastes with ``%s`` (read as the shape ``shape``): its path, its slot (None when
    the table does not list the member) and its value. For tests and tools; nothing is checked."""
    walk = _Slots()
    walk.node(tree, NODES.get(shape, {}), (), 0, shape in BLOCKS)
    return walk.found


__all__ = ["Kind", "NODES", "QUOTED", "META", "Slot", "check_tree", "fmt_problem", "quick_of", "raw_slots", "verdict"]
