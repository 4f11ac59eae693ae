"""The ``ddlc`` command line: a thin layer over :mod:`ddlc.api`.

Exit codes: 0 every document translated (or valid); 1 some documents failed (the others are still
printed); 2 usage error. Errors go to stderr, one line each, coloured only on a terminal.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from . import __version__

_COLOR_ERR = None


def _err_color() -> bool:
    global _COLOR_ERR
    if _COLOR_ERR is None:
        _COLOR_ERR = sys.stderr.isatty()
    return _COLOR_ERR


def _report(kind: str, text: str) -> None:
    colour = {"error": "red", "warning": "yellow", "note": "cyan", "info": "blue"}.get(kind)
    prefix = f"{kind}:"
    if _err_color() and colour:
        prefix = click.style(prefix, fg=colour, bold=True)
    sys.stderr.write(f"{prefix} {text}\n")


def _inputs(inputs: tuple[str, ...], verbose: bool = False) -> Any:
    """The documents of the inputs (a ``DocumentStream``: ``.unrecognised`` counts the lines of
    decoding output that were neither a known row nor part of one; ``-v`` prints each)."""
    from .frontend.documents import read_inputs

    on_skip = (lambda s: _report("note", str(s))) if verbose else None
    return read_inputs(inputs or ("-",), stdin=sys.stdin, on_skip=on_skip)


def _verbose(fn):
    return click.option("--verbose", "-v", is_flag=True,
                        help="Report each input line that is neither a known row nor part of one "
                             "(its line, byte offset and start) as it is read.")(fn)


def main() -> None:
    """Console entry point: never a traceback, whatever happens."""
    try:
        cli.main(prog_name="ddlc")
    except BrokenPipeError:  # e.g. `ddlc translate big.jsonl | head`
        sys.stderr.close()
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as exc:  # a bug in ddlc: one line, exit 1
        _report("error", f"internal error: {type(exc).__name__}: {exc} [DDLC-E900]")
        sys.exit(1)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ddlc")
def cli() -> None:
    """ddlc — translate GaussDB/openGauss JDDL (logical decoding of DDL) into DDL text.

    Inputs are files or - (stdin): a JDDL tree, a {"JDDL": ...} or {"TDDL": ...} envelope,
    JSON lines, a JSON array, or logical-decoding output. The form is detected automatically.
    """


def _schema_map(ctx, param, values):
    out = []
    for v in values:
        src, sep, dst = v.partition("=")
        if not sep or not src or not dst:
            raise click.BadParameter(f"expected SRC=DST, got {v!r}")
        out.append((src, dst))
    return tuple(out)


def _common(fn):
    fn = click.argument("inputs", nargs=-1, type=click.Path(allow_dash=True, dir_okay=False))(fn)
    fn = click.option("--on-unsupported", type=click.Choice(["warn", "error", "comment", "skip"]), default="warn",
                      show_default=True,
                      help="What the target cannot take. warn: drop a clause with a warning, fail a statement "
                           "with no target form; error: fail both; comment: keep both as SQL comments; "
                           "skip: leave a statement with no target form out, with its warning.")(fn)
    fn = click.option("--schema-map", multiple=True, callback=_schema_map, metavar="SRC=DST",
                      help="Rename a schema everywhere (repeatable).")(fn)
    fn = click.option("--default-schema", default="public", show_default=True,
                      help="Schema for names the input left unqualified.")(fn)
    return _verbose(fn)


from .backends import BACKENDS  # noqa: E402  (names only: no backend is imported)

TARGET_CHOICES = list(BACKENDS)
# the spark options' values (ddlc.api checks the same tuples; tests/test_spark_options.py keeps them equal)
SPARK_PARTITIONING = ("auto", "cluster", "partition", "none")
SPARK_COLUMN_MAPPING = ("name", "id", "none")
SPARK_VARCHAR = ("keep", "string")


@cli.command()
@click.option("--to", "target", type=click.Choice(TARGET_CHOICES), default="gaussdb", show_default=True,
              help="Target dialect.")
@click.option("--mode", type=click.Choice(["canonical", "raw"]), default="canonical", show_default=True,
              help="gaussdb: canonical TDDL text, or raw byte-exact openGauss expansion.")
@click.option("--format", "fmt", type=click.Choice(["sql", "json"]), default="sql", show_default=True,
              help="sql: a script; json: one JSON object per line per document.")
@click.option("--validate", is_flag=True, help="Check each tree against grammars/ before translating.")
@click.option("--pretty", is_flag=True, help="postgres: pretty-print each statement (pglast).")
@click.option("--spark-catalog", metavar="NAME", default=None,
              help="spark: the catalog of every table, view and schema (three-part names, e.g. main).")
@click.option("--spark-partitioning", type=click.Choice(SPARK_PARTITIONING), default="auto", show_default=True,
              help="spark: auto writes LIST partitioning as PARTITIONED BY and RANGE/HASH/INTERVAL as CLUSTER BY "
                   "(liquid clustering); cluster and partition force one form; none writes neither.")
@click.option("--spark-column-mapping", type=click.Choice(SPARK_COLUMN_MAPPING), default="name", show_default=True,
              help="spark: 'delta.columnMapping.mode' of new tables (name makes later RENAME/DROP COLUMN legal).")
@click.option("--spark-varchar", type=click.Choice(SPARK_VARCHAR), default="keep", show_default=True,
              help="spark: keep VARCHAR(n)/CHAR(n), or write them as STRING.")
@click.option("--white-table-list", metavar="LIST", default=None,
              help="Keep only the DDL of these tables, as GaussDB's white-table-list decoding option: "
                   "schema.table entries separated by commas, * for any (public.t1,*.t3,my_schema.*). "
                   "DDL on no table (schemas, functions...) is kept.")
@click.option("--schema-regex", metavar="REGEX", default=None,
              help="Keep only statements naming a schema this regular expression matches whole.")
@click.option("--exclude-user", "exclude_users", multiple=True, metavar="USER[,USER...]",
              help="Leave out the DDL run by these users (GaussDB's exclude-users; inputs that carry "
                   "the user: JDDL myowner, decoding rows). Repeatable.")
@click.option("--state", "state_path", metavar="PATH", default=None,
              help="Load the stream's history (catalog state) from PATH at start (when it exists) and save "
                   "it there atomically at the end, so that the next batch of the log continues it. "
                   "Documents the state has already seen (by LSN) are skipped.")
@_common
def translate(target: str, mode: str, fmt: str, validate: bool, pretty: bool, spark_catalog: str | None,
              spark_partitioning: str, spark_column_mapping: str, spark_varchar: str,
              white_table_list: str | None, schema_regex: str | None, exclude_users: tuple[str, ...],
              state_path: str | None, default_schema: str,
              schema_map: tuple[tuple[str, str], ...], on_unsupported: str, verbose: bool,
              inputs: tuple[str, ...]) -> None:
    """Translate documents to TARGET DDL."""
    from .api import Options, translate_document
    from .backends import get_backend
    from .history import Catalog

    try:
        options = Options.of(mode=mode, validate=validate, default_schema=default_schema,
                             schema_map=schema_map, on_unsupported=on_unsupported, pretty=pretty,
                             spark_catalog=spark_catalog, spark_partitioning=spark_partitioning,
                             spark_column_mapping=spark_column_mapping, spark_varchar=spark_varchar,
                             white_table_list=white_table_list, schema_regex=schema_regex,
                             exclude_users=[u for v in exclude_users for u in v.split(",")])
    except (ValueError, TypeError) as exc:
        raise click.BadParameter(str(exc)) from None
    backend = get_backend(target)
    catalog = Catalog()
    history = None
    if state_path is not None:
        from .state_file import History, StateError

        try:
            history = History.load(state_path)
        except StateError as exc:
            _report("error", f"{exc} [{exc.code}]")
            sys.exit(2)
        catalog = history.catalog
    out = sys.stdout
    tally = _Tally()
    write = None
    if fmt == "json":
        import orjson

        write = out.buffer.write if hasattr(out, "buffer") else (lambda b: out.write(b.decode()))
    docs = _inputs(inputs, verbose)
    for doc in docs:
        if history is not None and history.seen(doc):
            if history.replayed == 1:
                _report("note", history.replay_note(doc))
            tally.replayed += 1
            continue
        result = translate_document(doc, backend, options, catalog)
        if history is not None:
            history.advance(doc)
        if result.filtered is not None:
            tally.filtered += 1
            if write is not None:
                write(orjson.dumps(result.to_dict()) + b"\n")
            continue
        try:  # nothing in writing one document's result may stop the stream
            payload = orjson.dumps(result.to_dict()) + b"\n" if write is not None else result.sql
        except Exception as exc:  # noqa: BLE001 - a bug: this document fails, the others go on
            result = _unwritable(result, exc)
            payload = orjson.dumps(result.to_dict()) + b"\n" if write is not None else ""
        tally.add(result)
        if write is not None:
            write(payload)
        else:
            out.write(payload)
        for d in result.diagnostics:
            if fmt == "sql" and d.severity.value != "info":
                _report(d.severity.value, f"{result.document}: {d.jsonpath}: {d.message} [{d.code}]")
        if result.untranslated:
            how = "kept as a comment" if on_unsupported == "comment" else "left out (--on-unsupported skip)"
            _report("note", f"{result.document}: statement not translated to {target}; {how}")
        if result.error is not None:
            _report("error", str(result.error))
        out.flush()  # streaming: each document's output as soon as it is ready
    if history is not None:
        try:
            history.save(state_path)
        except OSError as exc:
            _report("error", f"cannot save the state to {state_path}: {exc.strerror or exc}")
            tally.errors += 1
    sys.stderr.write(tally.line(docs.unrecognised, docs.dml, options.filtering, history is not None) + "\n")
    sys.exit(1 if tally.errors else 0)


def _unwritable(result, exc: Exception):
    """``result`` as a failed document: its output could not be rendered (an internal error, kept to itself)."""
    import dataclasses

    from .diagnostics import E_INTERNAL
    from .errors import DdlcError

    err = DdlcError(f"internal error while writing the result: {type(exc).__name__}", code=E_INTERNAL,
                    document=result.document)
    return dataclasses.replace(result, statements=(), comments=(), diagnostics=(), error=err, blocks=frozenset())


class _Tally:
    """The one summary line every translate run ends with (on stderr)."""

    __slots__ = ("documents", "statements", "dropped", "untranslated", "errors", "filtered", "replayed")

    def __init__(self) -> None:
        self.documents = self.statements = self.dropped = self.untranslated = self.errors = 0
        self.filtered = self.replayed = 0  # documents left out by the filters / already seen by --state

    def add(self, t) -> None:
        self.documents += 1
        self.statements += len(t.statements)
        self.untranslated += t.untranslated
        self.errors += t.error is not None
        if t.statements:
            self.dropped += sum(1 for d in t.diagnostics if d.severity.value == "warning")

    def line(self, unrecognised: int = 0, dml: int = 0, filtering: bool = False, state: bool = False) -> str:
        out = (f"ddlc: {_n(self.documents + self.filtered + self.replayed, 'document')}, {_n(self.statements, 'statement')} written, "
               f"{_n(self.dropped, 'clause')} dropped, {_n(self.untranslated, 'statement')} not translated, "
               f"{_n(self.errors, 'error')}, {_n(unrecognised, 'line')} not recognised")
        if dml:  # rows files only: the DML and BEGIN/COMMIT rows passed over
            out += f", {_n(dml, 'DML/transaction row')} skipped"
        if filtering:
            out += f", {self.filtered} filtered"
        if state:
            out += f", {self.replayed} already seen"
        return out


def _n(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


@cli.command()
@click.option("--to", "target", type=click.Choice(TARGET_CHOICES), default="gaussdb", show_default=True,
              help="Target whose capability table the passes apply.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@_common
def explain(target: str, fmt: str, default_schema: str, schema_map: tuple[tuple[str, str], ...],
            on_unsupported: str, verbose: bool, inputs: tuple[str, ...]) -> None:
    """Print the IR and the diagnostics of each document."""
    import orjson

    from .api import Options
    from .explain import explain_document, render_text

    options = Options.of(default_schema=default_schema, schema_map=schema_map, on_unsupported=on_unsupported)
    failed = 0
    for doc in _inputs(inputs, verbose):
        report = explain_document(doc, options, target)
        failed += report["error"] is not None
        if fmt == "json":
            sys.stdout.write(orjson.dumps(report).decode() + "\n")
        else:
            sys.stdout.write(render_text(report))
    sys.exit(1 if failed else 0)


@cli.command()
@click.argument("inputs", nargs=-1, type=click.Path(allow_dash=True, dir_okay=False))
@click.option("--quiet", "-q", is_flag=True, help="Print nothing on success.")
@_verbose
def validate(inputs: tuple[str, ...], quiet: bool, verbose: bool) -> None:
    """Check documents against the JSON Schemas in grammars/ (every violation, with its path)."""
    from .frontend.schema import validate as check

    total = bad = 0
    docs = _inputs(inputs, verbose)
    for doc in docs:
        total += 1
        if doc.error is not None:
            bad += 1
            _report("error", str(doc.error))
            continue
        if doc.tree is None:  # TDDL text: nothing to validate
            continue
        problems = check(doc.tree, document=doc.label)
        if problems:
            bad += 1
            for p in problems:
                _report("error", str(p))
    if not quiet:
        sys.stderr.write(f"{total - bad} of {total} document(s) valid, "
                         f"{_n(docs.unrecognised, 'line')} not recognised\n")
    sys.exit(1 if bad else 0)


from .cli_replay import replay  # noqa: E402

cli.add_command(replay)

if __name__ == "__main__":  # pragma: no cover
    main()
