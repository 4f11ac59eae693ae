"""The GaussDB writer: builds JDDL objects (openGauss key spelling) from IR nodes.

Each family module tags its functions with :func:`emits`; :class:`GaussDBBackend` collects them
into its ``emitters`` table and hands it to the writer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...errors import InternalError
from ...ir.type_limits import check_type_limits
from ...ir.base import Node
from ...ir.names import Expr, QualifiedName, TypeName
from ..base import emits

__all__ = ["Writer", "emits"]


class Writer:
    """Builds JDDL objects from IR nodes through the backend's node → emitter table."""

    __slots__ = ("emitters",)

    def __init__(self, emitters: Mapping[type, Any]) -> None:
        self.emitters = emitters

    def tree(self, n: Node) -> dict[str, Any]:
        try:
            fn = self.emitters[type(n)]
        except KeyError:
            raise InternalError(f"gaussdb: no emitter for {type(n).__name__}", path=n.origin) from None
        return fn(n, self)

    @staticmethod
    def qname(q: QualifiedName) -> dict[str, Any]:
        d: dict[str, Any] = {"objname": q.name}
        if q.schema is not None:
            d["schemaname"] = q.schema
        if q.attr is not None:
            d["attrname"] = q.attr
        return d

    @staticmethod
    def type(t: TypeName) -> dict[str, Any]:
        if t.typmod:  # the server's limits (frontend/sql/typmod.py): never written unchecked
            check_type_limits(t.name, t.schema, t.typmod, t.origin)
        d: dict[str, Any] = {"typmod": t.typmod, "typarray": t.array, "typename": t.name}
        if t.schema is not None:
            d["schemaname"] = t.schema
        return d

    @staticmethod
    def absent(fmt: str) -> dict[str, Any]:
        return {"fmt": fmt, "present": False}

    @staticmethod
    def text(e: Expr | str) -> str:
        return e.text if isinstance(e, Expr) else e
