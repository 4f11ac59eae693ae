"""ALTER TABLE / INDEX / VIEW / SEQUENCE / TYPE read from GaussDB text (reference §5.2, §5.3).

The subcommand templates are the ALTER readers' own (``frontend/build/alter*.py`` register each with
the ``fmt`` patterns the deparser writes), so every subcommand the builders model is read here, the
partition maintenance and M-compatible forms (``MODIFY``/``CHANGE``, ``FIRST``/``AFTER``) included;
this module says only what each placeholder holds.
"""

from __future__ import annotations

from typing import Any

from ...ir.alter import AlterObjType
from ...quoting import quote_ident
from ..build import load_families
from ..build.alter_partitions import SPECS
from ._common import CASCADE, COLLATION, COLUMN, DEFAULT, EXPR, GENERATED, IF_EXISTS, IF_NOT_EXISTS, OPTION, RAW_NAME
from ._match import Either, Frag, Shape, Spec, Words

_BOUND = Frag(stop=(",",))
_TBLSPC = Frag(words=True, max_tokens=1, empty=True)
_SUBPARTITION = Shape("SUBPARTITION %{name}I[ VALUES LESS THAN (%{maxvalue:, }s)| VALUES (%{maxvalue:, }s)]"
                      "[ TABLESPACE %{tblspc}s]", {"maxvalue": _BOUND, "tblspc": RAW_NAME})
# ADD COLUMN: the deparser's definition (an AUTO_INCREMENT column's stops after the collation, §3.3)
_ADD_COLUMN_DEF = Either((
    Shape("%{name}I %{coltype}T %{collation}s %{default}s %{generated_column}s",
          {"collation": COLLATION, "default": DEFAULT, "generated_column": GENERATED}, extra={"type": "column"}),
    Shape("%{name}I %{coltype}T %{collation}s", {"collation": COLLATION}, extra={"type": "column"}),
    COLUMN,
))

KEYS: dict[str, Spec] = {
    "objtype": Words(("COLUMN", "ATTRIBUTE")), "if_not_exists": IF_NOT_EXISTS, "if_exists": IF_EXISTS,
    "cascade": CASCADE, "add_first": Shape("FIRST"), "add_after_name": Shape("AFTER %{name}I"),
    "collation": COLLATION, "using": Shape("USING %{expression}s", {"expression": EXPR}, absent=True),
    "default": DEFAULT, "storage": Words(("PLAIN", "EXTERNAL", "EXTENDED", "MAIN")),
    "option": Words(("SET", "RESET")), "set_reset": Words(("SET", "RESET")), "options": OPTION,
    "charset": Frag(words=True, max_tokens=1), "collate": Frag(words=True, max_tokens=1), "on_update": EXPR, "not_null": Words(("NOT NULL", "NULL")),
    "generated_column": GENERATED, "constraint_type": Words(("PRIMARY KEY", "UNIQUE")),
    "deferrable": Words(("DEFERRABLE", "NOT DEFERRABLE")),
    "init_deferred": Words(("INITIALLY DEFERRED", "INITIALLY IMMEDIATE")),
    "compression": Words(("COMPRESS", "NOCOMPRESS")), "autoincstart": Frag(max_tokens=2),
    "ident": Either((Shape("USING INDEX %{index}I"), Words(("DEFAULT", "FULL", "NOTHING")))),
    "partition": RAW_NAME, "maxvalues": _BOUND, "subpartitions": _SUBPARTITION, "tblspc": RAW_NAME,
    "issub": Words(("PARTITION", "SUBPARTITION")), "name_list": RAW_NAME,
    "split_list": Shape("PARTITION %{name1}s %{tblspc1}s, PARTITION %{name2}s %{tblspc2}s",
                        {"name1": RAW_NAME, "name2": RAW_NAME, "tblspc1": _TBLSPC, "tblspc2": _TBLSPC}),
    "define_list": Shape("SUBPARTITION %{name1}s TABLESPACE %{tblspc1}s, SUBPARTITION %{name2}s TABLESPACE %{tblspc2}s"
                         "|SUBPARTITION %{name1}s %{tblspc1}s, SUBPARTITION %{name2}s %{tblspc2}s",
                         {"name1": RAW_NAME, "name2": RAW_NAME, "tblspc1": _TBLSPC, "tblspc2": _TBLSPC}),
    "partlist": Shape("PARTITION %{partname}s[ VALUES LESS THAN (%{maxvalues:, }s)][ TABLESPACE %{tblspc}s]",
                      {"partname": RAW_NAME, "maxvalues": _BOUND, "tblspc": RAW_NAME}),
    "gpi": Words(("UPDATE GLOBAL INDEX", "")), "partition_list": RAW_NAME, "name": RAW_NAME,
}
# placeholders whose content depends on the subcommand
_BY_TYPE: dict[str, dict[str, Spec]] = {
    "add column": {"definition": _ADD_COLUMN_DEF},
    "add constraint": {"definition": Frag(stop=(",",))},  # no top-level comma in a constraint
    "set default": {"definition": EXPR},
    "": {"default": EXPR},  # the follow-up ALTER COLUMN %{name}I SET DEFAULT %{default}s (untyped)
}


_LAST = ("add constraint", "set default")  # a fragment that could hold another subcommand's words: tried last


def _subcommands() -> list[Shape]:
    load_families()
    out = []
    for types, fmt in sorted(SPECS, key=lambda s: bool(s[0]) and s[0][0] in _LAST):
        keys = dict(KEYS)
        keys.update(_BY_TYPE.get(types[0] if types else "", {}))
        if not types and "%{default}s" in fmt:
            keys["default"] = EXPR
        out.append(Shape(fmt, keys, extra={"type": types[0]} if types else {}, post=_typed(types)))
    return out


def _typed(types: tuple[str, ...]):
    """Readers registered for two types told apart by their fmt (``alter index visible``/``invisible``)."""
    if len(types) < 2:
        return None

    def post(tree):
        if types[0].startswith("alter index"):
            tree["type"] = "alter index invisible" if tree["fmt"].endswith("INVISIBLE") else "alter index visible"
        return tree

    return post


def _statement(tree: dict[str, Any]) -> dict[str, Any]:
    subs = tree["subcmds"]
    for i, sub in enumerate(subs):  # REBUILD PARTITION p: of an index partition on ALTER INDEX, else dolphin's
        if tree["objtype"] == "INDEX" and sub.get("type") == "remove partitioning" and \
                len(sub.get("partition_list", ())) == 1:
            name = sub["partition_list"][0]
            subs[i] = {"fmt": "REBUILD PARTITION %{partition_identity}I", "type": "rebuild partition index",
                       "partition_identity": name[1:-1].replace('""', '"') if name.startswith('"') else name}
        elif tree["objtype"] != "INDEX" and sub.get("type") == "rebuild partition index":
            subs[i] = {"fmt": "REBUILD PARTITION %{partition_list:, }s", "type": "remove partitioning",
                       "partition_list": [quote_ident(sub["partition_identity"])]}
    if tree["objtype"] == "TABLE" and all("type" not in s for s in subs) and "if_exists" not in tree:
        return {**tree, "fmt": "ALTER TABLE %{only}s %{identity}D %{subcmds:, }s"}  # forms only follow-ups have
    return tree


ALTER = Shape(  # GaussDB's ALTER TABLE IF EXISTS: the if_exists member before only (frontend/build/alter.py)
    "ALTER %{objtype}s[ %{if_exists}s] %{only}s %{identity}D %{subcmds:, }s",
    {"objtype": Words(tuple(t.value for t in AlterObjType)), "if_exists": Words(("IF EXISTS",)),
     "only": Words(("ONLY", "")), "subcmds": Either(tuple(_subcommands()))},
    final=_statement,  # reads the subcommands: once, on the statement read whole
)

SHAPES = {r"ALTER (?:TABLE|INDEX|VIEW|TYPE|SEQUENCE|LARGE SEQUENCE|FOREIGN TABLE|MATERIALIZED VIEW) ": ALTER}
