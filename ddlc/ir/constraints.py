"""Table constraints in the IR: the parsed form of a constraint definition and its vocabularies.

The classes live with the nodes that carry them (:mod:`ddlc.ir.table`: a CREATE TABLE constraint
element, :class:`~ddlc.ir.table.TableConstraint`; :class:`ddlc.ir.alter.AddConstraint` for ALTER
TABLE) and are re-exported here. The definition text is parsed once, at build time, by the
frontend's SQL layer (:mod:`ddlc.frontend.sql.constraints`), which also records on the carrying node
the facts about the text a target needs (informational prefix, ``DISABLE``, ``MATCH PARTIAL``,
whether the text is PostgreSQL syntax as written: ``verbatim``). Nothing in the IR parses.
"""

from __future__ import annotations

from .table import ConstraintInfo, ConstraintKind, FkAction, FkMatch


__all__ = ["ConstraintInfo", "ConstraintKind", "FkAction", "FkMatch"]
