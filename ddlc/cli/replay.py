"""``ddlc replay``: fold a log's DDL into the schema it leaves behind and print it (docs/replay.md).

Registered on the ``ddlc`` group by :mod:`ddlc.cli` (``cli.add_command(replay)``).
"""

from __future__ import annotations

import sys
from typing import Any

import click


from .common import (TargetChoice, TargetOptionsCommand, _n, _owner_options, _report, _schema_map, expand_inputs,
                     TO_DEFAULT_HELP, given_target_options, resolve_targets)


@click.command(cls=TargetOptionsCommand, short_help="Fold a log's DDL into the schema it leaves behind.", epilog="""\b
Examples:
  ddlc replay --to postgres log.jsonl > schema.sql
  ddlc replay --format json log.jsonl""")
@click.option("--to", "target", type=TargetChoice(), default=None,
              help="Target of the CREATE script (--format sql). " + TO_DEFAULT_HELP)
@click.option("--format", "fmt", type=click.Choice(["sql", "json"]), default="sql", show_default=True,
              help="sql: one CREATE script for the target; json: the schema model (docs/replay.md).")
@click.option("--on-unsupported", type=click.Choice(["warn", "error", "comment", "skip"]), default="warn",
              show_default=True, help="What the target cannot take, as for ddlc translate.")
@click.option("--default-schema", default="public", show_default=True,
              help="Schema for names the input left unqualified.")
@click.option("--schema-map", multiple=True, callback=_schema_map, metavar="SRC=DST",
              help="Rename a schema everywhere (repeatable; also SRC=DST,SRC=DST).")
@click.option("--white-table-list", metavar="LIST", default=None,
              help="Fold only the DDL of these tables (as ddlc translate).")
@click.option("--schema-regex", metavar="REGEX", default=None,
              help="Fold only statements naming a schema this regular expression matches whole.")
@click.option("--exclude-user", "exclude_users", multiple=True, metavar="USER[,USER...]",
              help="Leave out the DDL run by these users. Repeatable.")
@_owner_options
@click.option("--verbose", "-v", is_flag=True,
              help="Also print the fold's information notes (DDLC-I960) and each input line not recognised.")
@click.argument("inputs", nargs=-1, type=click.Path(allow_dash=True))
def replay(target: str, fmt: str, on_unsupported: str, default_schema: str, schema_map: tuple[tuple[str, str], ...],
           white_table_list: str | None, schema_regex: str | None, exclude_users: tuple[str, ...],
           no_owner: bool, role_map: tuple[tuple[str, str], ...], verbose: bool,
           inputs: tuple[str, ...], **target_options: Any) -> None:
    """Fold a log's DDL into the schema it leaves behind; print it as a CREATE script or JSON."""
    from ..api import Options
    from ..frontend.documents import read_inputs
    from ..replay import fold_log, script

    target = resolve_targets(target)[0]
    try:
        options = Options.of(default_schema=default_schema, schema_map=schema_map, on_unsupported=on_unsupported,
                             white_table_list=white_table_list, schema_regex=schema_regex,
                             no_owner=no_owner, role_map=role_map, **given_target_options(target_options),
                             exclude_users=[u for v in exclude_users for u in v.split(",")])
    except (ValueError, TypeError) as exc:
        raise click.BadParameter(str(exc)) from None
    docs = read_inputs(expand_inputs(inputs), stdin=sys.stdin,
                       on_skip=(lambda s: _report("note", str(s))) if verbose else None)
    result = fold_log(docs, options)
    errors = len(result.errors)
    written = 0
    parts = [] if fmt == "json" else script(result, target, options)
    for e in result.errors:
        _report("error", str(e))
    for d in result.diagnostics:
        if d.severity.value != "info" or verbose:
            _report(d.severity.value, f"{d.document or 'replay'}: {d.jsonpath}: {d.message} [{d.code}]")
    if fmt == "json":
        import orjson

        sys.stdout.write(orjson.dumps(result.to_json(), option=orjson.OPT_INDENT_2).decode() + "\n")
    else:
        out = []
        for p in parts:
            r = p.result
            out.extend(c + "\n" for c in r.comments)
            out.extend(s + ";\n" for s in r.statements)
            written += len(r.statements)
            for d in r.diagnostics:
                if d.severity.value != "info" or verbose:
                    _report(d.severity.value, f"replay: {p.label}: {d.message} [{d.code}]")
            if r.untranslated and r.error is None:
                how = "kept as a comment" if on_unsupported == "comment" else "left out (--on-unsupported skip)"
                _report("note", f"replay: {p.label}: not translated to {target}; {how}")
            if r.error is not None:
                errors += 1
                _report("error", str(r.error))
        sys.stdout.write("".join(out))
    m = result.model
    summary = (f"ddlc replay: {_n(result.documents, 'document')}, {_n(len(m.schemas), 'schema')}, "
               f"{_n(len(m.tables), 'table')}, {_n(len(m.indexes), 'index')}, {_n(len(m.views), 'view')}, "
               f"{_n(len(m.sequences), 'sequence')}")
    if fmt == "sql":
        summary += f", {_n(written, 'statement')} written"
    summary += f", {_n(errors, 'error')}, {_n(docs.unrecognised, 'line')} not recognised"
    if options.filtering:
        summary += f", {result.filtered} filtered"
    sys.stderr.write(summary + "\n")
    sys.exit(1 if errors else 0)


__all__ = ["replay"]
