"""ddlc — a DDL deparse-and-translate compiler for GaussDB/openGauss JDDL.

>>> import ddlc
>>> ddlc.translate('{"fmt": "DROP TABLE %{t}D", "t": {"objname": "t", "schemaname": "s"}}').sql
'DROP TABLE s.t;\\n'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .version import __version__

__all__ = ["translate", "translate_many", "Translation", "Options", "DdlcError", "Diagnostic", "DEFAULT_TARGET",
           "apply", "__version__"]

if TYPE_CHECKING:  # pragma: no cover
    from .api import Options, Translation, translate, translate_many
    from .diagnostics import Diagnostic
    from .errors import DdlcError


def __getattr__(name: str) -> Any:  # lazy: `import ddlc` stays cheap
    value = _lazy(name)
    if name != "apply":  # kept: the next read finds it without this call (~10k instructions: an import statement)
        globals()[name] = value
    return value


def _lazy(name: str) -> Any:
    if name in ("translate", "translate_many", "Translation", "Options"):
        from . import api

        return getattr(api, name)
    if name == "apply":  # the package ddlc.apply, callable: ddlc.apply(log, dsn=...) (psycopg: ddlc[apply])
        import sys

        from .apply import ApplyResult  # noqa: F401  (imports the package, which sets ddlc.apply)

        return sys.modules[__name__ + ".apply"]
    if name == "DEFAULT_TARGET":
        from .options import DEFAULT_TARGET

        return DEFAULT_TARGET
    if name == "DdlcError":
        from .errors import DdlcError

        return DdlcError
    if name == "Diagnostic":
        from .diagnostics import Diagnostic

        return Diagnostic
    raise AttributeError(f"module 'ddlc' has no attribute {name!r}")
