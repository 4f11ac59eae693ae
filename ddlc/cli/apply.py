"""``ddlc apply``: translate a log and apply it to a live PostgreSQL, exactly once (docs/apply.md).

Registered on the ``ddlc`` group by :mod:`ddlc.cli` (``cli.add_command(apply)``).
"""

from __future__ import annotations

import sys
from typing import Any

import click

from .common import (TargetChoice, TargetOptionsCommand, _common, _inputs, _n, _report, _translate_options,
                     given_target_options, resolve_targets)


@click.command(cls=TargetOptionsCommand, short_help="Apply a log's DDL to a live PostgreSQL, exactly once.", epilog="""\b
Examples:
  ddlc apply --dsn "host=db dbname=app" log.jsonl
  ddlc apply --dsn "$DSN" --on-error hold batch-0042.jsonl
  ddlc apply --dsn "$DSN" --plan log.jsonl
  ddlc apply --dsn "$DSN" --retry            # the held transactions, once a DBA fixed the cause
  ddlc apply --dsn "$DSN" --skip 7           # one failure resolved by hand""")
@click.option("--dsn", required=True, metavar="DSN",
              help="The PostgreSQL server to apply to: a libpq connection string or URI (PG* variables fill in "
                   "what it leaves out).")
@click.option("--to", "target", type=TargetChoice(), default=None,
              help="Target: postgres, the only one ddlc apply applies to.")
@click.option("--source", default="default", show_default=True, metavar="ID",
              help="The log's name in the progress table: one progress row (and one applier at a time) per source.")
@click.option("--progress-table", default="ddlc.progress", show_default=True, metavar="[SCHEMA.]NAME",
              help="Where the progress row lives; the failed and intent tables are made in the same schema.")
@click.option("--lock-timeout", default="5s", show_default=True, metavar="DURATION",
              help="PostgreSQL's lock_timeout for every statement (5s, 500ms, 1min; 0: wait for ever). A lock "
                   "timeout is retried with backoff up to --retries, then handled as a failure.")
@click.option("--statement-timeout", default="0", show_default=True, metavar="DURATION",
              help="PostgreSQL's statement_timeout for every statement (0: none).")
@click.option("--retries", default=5, show_default=True, type=click.IntRange(min=0),
              help="How many times a transaction that met a lock timeout (or a deadlock) is tried again.")
@click.option("--on-error", type=click.Choice(["stop", "hold"]), default="stop", show_default=True,
              help="stop: record the failed transaction in the failed table and stop (exit 1); hold: record it "
                   "and go on with the transactions that touch none of its objects (the others are held).")
@click.option("--plan", is_flag=True,
              help="Print what would run and what would fail, changing nothing (all rolled back).")
@click.option("--retry", is_flag=True,
              help="First run the failed and held transactions again, in order (then the LOG, if given).")
@click.option("--skip", "skip", multiple=True, type=int, metavar="ID",
              help="Mark a failed or held transaction resolved (not applied by ddlc). Repeatable.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: one summary line on standard error; json: the summary (or the plan) as JSON on "
                   "standard output.")
@click.option("--quiet", "-q", is_flag=True, help="Print only errors: no notes, progress or summary line.")
@_translate_options
@click.option("--state", "state_path", metavar="PATH", default=None,
              help="The stream's history for the translation, as for ddlc translate (the target keeps its own "
                   "progress: no state is needed to resume); saved only when the whole input was applied.")
@_common
def apply(dsn: str, target: str | None, source: str, progress_table: str, lock_timeout: str,
          statement_timeout: str, retries: int, on_error: str, plan: bool, retry: bool, skip: tuple[int, ...],
          fmt: str, quiet: bool, mode: str, validate: bool, pretty: bool, white_table_list: str | None,
          schema_regex: str | None, exclude_users: tuple[str, ...], owners: bool, no_owner: bool,
          role_map: tuple[tuple[str, str], ...], state_path: str | None, default_schema: str,
          schema_map: tuple[tuple[str, str], ...], on_unsupported: str, verbose: bool, input_format: str,
          inputs: tuple[str, ...], **target_options: Any) -> None:
    """Translate the LOG (as ddlc translate does) and apply it to the PostgreSQL server at --dsn: each source
    transaction in one target transaction together with the progress row, so that a run killed at any
    moment resumes exactly where it stopped (docs/apply.md).

    With --retry or --skip and no LOG, only the failed table is worked on.
    """
    from .needs import require

    require(["psycopg"], "ddlc apply")
    target = resolve_targets(target)[0]
    if target != "postgres":
        raise click.BadParameter(f"ddlc apply applies to PostgreSQL only, not {target}", param_hint="--to")
    from ..api import Options

    try:
        options = Options.of(mode=mode, validate=validate, default_schema=default_schema, schema_map=schema_map,
                             on_unsupported=on_unsupported, pretty=pretty, **given_target_options(target_options),
                             white_table_list=white_table_list, schema_regex=schema_regex,
                             exclude_users=[u for v in exclude_users for u in v.split(",")],
                             owners=owners, no_owner=no_owner, role_map=role_map)
    except (ValueError, TypeError) as exc:
        raise click.BadParameter(str(exc)) from None
    from ..apply.run import ApplyError, ApplySettings, run
    from ..backends import get_backend
    from ..state_file import StateError

    try:
        settings = ApplySettings(dsn, source=source, progress_table=progress_table, lock_timeout=lock_timeout,
                                 statement_timeout=statement_timeout, retries=retries, on_error=on_error,
                                 retry=retry, skip=skip, plan=plan, process=True)
    except ApplyError as exc:
        raise click.BadParameter(str(exc)) from None
    read = None
    if inputs or not (retry or skip):
        def read(txns: Any) -> Any:
            return _inputs(inputs, verbose, input_format, txns)

    def say(kind: str, text: str) -> None:
        if kind == "error" or not quiet:
            _report(kind, text)

    status = _Status.maybe(quiet)
    try:
        out = run(settings, get_backend(target), options, state_path, read, say, status.tick if status else None)
    except StateError as exc:
        _report("error", f"{exc} [{exc.code}]")
        sys.exit(2)
    except ApplyError as exc:
        _report("error", str(exc))
        sys.exit(2)
    finally:
        if status is not None:
            status.stop()
    if plan:
        sys.exit(_print_plan(out, fmt))
    if fmt == "json":
        import orjson

        sys.stdout.write(orjson.dumps(out.to_dict()).decode() + "\n")
    elif not quiet:
        sys.stderr.write(summary(out) + "\n")
    bad = out.failed or out.held or (out.stopped is not None and "COMMIT" not in out.stopped)
    sys.exit(1 if bad else 0)


def summary(t: Any) -> str:
    line = (f"ddlc apply: {_n(t.applied, 'transaction')} applied ({_n(t.statements, 'statement')}), "
            f"{t.retried} retried, {t.failed} failed, {t.held} held, {t.skipped} skipped (already applied)")
    if t.resolved:
        line += f", {t.resolved} resolved"
    if t.state_seen:
        line += f", {_n(t.state_seen, 'document')} already seen by the --state"
    return line + (f"; position {t.position}" if t.position else "; nothing applied yet")


def _print_plan(report: Any, fmt: str) -> int:
    out = sys.stdout
    if fmt == "json":
        import orjson

        out.write(orjson.dumps(report.to_dict()).decode() + "\n")
        return 0 if report.ok else 1
    for item in report.items:
        if item.verdict == "already applied":
            continue
        head = f"{item.position} ({_n(len(item.statements), 'statement')}): {item.verdict}"
        if item.reason:
            head += f": {item.reason}"
        if item.error:
            head += f": {item.error}"
        out.write(head + "\n")
        for k, s in enumerate(item.statements):
            out.write(("! " if item.statement == k else "  ") + s.replace("\n", "\n    ") + ";\n")
    counts = ", ".join(f"{report.count(v)} {v}" for v in ("apply", "fail", "held", "not reached", "already applied"))
    sys.stderr.write(f"ddlc apply --plan: {counts}" + (f"; {report.open_failures} open in the failed table"
                                                       if report.open_failures else "") + "; nothing was changed\n")
    return 0 if report.ok else 1


class _Status:
    """The progress line on a terminal (standard error), as translate shows it."""

    def __init__(self) -> None:
        from .status import StatusLine

        self.line = StatusLine()

    @classmethod
    def maybe(cls, quiet: bool) -> _Status | None:
        return None if quiet or not sys.stderr.isatty() else cls()

    def tick(self, t: Any) -> None:
        self.line.update(f"applying: {_n(t.applied, 'transaction')} ({_n(t.statements, 'statement')}), "
                         f"{t.failed} failed, {t.held} held, {t.skipped} skipped")

    def stop(self) -> None:
        self.line.close()
