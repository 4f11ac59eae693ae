"""Functions and procedures (reference §3.9, §5.8, §5.9).

CREATE FUNCTION arrives as one opaque string, the whole ``pg_get_functiondef`` text
(``{"fmt": "%{function}s", "function": "CREATE OR REPLACE FUNCTION ..."}``). ddlc reads its
header with the frontend's SQL layer (:mod:`ddlc.frontend.sql.functext`) into
:class:`CreateFunction`; the body is kept exactly as written. The GaussDB target writes the
original text back (with the name spliced in when a pass renamed the function); the parsed fields
are for the other targets (and for renames by passes).
"""

from __future__ import annotations

import enum

from .base import Node, fields, layout_field, node, source_text
from .names import Expr, QualifiedName, TypeName
from .statement import Statement


class RoutineKind(str, enum.Enum):
    FUNCTION = "FUNCTION"
    PROCEDURE = "PROCEDURE"


class FunctionStyle(str, enum.Enum):
    """How the header and body are written.

    * ``POSTGRES``: ``RETURNS <type>`` + ``LANGUAGE <lang>``, body in a quoted literal
      (``$function$...$function$`` from ``pg_get_functiondef``, ``'...'`` in GaussDB TDDL);
    * ``ORACLE``: ``RETURN <type>`` without a LANGUAGE line (or a procedure), body written bare
      after ``AS``/``IS`` and ended by ``;``. Such functions are PL/SQL-flavoured (plpgsql).
    """

    POSTGRES = "postgres"
    ORACLE = "oracle"


class ArgMode(str, enum.Enum):
    IN = "IN"
    OUT = "OUT"
    INOUT = "INOUT"  # also ``IN OUT`` (Oracle spelling)
    VARIADIC = "VARIADIC"


class Volatility(str, enum.Enum):
    """Values as the parse tree stores them (lower case; ALTER FUNCTION prints them so)."""

    IMMUTABLE = "immutable"
    STABLE = "stable"
    VOLATILE = "volatile"


class NullInput(str, enum.Enum):
    CALLED = "CALLED ON NULL INPUT"
    RETURNS_NULL = "RETURNS NULL ON NULL INPUT"
    STRICT = "STRICT"  # same meaning as RETURNS_NULL (the spelling pg_get_functiondef uses)

    @property
    def strict(self) -> bool:
        return self is not NullInput.CALLED


class Security(str, enum.Enum):
    """``AUTHID`` spellings are printed when ``plsql_security_definer`` is on (same meaning)."""

    DEFINER = "SECURITY DEFINER"
    INVOKER = "SECURITY INVOKER"
    AUTHID_DEFINER = "AUTHID DEFINER"
    AUTHID_CURRENT_USER = "AUTHID CURRENT_USER"

    @property
    def definer(self) -> bool:
        return self in (Security.DEFINER, Security.AUTHID_DEFINER)


@node
class FunctionArg(Node):
    """One argument: ``[mode] [name] type [DEFAULT expr]``. ``mode`` None: not written (IN)."""

    type: str  # type text as written (``integer``, ``character varying``, ``public.t%ROWTYPE``)
    name: str | None = None
    mode: ArgMode | None = None
    default: str | None = None  # DEFAULT expression text as written
    # its parsed form, made by the SQL layer at build time (what targets other than GaussDB write)
    default_expr: Expr | None = None

    _not_compared = ("default_expr",)


@node
class FunctionReturn(Node):
    """``RETURNS [SETOF] type`` or ``RETURNS TABLE(col type, ...)`` (``table`` non-empty)."""

    type: str = ""  # without SETOF; "" for TABLE(...)
    setof: bool = False
    table: tuple[FunctionArg, ...] = ()


@node
class FunctionOptions(Node):
    """The option words of a CREATE FUNCTION header (None / False = not written)."""

    window: bool = False
    volatility: Volatility | None = None
    null_input: NullInput | None = None
    security: Security | None = None
    leakproof: bool | None = None  # False = NOT LEAKPROOF
    fenced: bool | None = None  # openGauss: FENCED / NOT FENCED
    shippable: bool | None = None  # openGauss: SHIPPABLE / NOT SHIPPABLE
    package: bool = False  # openGauss: PACKAGE (overloading inside packages)
    cost: str | None = None  # number text as printed (``%g``)
    rows: str | None = None
    parallel_enable: str | None = None  # openGauss ``PARALLEL_ENABLE (PARTITION a BY ANY)``: the text after the keyword
    parallel: str | None = None  # PostgreSQL ``PARALLEL SAFE|RESTRICTED|UNSAFE``
    pipelined: bool = False  # openGauss PIPELINED
    deterministic: bool = False  # A-compatibility DETERMINISTIC (after the return type)
    comment: str | None = None  # B-compatibility COMMENT 'text' (the value)


@node
class SetOption(Node):
    """``SET name TO value``: ``value`` is the text as printed (a quoted literal, or the bare
    list of DateStyle/search_path such as ``"$user", public``); None for ``FROM CURRENT``."""

    name: str
    value: str | None


@node
class CreateFunction(Statement):
    """CREATE FUNCTION / CREATE PROCEDURE from the whole statement text.

    ``text`` is the source of truth for the GaussDB target. ``name`` is the function itself; a
    package member (``schema.pkg.fn``, or a member function of an object type) has ``package``
    set. ``definer`` is the B-compatibility ``CREATE DEFINER = user FUNCTION`` header (no OR
    REPLACE then). ``body`` is exactly the text between the quotes (unescaped for a ``'...'``
    body, whose ``body_tag`` is ``'``); for Oracle-style bodies ``body_tag`` is None and
    ``body`` runs from after ``AS`` to before the final ``;``. ``probin`` is the object file of
    a C function (``AS 'file', 'symbol'``: ``body`` is the symbol).

    Parse once: ``name_span`` is where the name (``schema.pkg.name``) sits in ``text`` and
    ``name_text`` that name as written, both set by the parser. A pass that changes ``name`` or
    ``package`` clears ``name_text`` (the GaussDB target splices the new name into ``text`` at
    ``name_span``); a change to any other parsed field clears ``name_span`` (the target renders
    the statement from the fields). See :func:`ddlc.ir.base.source_text`.
    """

    text: str
    name: QualifiedName
    package: str | None = None
    or_replace: bool = False
    definer: str | None = None
    is_procedure: bool = False
    arguments: tuple[FunctionArg, ...] = ()
    returns: FunctionReturn | None = None  # None for procedures
    style: FunctionStyle = FunctionStyle.POSTGRES
    language: str | None = None
    options: FunctionOptions = FunctionOptions()
    set_options: tuple[SetOption, ...] = ()
    probin: str | None = None
    body: str = ""
    body_tag: str | None = None
    name_span: tuple[int, int] | None = None
    name_text: str | None = None


source_text(
    "CreateFunction",
    name_text=("name", "package"),
    name_span=tuple(f for f in fields(CreateFunction)
                    if f not in ("origin", "layout", "name", "package", "name_span", "name_text")),
)


# ---- ALTER FUNCTION / ALTER PROCEDURE ---------------------------------------------------------
@node
class RoutineSignature(Node):
    """``schema.name (argtype, ...)``: input argument types only (§3.9). ``arguments`` None: no
    argument list was written (TDDL ``ALTER FUNCTION f IMMUTABLE``; trees always have one)."""

    name: QualifiedName
    arguments: tuple[TypeName, ...] | None = ()
    layout: str | None = layout_field()


class FunctionActionKind(str, enum.Enum):
    VOLATILITY = "volatility"  # volatility
    NULL_INPUT = "null_input"  # null_input: RETURNS_NULL or CALLED
    SECURITY = "security"  # security
    LEAKPROOF = "leakproof"  # on: LEAKPROOF / NOT LEAKPROOF
    COST = "cost"  # number
    ROWS = "rows"  # number; None = ``ROWS 0``, sent as a not-present element (prints nothing)
    SET = "set"  # name, value; list_form: value pre-quoted text (``TO %{set_value}s``)
    SET_FROM_CURRENT = "set_from_current"  # name (only from TDDL; JDDL prints it as RESET, §10.4)
    RESET = "reset"  # name
    RESET_ALL = "reset_all"
    PARALLEL = "parallel"  # value (``safe``...)


@node
class FunctionAction(Node):
    kind: FunctionActionKind
    volatility: Volatility | None = None
    null_input: NullInput | None = None
    security: Security | None = None
    on: bool = True
    number: int | float | None = None
    name: str | None = None
    value: str | None = None
    list_form: bool = False
    layout: str | None = layout_field()


@node
class AlterFunction(Statement):
    """``ALTER FUNCTION|PROCEDURE signature action ...`` (§5.9).

    Known server defect (reference §10 item 4): ``SET x FROM CURRENT`` is deparsed as
    ``RESET x``. A ``RESET`` action in a JDDL tree may therefore have been ``SET x FROM
    CURRENT`` on the publisher; the tree does not tell, so ddlc replays it as RESET.
    The openGauss-only actions ([NOT] FENCED, [NOT] SHIPPABLE, PACKAGE, COMMENT,
    PARALLEL_ENABLE) never reach a tree: the user's ALTER fails on the server (§10 item 3).
    """

    kind: RoutineKind
    signature: RoutineSignature
    actions: tuple[FunctionAction, ...] = ()


__all__ = [
    "RoutineKind", "FunctionStyle", "ArgMode", "Volatility", "NullInput", "Security", "FunctionArg",
    "FunctionReturn", "FunctionOptions", "SetOption", "CreateFunction", "RoutineSignature",
    "FunctionActionKind", "FunctionAction", "AlterFunction",
]
