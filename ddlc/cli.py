"""The ``ddlc`` command line: a thin layer over :mod:`ddlc.api`.

Exit codes: 0 every document translated (or valid); 1 some documents failed (the others are still
printed); 2 usage error. Errors go to stderr, one line each, coloured only on a terminal.
"""

from __future__ import annotations

import sys

import click

from . import __version__
from .cli_common import (  # noqa: F401  (re-exported: ddlc.cli.TARGET_CHOICES, SPARK_* ...)
    INPUT_FORMATS, SPARK_COLUMN_MAPPING, SPARK_PARTITIONING, SPARK_VARCHAR, TARGET_CHOICES, _common, _inputs, _n,
    _options, _report, _schema_map, _translate_options, _verbose,
)

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


@cli.command()
@click.option("--to", "target", type=click.Choice(TARGET_CHOICES), default="gaussdb", show_default=True,
              help="Target dialect.")
@click.option("--format", "fmt", type=click.Choice(["sql", "json"]), default="sql", show_default=True,
              help="sql: a script; json: one JSON object per line per document.")
@_translate_options
@click.option("--state", "state_path", metavar="PATH", default=None,
              help="Load the stream's history (catalog state) from PATH at start (when it exists) and save "
                   "it there atomically at the end, so that the next batch of the log continues it. "
                   "Documents the state has already seen (by LSN) are skipped.")
@_common
def translate(target: str, mode: str, fmt: str, validate: bool, pretty: bool, spark_catalog: str | None,
              spark_partitioning: str, spark_column_mapping: str, spark_varchar: str,
              white_table_list: str | None, schema_regex: str | None, exclude_users: tuple[str, ...],
              owners: bool, no_owner: bool, role_map: tuple[tuple[str, str], ...],
              state_path: str | None, default_schema: str,
              schema_map: tuple[tuple[str, str], ...], on_unsupported: str, verbose: bool,
              input_format: str, inputs: tuple[str, ...]) -> None:
    """Translate documents to TARGET DDL."""
    from .api import Options, translate_document, unwritable
    from .backends import get_backend
    from .history import Catalog

    try:
        options = Options.of(mode=mode, validate=validate, default_schema=default_schema,
                             schema_map=schema_map, on_unsupported=on_unsupported, pretty=pretty,
                             spark_catalog=spark_catalog, spark_partitioning=spark_partitioning,
                             spark_column_mapping=spark_column_mapping, spark_varchar=spark_varchar,
                             white_table_list=white_table_list, schema_regex=schema_regex,
                             exclude_users=[u for v in exclude_users for u in v.split(",")],
                             owners=owners, no_owner=no_owner, role_map=role_map)
    except (ValueError, TypeError) as exc:
        raise click.BadParameter(str(exc)) from None
    backend = get_backend(target)
    catalog = Catalog()
    history = None
    if state_path is not None:
        from .state_file import History, StateError

        try:
            history = History.load(state_path, target)
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
    docs = _inputs(inputs, verbose, input_format)
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
            result = unwritable(result, exc)
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
    sys.stderr.write(tally.line(docs.unrecognised, docs.dml, options.filtering, history is not None,
                                docs.rolled_back) + "\n")
    sys.exit(1 if tally.errors else 0)


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

    def line(self, unrecognised: int = 0, dml: int = 0, filtering: bool = False, state: bool = False,
             rolled_back: int = 0) -> str:
        out = (f"ddlc: {_n(self.documents + self.filtered + self.replayed, 'document')}, {_n(self.statements, 'statement')} written, "
               f"{_n(self.dropped, 'clause')} dropped, {_n(self.untranslated, 'statement')} not translated, "
               f"{_n(self.errors, 'error')}, {_n(unrecognised, 'line')} not recognised")
        if dml:  # decoding output: the DML and BEGIN/COMMIT rows passed over
            out += f", {_n(dml, 'DML/transaction row')} skipped"
        if rolled_back:  # DDL of a transaction that ended in ABORT: it never happened
            out += f", {_n(rolled_back, 'rolled-back DDL message')} skipped"
        if filtering:
            out += f", {self.filtered} filtered"
        if state:
            out += f", {self.replayed} already seen"
        return out


@cli.command()
@click.option("--to", "target", type=click.Choice(TARGET_CHOICES), default="gaussdb", show_default=True,
              help="Target whose capability table the passes apply.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@_common
def explain(target: str, fmt: str, default_schema: str, schema_map: tuple[tuple[str, str], ...],
            on_unsupported: str, verbose: bool, input_format: str, inputs: tuple[str, ...]) -> None:
    """Print the IR and the diagnostics of each document."""
    import orjson

    from .api import Options
    from .explain import explain_document, render_text

    options = Options.of(default_schema=default_schema, schema_map=schema_map, on_unsupported=on_unsupported)
    failed = 0
    for doc in _inputs(inputs, verbose, input_format):
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
def validate(inputs: tuple[str, ...], quiet: bool, verbose: bool, input_format: str) -> None:
    """Check documents against the JSON Schemas in grammars/ (every violation, with its path)."""
    from .frontend.schema import validate as check

    total = bad = 0
    docs = _inputs(inputs, verbose, input_format)
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


def _register() -> None:
    """The commands that live in their own modules (each imports cli_common, never this module)."""
    from .cli_check import check, format_
    from .cli_pipeline import pipeline
    from .cli_replay import replay

    cli.add_command(check)
    cli.add_command(format_)
    cli.add_command(replay)
    cli.add_command(pipeline)


_register()

if __name__ == "__main__":  # pragma: no cover
    main()
