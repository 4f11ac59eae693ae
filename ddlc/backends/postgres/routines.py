"""PostgreSQL emitters: CREATE FUNCTION / PROCEDURE, ALTER FUNCTION / PROCEDURE, CREATE TRIGGER.

Functions are rebuilt from the header ddlc parsed (:mod:`ddlc.frontend.sql.functext`): names quoted for
PostgreSQL, GaussDB type names mapped, the body written **byte for byte** in a dollar quote (a
``'...'`` TDDL body is unescaped first, so the body PostgreSQL stores is the one GaussDB stored).
Oracle-style routines (``RETURN type AS|IS <bare body>``, procedures with a bare body) and package
members have no PostgreSQL form and are refused; ddlc does not rewrite PL/SQL.

Decisions (see also the diagnostics' explanations):

* ``NOT FENCED``, ``[NOT] SHIPPABLE`` and ``PACKAGE`` mean nothing on a single PostgreSQL server
  (functions run in the server process, nothing is shipped, overloading is always allowed): they
  are dropped with an *information* code, written in the emitter and not as a capability rule,
  because every openGauss function carries them and ``--on-unsupported error`` must not refuse
  every function. ``FENCED`` (isolation PostgreSQL cannot give) is a warning rule.
* ``AUTHID DEFINER`` / ``AUTHID CURRENT_USER`` are written ``SECURITY DEFINER`` / ``SECURITY
  INVOKER`` (same meaning); a B-compatible ``COMMENT 'c'`` becomes a ``COMMENT ON FUNCTION``.
* ``CREATE DEFINER = u FUNCTION`` and trigger ``DEFINER=u`` lose the definer (warning): the applying
  user owns the object (``--owners``: the role that ran the statement; ``ddlc/backends/postgres/owners.py``).
* ``CREATE TRIGGER IF NOT EXISTS``: PostgreSQL 15 has no such form. GaussDB logs the statement only
  when it created the trigger, so ddlc writes a plain ``CREATE TRIGGER`` (warning): on a diverged
  target it fails loudly. ``CREATE OR REPLACE TRIGGER`` was rejected: it would silently replace a
  different trigger of the same name.
* Triggers with an inline B-compatible body (no trigger function) are refused.
"""

from __future__ import annotations

import functools
import re
from typing import Any

import msgspec.structs

from ...errors import InternalError
from ...diagnostics import Severity, register
from ...ir.names import Expr, TypeName
from ...ir.rules import Rule
from ...ir.routine import (
    AlterFunction, ArgMode, CreateFunction, FunctionAction, FunctionActionKind, FunctionArg, FunctionStyle, NullInput,
    RoutineKind, Security, Volatility,
)
from ...ir.trigger import CreateTrigger, TriggerEventKind, TriggerLevel, TriggerTiming
from ..writer import joined, paren_items, pg_ident, pg_literal, words
from .context import Emit, emits
from .types import QUIET, TYPE_MAP
from ... import lazyre

S = Severity
W_ORACLE = register(
    "DDLC-W730", S.WARNING, "Oracle-style routine has no PostgreSQL form",
    "The function or procedure is written in GaussDB's Oracle style (`RETURN type AS|IS <body>`, or a "
    "procedure body without LANGUAGE and quotes), or has no LANGUAGE. Its body is PL/SQL that PostgreSQL's "
    "PL/pgSQL does not accept in general, and ddlc does not rewrite it. Nothing is emitted; with "
    "--on-unsupported comment the GaussDB text is kept as an SQL comment.",
    "CREATE OR REPLACE FUNCTION public.f(a integer) RETURN integer AS BEGIN RETURN a; END;",
)
W_DEFINER = register(
    "DDLC-W731", S.WARNING, "DEFINER dropped",
    "B-compatibility `CREATE DEFINER = user FUNCTION` and trigger `DEFINER=user` name the owner whose "
    "rights the object runs with. The definer is dropped and the object belongs to the user that applies "
    "the DDL (with `--owners`, to the role that ran the statement: README \"Owners\"). `--no-owner` removes "
    "the definer without this warning.",
    "CREATE DEFINER = bob FUNCTION ...",
)
W_FENCED = register(
    "DDLC-W732", S.WARNING, "FENCED dropped",
    "openGauss runs a FENCED function in a separate process. PostgreSQL always runs functions in the "
    "server process; the option is dropped.",
    "CREATE FUNCTION ... FENCED ...",
)
W_OG_OPTION = register(
    "DDLC-W733", S.WARNING, "openGauss-only function option dropped",
    "PIPELINED, DETERMINISTIC and PARALLEL_ENABLE have no exact PostgreSQL counterpart; the option is "
    "dropped (declare the volatility or PARALLEL SAFE by hand if needed).",
    "CREATE FUNCTION ... PARALLEL_ENABLE (PARTITION a BY ANY) ...",
)
W_PROC_OPTION = register(
    "DDLC-W734", S.WARNING, "Option a PostgreSQL procedure does not take dropped",
    "PostgreSQL procedures accept only LANGUAGE, SECURITY, SET/RESET and the body: a volatility other than "
    "VOLATILE, STRICT, LEAKPROOF, COST, ROWS or PARALLEL on a GaussDB procedure (CREATE or ALTER "
    "PROCEDURE) is dropped. An ALTER PROCEDURE left without actions emits nothing.",
    "ALTER PROCEDURE public.p () IMMUTABLE",
)
W_UNPARSED = register(
    "DDLC-W735", S.WARNING, "Translated routine does not parse as PostgreSQL",
    "After translation the CREATE FUNCTION/PROCEDURE statement does not parse with PostgreSQL's grammar "
    "(pglast), for example because an argument type is written in a GaussDB-only syntax. Nothing is "
    "emitted; with --on-unsupported comment the GaussDB text is kept as an SQL comment.",
)
W_PACKAGE_MEMBER = register(
    "DDLC-W736", S.WARNING, "Package member function not translated",
    "The function belongs to a package (`schema.package.function`, or a member of an object type). "
    "PostgreSQL has no packages; nothing is emitted (with --on-unsupported comment the text is kept as a "
    "comment).",
    "CREATE OR REPLACE FUNCTION public.pkg.f(a integer) ...",
)
W_TRIGGER_INE = register(
    "DDLC-W737", S.WARNING, "CREATE TRIGGER IF NOT EXISTS written as CREATE TRIGGER",
    "PostgreSQL 15 has no CREATE TRIGGER IF NOT EXISTS. GaussDB logs such a statement only when it created "
    "the trigger, so ddlc writes a plain CREATE TRIGGER, which fails if the target already has a trigger "
    "of that name. CREATE OR REPLACE TRIGGER is not used: it would silently replace that trigger.",
    "CREATE TRIGGER IF NOT EXISTS trg ...",
)
W_TRIGGER_BODY = register(
    "DDLC-W738", S.WARNING, "Trigger with an inline body not translated",
    "A B-compatibility trigger with an inline `BEGIN ... END` body has no trigger function; PostgreSQL "
    "triggers always call one, and ddlc does not rewrite the MySQL-style body. Nothing is emitted; with "
    "--on-unsupported comment the GaussDB text is kept as an SQL comment.",
    "CREATE DEFINER = bob TRIGGER trg AFTER INSERT ON db1.t FOR EACH ROW BEGIN ... END",
)
I_NO_MEANING = register(
    "DDLC-I730", S.INFO, "GaussDB function option without PostgreSQL meaning dropped",
    "NOT FENCED (PostgreSQL runs every function in the server process), SHIPPABLE / NOT SHIPPABLE (no "
    "distributed execution), PACKAGE (overloading is always allowed), and on procedures the default "
    "options GaussDB prints (VOLATILE, CALLED ON NULL INPUT, NOT LEAKPROOF, COST) are dropped: PostgreSQL "
    "behaves the same without them.",
    "CREATE FUNCTION ... NOT FENCED NOT SHIPPABLE ...",
)
I_AUTHID = register(
    "DDLC-I731", S.INFO, "AUTHID written as SECURITY",
    "`AUTHID DEFINER` / `AUTHID CURRENT_USER` (printed when plsql_security_definer is on) mean "
    "`SECURITY DEFINER` / `SECURITY INVOKER`, which PostgreSQL spells so.",
)
I_COMMENT = register(
    "DDLC-I732", S.INFO, "Function COMMENT written as COMMENT ON",
    "The B-compatibility `COMMENT 'text'` option of CREATE FUNCTION is written as a separate "
    "`COMMENT ON FUNCTION name(argument types) IS 'text'` statement after it.",
)

_OG_TYPE = lazyre.compile(r'(?:(pg_catalog)\.)?([a-z_][a-z0-9_]*)\s*(\([0-9 ,]*\))?((?:\s*\[\s*\])*)\Z')


# Enum members read once, here: on Python 3.11 reading a member through its class (``FunctionStyle.ORACLE``)
# goes through the enum metaclass's ``__getattr__`` hook (~800 instructions), a module name is one dict read.
_ORACLE, _PROCEDURE = FunctionStyle.ORACLE, RoutineKind.PROCEDURE
_A_VOLATILITY, _A_NULL_INPUT, _A_SECURITY = (FunctionActionKind.VOLATILITY, FunctionActionKind.NULL_INPUT,
                                             FunctionActionKind.SECURITY)
_A_LEAKPROOF, _A_COST, _A_ROWS, _A_SET = (FunctionActionKind.LEAKPROOF, FunctionActionKind.COST, FunctionActionKind.ROWS,
                                          FunctionActionKind.SET)
_A_SET_FROM_CURRENT, _A_RESET, _A_RESET_ALL, _A_PARALLEL = (FunctionActionKind.SET_FROM_CURRENT, FunctionActionKind.RESET,
                                                            FunctionActionKind.RESET_ALL, FunctionActionKind.PARALLEL)


# ---- predicates shared by the rules and the emitters ----------------------------------------------
def _oracle(n: CreateFunction) -> bool:
    return n.style is _ORACLE or not n.language


def _translatable(n: CreateFunction) -> bool:
    return n.package is None and not _oracle(n)


_PROC_FIELDS = ("window", "volatility", "null_input", "leakproof", "cost", "rows", "parallel")


def _proc_default(field: str, v: Any) -> bool:
    """The option's value is absent or what a procedure has anyway."""
    return (v in (None, False) or (field == "volatility" and v is Volatility.VOLATILE)
            or (field == "null_input" and v is NullInput.CALLED) or (field == "cost" and _num_eq(v, 100))
            or (field == "parallel" and str(v).lower() == "unsafe"))


def _num_eq(text: Any, value: float) -> bool:
    try:
        return float(text) == value
    except (TypeError, ValueError):
        return False


def _proc_extra(n: CreateFunction) -> list[str]:
    return [f for f in _PROC_FIELDS if not _proc_default(f, getattr(n.options, f))]


def _proc_word(field: str, v: Any) -> str:
    if field == "leakproof":
        return "LEAKPROOF" if v else "NOT LEAKPROOF"
    if field in ("cost", "rows", "parallel"):
        return f"{field.upper()} {str(v).upper()}"
    return getattr(v, "value", str(v)).upper()


def _opts(n: CreateFunction, **changes: Any) -> CreateFunction:
    return msgspec.structs.replace(n, options=msgspec.structs.replace(n.options, **changes))


_ALTER_PROC_OK = frozenset({FunctionActionKind.SECURITY, FunctionActionKind.SET, FunctionActionKind.SET_FROM_CURRENT,
                            FunctionActionKind.RESET, FunctionActionKind.RESET_ALL})


def _proc_action_ok(a: FunctionAction) -> bool:
    return a.kind in _ALTER_PROC_OK or (a.kind is FunctionActionKind.ROWS and a.number is None)


# The rules that rewrite a function's options (FENCED, PIPELINED, DETERMINISTIC, PARALLEL_ENABLE, a
# procedure's options) keep a hand-written text: GaussDB writes a CREATE FUNCTION from its own text (only the
# signature and DEFINER from the tree), which they leave as it is, so no difference can show the clause.
UNSUPPORTED = (
    Rule(CreateFunction, W_PACKAGE_MEMBER, "package member function: PostgreSQL has no packages",
         applies=lambda n: n.package is not None),
    Rule(CreateFunction, W_ORACLE, "Oracle-style function/procedure: no PostgreSQL form",
         applies=lambda n: n.package is None and _oracle(n)),
    Rule(CreateFunction, W_DEFINER, "DEFINER dropped", field="definer",
         applies=lambda n: _translatable(n) and n.definer is not None),
    Rule(CreateFunction, W_FENCED, "FENCED dropped (PostgreSQL runs functions in the server process)",
         applies=lambda n: _translatable(n) and n.options.fenced is True, rewrite=lambda n: _opts(n, fenced=None),
         text=lambda n: "FENCED"),
    Rule(CreateFunction, W_OG_OPTION, "PIPELINED dropped", applies=lambda n: _translatable(n) and n.options.pipelined,
         rewrite=lambda n: _opts(n, pipelined=False), text=lambda n: "PIPELINED"),
    Rule(CreateFunction, W_OG_OPTION, "DETERMINISTIC dropped",
         applies=lambda n: _translatable(n) and n.options.deterministic,
         rewrite=lambda n: _opts(n, deterministic=False), text=lambda n: "DETERMINISTIC"),
    Rule(CreateFunction, W_OG_OPTION, "PARALLEL_ENABLE dropped",
         applies=lambda n: _translatable(n) and n.options.parallel_enable is not None,
         rewrite=lambda n: _opts(n, parallel_enable=None),
         text=lambda n: f"PARALLEL_ENABLE {n.options.parallel_enable}"),
    Rule(CreateFunction, W_PROC_OPTION, "option a PostgreSQL procedure does not take dropped",
         applies=lambda n: _translatable(n) and n.is_procedure and bool(_proc_extra(n)),
         rewrite=lambda n: _opts(n, **{f: getattr(type(n.options)(), f) for f in _proc_extra(n)}),
         text=lambda n: ", ".join(_proc_word(f, getattr(n.options, f)) for f in _proc_extra(n))),
    Rule(AlterFunction, W_PROC_OPTION, "ALTER PROCEDURE action PostgreSQL procedures do not take dropped",
         applies=lambda n: n.kind is _PROCEDURE and not all(_proc_action_ok(a) for a in n.actions),
         rewrite=lambda n: msgspec.structs.replace(n, actions=tuple(a for a in n.actions if _proc_action_ok(a)),
                                                   layout=None)),
    Rule(CreateFunction, W_UNPARSED,
         lambda n: f"the translated routine does not parse as PostgreSQL ({_problem(n)}); not emitted",
         applies=lambda n: _translatable(n) and _problem(n) is not None, last=True),
    Rule(CreateTrigger, W_TRIGGER_BODY, "trigger with an inline body: PostgreSQL triggers call a function",
         applies=lambda n: n.body is not None or n.function is None),
    Rule(CreateTrigger, W_DEFINER, "trigger DEFINER dropped", field="definer",
         applies=lambda n: n.definer is not None),
    Rule(CreateTrigger, W_TRIGGER_INE, "CREATE TRIGGER IF NOT EXISTS written as CREATE TRIGGER", field="if_not_exists",
         absent=False, applies=lambda n: n.if_not_exists),
)


# ---- types and arguments ----------------------------------------------------------------------------
def type_text(text: str, e: Emit, origin: Any = ()) -> str:
    """A type written as text in a function header: GaussDB catalog names mapped, others kept."""
    m = _OG_TYPE.match(text.strip())
    if m is None:
        return text
    schema, name, typmod, arr = m.groups()
    if name not in TYPE_MAP:
        return text
    out = e.type(TypeName(name, schema, (typmod or "").replace(" ", ""), origin=origin))
    return out + "[]" * (arr or "").count("[")


def guc(name: str) -> str:
    """A configuration parameter name: ``work_mem``, ``plpgsql.extra_warnings`` (parts quoted apart)."""
    return ".".join(pg_ident(p) for p in name.split("."))


def _arg(a: FunctionArg, e: Emit, with_default: bool = True, with_name: bool = True, typ: str | None = None) -> str:
    toks = []
    if a.mode is not None:
        toks.append(_WORD[id(a.mode)])
    if a.name is not None and with_name:
        toks.append(pg_ident(a.name))
    t = typ if typ is not None else type_text(a.type, e, a.origin)
    if t:
        toks.append(t)
    if a.default is not None and with_default:
        toks.append("DEFAULT")
        d = e.expr(_default(a))
        if d:
            toks.append(d)
    return joined(toks)


_paren = paren_items  # (``(a, b)``: the items (texts) as the writer's paren_list of raw tokens spaces them)


def _name(n: CreateFunction, e: Emit) -> str:
    return e.qname(n.name)


def _dollar(body: str, preferred: str | None) -> str:
    tag = preferred if preferred and preferred.startswith("$") else "$function$"
    while (body + tag).find(tag) != len(body):
        tag = tag[:-1] + "x$"
    return tag + body + tag


def _security(s: Security, e: Emit, origin: Any) -> str:
    if s in (Security.AUTHID_DEFINER, Security.AUTHID_CURRENT_USER):
        e.diag(I_AUTHID, f"{s.value} written as SECURITY {'DEFINER' if s.definer else 'INVOKER'}", origin)
    return "SECURITY DEFINER" if s.definer else "SECURITY INVOKER"


# ---- what PostgreSQL's grammar takes in a CREATE FUNCTION header (decided from the IR, never parsed) ----
_ID = r'(?:"(?:[^"]|"")+"|[A-Za-z_\u0080-\uffff][A-Za-z0-9_$\u0080-\uffff]*)'
_DOTTED = rf"{_ID}(?:\s*\.\s*{_ID})*"
_MODS = r"\(\s*[+-]?\d+(?:\s*,\s*[+-]?\d+)*\s*\)"
_FIELD = r"(?:year|month|day|hour|minute|second)"
_MULTI = (r"(?:double\s+precision|(?:national\s+)?(?:character|char)(?:\s+varying)?|nchar\s+varying|bit\s+varying"
          rf"|interval\s+{_FIELD}(?:\s+to\s+{_FIELD})?)")


@functools.cache
def _pg_type() -> re.Pattern[str]:
    """Compiled on first use: with re.I and the Unicode identifier range it costs ~100 ms to build."""
    return re.compile(
        rf"\s*(?:setof\s+)?(?:{_ID}(?:\s*\.\s*{_ID})+\s*%\s*type"  # x.col%TYPE (one dot at least)
        rf"|(?:{_MULTI}|{_DOTTED})(?:\s*{_MODS})?(?:\s+(?:with|without)\s+time\s+zone)?"
        r"(?:(?:\s*\[\s*\d*\s*\])*|\s+array(?:\s*\[\s*\d+\s*\])?))\s*\Z", re.I)


def _problem(n: CreateFunction) -> str | None:
    """Why the header the emitter would write does not parse as PostgreSQL's grammar, or None. A declarative
    check of the IR (argument modes, the type spellings :func:`type_text` writes, argument defaults), made
    instead of parsing the output; each type judged as it comes (:func:`_bad_type`), no list of them made."""
    r = n.returns
    bad = None  # (every type judged, as the emitter will write them all: one may be refused by its typmod's limits)
    for a in (*n.arguments, *(() if r is None or n.is_procedure else r.table or (r,))):
        b = _bad_type(a.type, a.origin)
        if bad is None:
            bad = b
    if r is not None and r.table and any(a.mode in (ArgMode.OUT, ArgMode.INOUT) for a in n.arguments):
        return "OUT/INOUT arguments with RETURNS TABLE"
    if bad is not None:
        return bad
    for a in n.arguments:
        if a.default is not None and _default(a).tree is None:
            return f"default {a.default!r} is not a PostgreSQL expression"
    return None


_PLAIN_NAME = re.compile(r"[a-z_][a-z0-9_]*\Z")  # a name _OG_TYPE reads whole, without typmod or array
# TYPE_MAP name -> the problem of the type it is written as (None: it parses), decided once per name
_MAPPED_PROBLEM: dict[str, str | None] = {}


def _bad_type(text: str, origin: Any) -> str | None:
    """The problem of the type :func:`type_text` writes for ``text`` when PostgreSQL's grammar does not take
    it, else None. A plain lower-case name (``pg_catalog.`` or not) is decided without the patterns: one
    TYPE_MAP does not hold is written as it is (a name, which parses); one it holds is written the same
    with or without ``pg_catalog.`` (no typmod: no limit checked), its verdict kept per name."""
    name = text[11:] if text.startswith("pg_catalog.") else text
    if _PLAIN_NAME.match(name) is not None:
        if name not in TYPE_MAP:
            return None
        if name in _MAPPED_PROBLEM:
            return _MAPPED_PROBLEM[name]
        bad = _MAPPED_PROBLEM[name] = _type_problem(type_text(name, QUIET, origin))
        return bad
    return _type_problem(type_text(text, QUIET, origin))


def _type_problem(t: str) -> str | None:
    return None if _pg_type().match(t) is not None else f"type {t!r} is not PostgreSQL syntax"


def _default(a: FunctionArg) -> Expr:
    """The argument's DEFAULT as the SQL layer parsed it at build time."""
    if a.default_expr is None:
        raise InternalError("a routine argument DEFAULT reached the emitter unparsed", path=a.origin)
    return a.default_expr


# ---- CREATE FUNCTION / PROCEDURE ----------------------------------------------------------------------
@emits(CreateFunction)
def create_function(n: CreateFunction, e: Emit) -> list[str]:
    """The header's tokens in a list spaced by :func:`joined` (the writer's tokens, without its calls)."""
    o = n.options
    toks = ["CREATE"]
    if n.or_replace:
        toks += ("OR", "REPLACE")
    toks.append("PROCEDURE" if n.is_procedure else "FUNCTION")
    types = [type_text(a.type, e, a.origin) for a in n.arguments]
    table: list[str] = []
    args = _paren([_arg(a, e, typ=t) for a, t in zip(n.arguments, types, strict=True)])
    toks.append(_name(n, e) + args)  # name(args): one token, no space
    if n.returns is not None and not n.is_procedure:
        r = n.returns
        if r.table:
            table = [type_text(a.type, e, a.origin) for a in r.table]
            toks += ("RETURNS", "TABLE", "(")
            for i, (a, t) in enumerate(zip(r.table, table, strict=True)):
                if i:
                    toks.append(",")
                text = _arg(a, e, with_default=False, typ=t)
                if text:
                    toks.append(text)
            toks.append(")")
        else:
            toks.append("RETURNS")
            if r.setof:
                toks.append("SETOF")
            returns = type_text(r.type, e, r.origin)
            if returns:
                toks.append(returns)
    toks += ("LANGUAGE", pg_ident(n.language or ""))
    dropped = []
    if o.fenced is False:
        dropped.append("NOT FENCED")
    if o.shippable is not None:
        dropped.append("SHIPPABLE" if o.shippable else "NOT SHIPPABLE")
    if o.package:
        dropped.append("PACKAGE")
    if n.is_procedure:
        dropped += [_proc_word(f, v) for f in _PROC_FIELDS
                    if (v := getattr(o, f)) is not None and (v is not False or f == "leakproof")]
    else:
        if o.window:
            toks.append("WINDOW")
        if o.volatility is not None:
            toks.append(_UPPER[id(o.volatility)])
        if o.null_input is not None:
            toks.append(_WORD[id(o.null_input)])  # (a word: never empty)
        if o.leakproof is not None:
            toks.append("LEAKPROOF" if o.leakproof else "NOT LEAKPROOF")
        if o.parallel is not None:
            toks += ("PARALLEL", o.parallel.upper())
        if o.cost is not None:
            toks += ("COST", o.cost)
        if o.rows is not None:
            toks += ("ROWS", o.rows)
    if o.security is not None:
        toks.append(_security(o.security, e, n.origin))
    if dropped:
        e.diag(I_NO_MEANING, "dropped (no meaning in PostgreSQL): " + ", ".join(dropped), n.origin)
    for s in n.set_options:
        toks += ("SET", guc(s.name))
        if s.value is None:
            toks += ("FROM", "CURRENT")
        else:
            toks.append("TO")
            if s.value:
                toks.append(s.value)
    toks.append("AS")
    if n.probin is not None:
        toks += (pg_literal(n.probin), ",", pg_literal(n.body))
    else:
        toks.append(_dollar(n.body, n.body_tag))
    out = [joined(toks)]  # (a header that would not parse as PostgreSQL was refused by a rule: W_UNPARSED)
    sig = _paren([_arg(a, e, with_default=False, with_name=False, typ=t) for a, t in zip(n.arguments, types,
                                                                                      strict=True)])
    kind = "PROCEDURE" if n.is_procedure else "FUNCTION"
    e.own((kind,), _name(n, e) + sig)
    if o.comment is not None:
        out.append(words("COMMENT", "ON", kind, _name(n, e) + sig, "IS", pg_literal(o.comment)))
        e.diag(I_COMMENT, "COMMENT option written as COMMENT ON " + kind, n.origin)
    return out


# ---- ALTER FUNCTION / PROCEDURE -----------------------------------------------------------------------
def _number(v: int | float) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def _action(a: FunctionAction, e: Emit) -> str | None:
    k = a.kind
    if k is _A_VOLATILITY:
        assert a.volatility is not None
        return _UPPER[id(a.volatility)]
    if k is _A_NULL_INPUT:
        assert a.null_input is not None
        return _WORD[id(a.null_input)]
    if k is _A_SECURITY:
        assert a.security is not None
        return _security(a.security, e, a.origin)
    if k is _A_LEAKPROOF:
        return "LEAKPROOF" if a.on else "NOT LEAKPROOF"
    # (a number's text, a quoted name and a literal never meet the writer's spacing rule)
    if k is _A_COST:
        return None if a.number is None else "COST " + _number(a.number)
    if k is _A_ROWS:  # ROWS 0 prints nothing on the server either
        return None if a.number is None else "ROWS " + _number(a.number)
    if k is _A_SET:
        name = guc(a.name or "")
        if a.list_form:
            return words("SET", name, "TO", a.value or "")
        return "SET " + name + " TO " + pg_literal(a.value or "")
    if k is _A_SET_FROM_CURRENT:
        return "SET " + guc(a.name or "") + " FROM CURRENT"
    if k is _A_RESET:
        return "RESET " + guc(a.name or "")
    if k is _A_RESET_ALL:
        return "RESET ALL"
    if k is _A_PARALLEL:
        return words("PARALLEL", (a.value or "").upper())
    raise AssertionError(k)


def signature(name: Any, arguments: tuple[TypeName, ...] | None, e: Emit) -> str:
    """``schema.name(type, ...)``; without a list when ``arguments`` is None."""
    text = e.qname(name)
    if arguments is not None:
        text += _paren([e.type(t) for t in arguments])  # name(args): no space
    return text


@emits(AlterFunction)
def alter_function(n: AlterFunction, e: Emit) -> list[str]:
    actions = [s for s in (_action(a, e) for a in n.actions) if s is not None]
    if not actions:
        return []
    sig = n.signature
    return [joined(["ALTER", _WORD[id(n.kind)], *filter(None, (signature(sig.name, sig.arguments, e), *actions))])]


# ---- CREATE TRIGGER ----------------------------------------------------------------------------------
# an enum member's word by its identity (an enum's ``value`` and hash are Python calls)
_WORD = {id(m): m.value for kind in (TriggerTiming, TriggerEventKind, TriggerLevel, RoutineKind, NullInput, ArgMode)
         for m in kind}
_UPPER = {id(m): m.value.upper() for m in Volatility}


@emits(CreateTrigger)
def create_trigger(n: CreateTrigger, e: Emit) -> list[str]:
    """Written at once: every token is a keyword, a quoted name, a literal or ``WHEN (condition)``, none of which
    meets the writer's spacing rule (a name starts and ends with a letter, a digit, ``_`` or a quote; inside
    parentheses the rule puts no space after ``(`` nor before ``)``); names quoted, the condition written and the
    arguments quoted in the writer's order."""
    assert n.function is not None and n.body is None  # the rules dropped the others
    toks = ["CREATE CONSTRAINT TRIGGER" if n.constraint else "CREATE TRIGGER", pg_ident(n.name), _WORD[id(n.timing)]]
    for i, ev in enumerate(n.events):
        if i:
            toks.append("OR")
        toks.append(_WORD[id(ev.kind)])
        if ev.columns:
            toks.append("OF " + ", ".join([pg_ident(c) for c in ev.columns]))
    toks.append("ON")
    relation = e.qname(n.relation)
    if relation:
        toks.append(relation)
    if n.from_table is not None:
        toks.append("FROM")
        source = e.qname(n.from_table)
        if source:
            toks.append(source)
    if n.constraint_attrs is not None:
        ca = n.constraint_attrs
        toks += ("DEFERRABLE" if ca.deferrable else "NOT DEFERRABLE", "INITIALLY",
                 "DEFERRED" if ca.initially_deferred else "IMMEDIATE")
    toks += ("FOR EACH", _WORD[id(n.for_each)])
    if n.when is not None:
        toks.append("WHEN (" + e.expr(n.when) + ")")
    f = n.function
    name = e.qname(f.name)
    toks += ("EXECUTE FUNCTION", name + "(" + ", ".join([pg_literal(a) for a in f.args]) + ")")
    return [" ".join(toks)]


__all__ = ["UNSUPPORTED", "type_text", "signature", "guc"]
