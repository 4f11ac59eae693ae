"""GaussDB emitters: CREATE FUNCTION (§5.8), ALTER FUNCTION / ALTER PROCEDURE (§3.9, §5.9).

CREATE FUNCTION writes the statement text without parsing it: the original text while the parsed
fields are unchanged; with only the name changed (a pass mapped the schema, which cleared
``name_text``) the name is spliced into the original text at ``name_span``; otherwise (a pass
changed another field, which cleared ``name_span``, or a node made by hand) the text is rendered
from the fields in ``pg_get_functiondef``'s layout.
"""

from __future__ import annotations

from typing import Any

from ...ir.routine import (
    AlterFunction, ArgMode, CreateFunction, FunctionAction, FunctionActionKind, FunctionArg, FunctionStyle,
    NullInput, RoutineSignature, Volatility,
)
from ...quoting import quote_ident
from .writer import Writer, emits


def function_text(n: CreateFunction) -> str:
    """The statement text for ``n`` (see the module docstring)."""
    if n.name_span is None:
        return render_function(n)
    if n.name_text is not None:
        return n.text
    a, b = n.name_span
    return n.text[:a] + _qualified(n) + n.text[b:]


def _qualified(n: CreateFunction) -> str:
    parts = [p for p in (n.name.schema, n.package, n.name.name) if p is not None]
    return ".".join(quote_ident(p) for p in parts)


def _arg(a: FunctionArg) -> str:
    out = ""
    if a.mode is not None and not (a.mode is ArgMode.IN and a.name is None):
        out += a.mode.value + " "
    if a.name is not None:
        out += quote_ident(a.name) + " "
    out += a.type
    if a.default is not None:
        out += " DEFAULT " + (a.default_expr.text if a.default_expr is not None else a.default)
    return out


def _literal(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def _options(n: CreateFunction) -> str:
    o = n.options
    out = []
    if o.window:
        out.append("WINDOW")
    if o.volatility is not None:
        out.append(o.volatility.value.upper())
    if o.null_input is not None:
        out.append(o.null_input.value)
    if o.security is not None:
        out.append(o.security.value)
    if o.leakproof is not None:
        out.append("LEAKPROOF" if o.leakproof else "NOT LEAKPROOF")
    if o.fenced is not None:
        out.append("FENCED" if o.fenced else "NOT FENCED")
    if o.shippable is not None:
        out.append("SHIPPABLE" if o.shippable else "NOT SHIPPABLE")
    if o.parallel_enable is not None:
        out.append(("PARALLEL_ENABLE " + o.parallel_enable).rstrip())
    if o.package:
        out.append("PACKAGE")
    if o.cost is not None:
        out.append("COST " + o.cost)
    if o.rows is not None:
        out.append("ROWS " + o.rows)
    if o.parallel is not None:
        out.append("PARALLEL " + o.parallel.upper())
    if o.pipelined:
        out.append("PIPELINED")
    if o.deterministic:
        out.append("DETERMINISTIC")
    if o.comment is not None:
        out.append("COMMENT " + _literal(o.comment))
    return "".join(" " + x for x in out)


def _dollar(body: str, tag: str) -> str:
    """``tag body tag``; a tag that would close early is replaced the way pg_get_functiondef picks one."""
    if not tag.startswith("$") or (body + tag).find(tag) != len(body):
        tag = "$function"
        while tag in body:
            tag += "x"
        tag += "$"
    return tag + body + tag


def render_function(n: CreateFunction) -> str:
    """``pg_get_functiondef``'s layout for the fields of ``n`` (the deparser cuts its ``/``)."""
    if n.definer is not None:
        head = f"CREATE DEFINER = {n.definer} "
    else:
        head = "CREATE OR REPLACE " if n.or_replace else "CREATE "
    buf = head + ("PROCEDURE " if n.is_procedure else "FUNCTION ") + _qualified(n)
    buf += "(" + ", ".join(_arg(a) for a in n.arguments) + ")"
    if n.returns is not None:
        r = n.returns
        ret = ("TABLE(" + ", ".join(_arg(a) for a in r.table) + ")") if r.table else (("SETOF " if r.setof else "") + r.type)
        if n.style is FunctionStyle.ORACLE:
            buf += "\n RETURN " + ret
        else:
            buf += "\n RETURNS " + ret + "\n"
            if n.language is not None:
                buf += " LANGUAGE " + quote_ident(n.language) + "\n"
    else:
        buf += "\n"
        if n.language is not None and n.body_tag is not None:
            buf += " LANGUAGE " + quote_ident(n.language) + "\n"
    opts = _options(n)
    if opts:
        buf += opts + "\n"
    elif not buf.endswith("\n"):
        buf += "\n"
    for s in n.set_options:
        buf += f" SET {quote_ident(s.name)} " + ("FROM CURRENT" if s.value is None else "TO " + s.value) + "\n"
    buf += "AS "
    if n.probin is not None:
        buf += _literal(n.probin) + ", "
    if n.body_tag is None:
        buf += n.body
    elif n.body_tag == "'":
        buf += _literal(n.body)
    else:
        buf += _dollar(n.body, n.body_tag)
    return buf + ";\n"


@emits(CreateFunction)
def create_function(n: CreateFunction, w: Writer) -> dict[str, Any]:
    return {"fmt": n.layout or "%{function}s", "function": function_text(n)}


@emits(RoutineSignature)
def signature(n: RoutineSignature, w: Writer) -> dict[str, Any]:
    if n.arguments is None:
        fmt = n.layout or "%{identity}D"
    else:
        fmt = n.layout or ("%{identity}D (%{arguments:, }s)" if n.arguments else "%{identity}D ()")
    d: dict[str, Any] = {"fmt": fmt, "identity": w.qname(n.name)}
    if "%{arguments" in fmt:
        d["arguments"] = [{"fmt": "%{type}T", "type": w.type(t)} for t in n.arguments or ()]
    return d


_SET_FMT = {False: "SET %{set_name}I TO %{set_value}L", True: "SET %{set_name}I TO %{set_value}s"}


@emits(FunctionAction)
def action(n: FunctionAction, w: Writer) -> dict[str, Any]:
    k = n.kind
    if k is FunctionActionKind.VOLATILITY:
        return {"fmt": n.layout or (n.volatility or Volatility.VOLATILE).value}
    if k is FunctionActionKind.NULL_INPUT:
        strict = n.null_input is not None and n.null_input.strict
        return {"fmt": n.layout or ("RETURNS NULL ON NULL INPUT" if strict else NullInput.CALLED.value)}
    if k is FunctionActionKind.SECURITY:
        assert n.security is not None
        return {"fmt": n.layout or n.security.value}
    if k is FunctionActionKind.LEAKPROOF:
        return {"fmt": n.layout or ("LEAKPROOF" if n.on else "NOT LEAKPROOF")}
    if k is FunctionActionKind.COST:
        return {"fmt": n.layout or "COST %{cost}n", "cost": n.number}
    if k is FunctionActionKind.ROWS:
        if n.number is None:
            return w.absent(n.layout or "ROWS %{rows}n")
        return {"fmt": n.layout or "ROWS %{rows}n", "rows": n.number}
    if k is FunctionActionKind.SET:
        return {"fmt": n.layout or _SET_FMT[n.list_form], "set_name": n.name, "set_value": n.value}
    if k is FunctionActionKind.SET_FROM_CURRENT:
        return {"fmt": n.layout or "SET %{set_name}I FROM CURRENT", "set_name": n.name}
    if k is FunctionActionKind.RESET:
        return {"fmt": n.layout or "RESET %{set_name}I", "set_name": n.name}
    if k is FunctionActionKind.RESET_ALL:
        return {"fmt": n.layout or "RESET ALL"}
    return {"fmt": n.layout or "PARALLEL %{value}s", "value": n.value}


@emits(AlterFunction)
def alter_function(n: AlterFunction, w: Writer) -> dict[str, Any]:
    return {
        "fmt": n.layout or f"ALTER {n.kind.value} %{{signature}}s %{{definition: }}s",
        "signature": w.tree(n.signature),
        "definition": [w.tree(a) for a in n.actions],
    }
