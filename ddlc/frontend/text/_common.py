"""Value specs the statement families share: column definitions, WITH options, keyword words."""

from __future__ import annotations

from ._match import Either, Frag, Ident, Shape, Words

EXPR = Frag(stop=(",",))  # a scalar fragment inside a comma-separated list
IF_EXISTS = Words(("IF EXISTS", ""))
IF_NOT_EXISTS = Words(("IF NOT EXISTS", ""))
CASCADE = Words(("CASCADE", ""))
RAW_NAME = Ident(raw=True)  # a name the tree holds as written (``%s``)

COLLATION = Shape("COLLATE %{name}D", absent=True)
DEFAULT = Shape("DEFAULT %{default}s", {"default": EXPR}, absent=True)
GENERATED = Shape(
    "GENERATED ALWAYS AS (%{generation_expr}s) STORED|AS (%{generation_expr}s) PERSISTED",
    {"generation_expr": Frag()}, absent=True, absent_fmt="GENERATED ALWAYS AS (%{generation_expr}s) STORED",
)

# a column definition (reference §3.3), in the order the deparser writes its fragments
COLUMN = Shape(
    "%{name}I %{coltype}T %{collation}s[ %{auto_increment}s] %{default}s[ ON UPDATE %{on_update}s]"
    "[ %{not_null}s] %{generated_column}s",
    {"collation": COLLATION, "auto_increment": Words(("AUTO_INCREMENT",)), "default": DEFAULT,
     "on_update": EXPR, "not_null": Words(("NOT NULL",)), "generated_column": GENERATED},
    extra={"type": "column"},
)

OPTION_LABEL = Shape("%{label}I|%{schema}I. %{label}I")
# a WITH / SET option element (§3.5); RESET lists have the label alone
OPTION = Shape(
    "%{label}s = %{value}L|%{label}s = %{value}s|%{label}s",
    {"label": OPTION_LABEL, "value": Either((Frag(stop=(",",)),))},
)
