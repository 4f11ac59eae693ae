"""CREATE VIEW (reference §5.7).

``query`` is ``pg_get_viewdef`` text exactly as the server wrote it (ending with ``;``), with its
parsed form (``query.tree``, a pglast ``SelectStmt``) made once by the frontend's SQL layer:
``parsed`` says whether that worked and ``references`` lists the relations it reads (RangeVar
nodes, CTE names excluded) for later passes.
"""

from __future__ import annotations

from .names import Expr, QualifiedName
from .base import node
from .sequence import Persistence
from .statement import Statement


@node
class CreateView(Statement):
    identity: QualifiedName
    query: Expr
    or_replace: bool = False
    persistence: Persistence = Persistence.PERMANENT
    parsed: bool = False
    references: tuple[QualifiedName, ...] = ()


__all__ = ["CreateView"]
