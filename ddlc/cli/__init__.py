"""The ``ddlc`` command line: a thin layer over :mod:`ddlc.api`.

Exit codes: 0 every document translated (or valid); 1 some documents failed (the others are still
printed); 2 usage error. Errors go to stderr, one line each, coloured only on a terminal.
"""

from __future__ import annotations

import sys
from importlib import import_module
from typing import Any

import click

from .. import __version__
from .common import Progress
from .common import (  # noqa: F401  (re-exported: ddlc.cli.TARGET_CHOICES ...)
    INPUT_FORMATS, TARGET_CHOICES, TargetChoice, TargetOptionsCommand, _common, _inputs, _n, _options, _report,
    TO_DEFAULT_HELP, _schema_map, _translate_options, _verbose, given_target_options, nothing_read, resolve_targets,
)


def __getattr__(name: str) -> Any:
    """``SPARK_PARTITIONING``...: the spark target's declared choices (as ``ddlc.api`` gives them)."""
    if name.startswith("SPARK_"):
        from .. import api

        return getattr(api, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    """Console entry point: never a traceback, whatever happens."""
    try:
        cli.main(prog_name="ddlc")
    except BrokenPipeError:  # e.g. `ddlc translate big.jsonl | head`
        sys.stderr.close()
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
    except ModuleNotFoundError as exc:  # an optional library missing: what to install, exit 2
        from .needs import missing_module

        advice = missing_module(exc)
        if advice is None:
            _report("error", f"internal error: {type(exc).__name__}: {exc} [DDLC-E900]")
            sys.exit(1)
        _report("error", advice)
        sys.exit(2)
    except Exception as exc:  # a bug in ddlc: one line, exit 1
        _report("error", f"internal error: {type(exc).__name__}: {exc} [DDLC-E900]")
        sys.exit(1)


# The commands that live in their own modules (each imports .common, never this module), in the order they
# were registered: name -> (module, attribute).
_ELSEWHERE = {"check": ("check", "check"), "format": ("check", "format_"), "replay": ("replay", "replay"),
              "pipeline": ("pipeline", "pipeline"), "apply": ("apply", "apply")}


class _Group(click.Group):
    """The ``ddlc`` group: the commands of :data:`_ELSEWHERE` are imported when one is named, listed (help,
    completion) or run, not at start-up (``ddlc check`` imports neither ``apply``, ``pipeline`` nor ``replay``:
    click's lazily loaded subcommands). A name it does not know loads them all first, so that click's
    "Did you mean" reads every command, as it did when all were registered at import."""

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        cmd = self.commands.get(cmd_name)
        if cmd is None:
            for name in ([cmd_name] if cmd_name in _ELSEWHERE else _ELSEWHERE):
                if name not in self.commands:
                    module, attr = _ELSEWHERE[name]
                    self.add_command(getattr(import_module(f"{__name__}.{module}"), attr))
            cmd = self.commands.get(cmd_name)
        return cmd

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *_ELSEWHERE})


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
             epilog="""\b
Examples:
  ddlc translate --to postgres ddl.jsonl > ddl.sql
  pg_recvlogical ... | ddlc translate --to spark --state cdc.state
  ddlc check --targets postgres,spark --strict migrations/
\b
Shell completion: eval "$(ddlc completion bash)"   (or zsh, fish)
Exit status: 0 every document done, 1 some failed (the others are still written), 2 usage error.""")
@click.version_option(__version__, prog_name="ddlc")
def cli() -> None:
    """ddlc — translate GaussDB/openGauss DDL (JDDL trees and TDDL text from logical decoding) into
    GaussDB, PostgreSQL or Spark SQL DDL.

    Inputs are files, directories (their .json/.jsonl/.ndjson files) or - ; with none, standard input.
    Each may be a JDDL tree, a {"JDDL": ...} or {"TDDL": ...} envelope, JSON lines, a JSON array,
    rows of pg_logical_slot_get_changes, or logical-decoding output: the form is detected.
    """


@cli.command(cls=TargetOptionsCommand, short_help="Translate documents into the DDL of a target.", epilog="""\b
Examples:
  ddlc translate --to postgres orders.json
  ddlc translate --to spark --spark-catalog main ddl/ > ddl.sql
  ddlc translate --to postgres --format json log.jsonl | jq .sql
  ddlc translate --to postgres --state cdc.state batch-0042.jsonl   # a CDC batch, history kept""")
@click.option("--to", "target", type=TargetChoice(), default=None,
              help="Target: postgres (PostgreSQL 15+), spark (Spark SQL, Delta), gaussdb (canonical GaussDB text), "
                   "or one registered (ddlc targets lists them with their options). " + TO_DEFAULT_HELP)
@click.option("--format", "fmt", type=click.Choice(["sql", "json"]), default="sql", show_default=True,
              help="sql: a script ready for psql -f / spark-sql; json: one JSON object per document and line "
                   "(docs/cli.md: Output as JSON).")
@click.option("--quiet", "-q", is_flag=True, help="Print only errors: no warnings, notes or summary line.")
@click.option("--sarif", "sarif_path", metavar="PATH", default=None,
              help="Also write every diagnostic and error as SARIF 2.1.0 to PATH (for code scanning).")
@_translate_options
@click.option("--state", "state_path", metavar="PATH", default=None,
              help="Load the stream's history (catalog state) from PATH at start (when it exists) and save "
                   "it there atomically at the end, so that the next batch of the log continues it. "
                   "Documents the state has already seen (by commit position) are skipped; a transaction "
                   "whose COMMIT is not in the input is kept in the state for the next batch.")
@_common
def translate(target: str, mode: str, fmt: str, validate: bool, pretty: bool,
              white_table_list: str | None, schema_regex: str | None, exclude_users: tuple[str, ...],
              owners: bool, no_owner: bool, role_map: tuple[tuple[str, str], ...],
              state_path: str | None, default_schema: str, quiet: bool, sarif_path: str | None,
              schema_map: tuple[tuple[str, str], ...], on_unsupported: str, verbose: bool,
              input_format: str, inputs: tuple[str, ...], **target_options: Any) -> None:
    """Translate documents into the DDL of the --to target, in input order, on standard output.

    Warnings (what the target cannot take), notes and one summary line go to standard error.
    """
    from ..api import Options, translation, unwritable

    target = resolve_targets(target)[0]
    try:
        options = Options.of(mode=mode, validate=validate, default_schema=default_schema,
                             schema_map=schema_map, on_unsupported=on_unsupported, pretty=pretty,
                             **given_target_options(target_options),
                             white_table_list=white_table_list, schema_regex=schema_regex,
                             exclude_users=[u for v in exclude_users for u in v.split(",")],
                             owners=owners, no_owner=no_owner, role_map=role_map)
    except (ValueError, TypeError) as exc:
        raise click.BadParameter(str(exc)) from None
    from ..session import Session
    from ..state_file import StateError

    try:
        session = Session([target], options, state_path)
    except StateError as exc:
        _report("error", f"{exc} [{exc.code}]")
        sys.exit(2)
    history = session.history
    out = sys.stdout
    tally = _Tally()
    write = None
    if fmt == "json":
        import orjson

        write = out.buffer.write if hasattr(out, "buffer") else (lambda b: out.write(b.decode()))
    if history is not None and history.migrated and not quiet:
        _report("note", history.migrated)
    docs = _inputs(inputs, verbose, input_format, session.txns())
    progress = None if quiet else Progress.maybe("translating")
    findings: list | None = [] if sarif_path is not None else None
    one, backend = session.first_target(), session.backends[0]  # (the run's one target: made once)
    for doc in docs:
        if progress is not None:
            progress.tick()
        compiled = one(doc)
        if compiled is None:  # the state had already seen it
            if session.replayed == 1:
                _report("note", session.replay_note())
            tally.replayed += 1
            continue
        result = translation(doc, backend, compiled)
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
        if findings is not None:
            findings.extend(_findings(result))
        if write is not None:
            write(payload)
        else:
            out.write(payload)
        for d in result.diagnostics:
            if fmt == "sql" and d.severity.value != "info" and not quiet:
                _report(d.severity.value, f"{result.document}: {d.jsonpath}: {d.message} [{d.code}]")
        if result.untranslated and on_unsupported in ("comment", "skip") and not quiet:
            how = "kept as a comment" if on_unsupported == "comment" else "left out (--on-unsupported skip)"
            _report("note", f"{result.document}: statement not translated to {target}; {how}")
        if result.error is not None:
            _report("error", str(result.error))
        out.flush()  # streaming: each document's output as soon as it is ready
    if history is not None:
        try:
            held = session.close(docs)
            if held is not None and not quiet:
                _report("note", held)
        except OSError as exc:
            _report("error", f"cannot save the state to {state_path}: {exc.strerror or exc}")
            tally.errors += 1
    if progress is not None:
        progress.stop()
    if findings is not None:
        tally.errors += not _write_sarif(sarif_path, findings, docs.documents, target)
    for name in nothing_read(docs):  # an empty batch of a log is normal: said, not failed
        if not quiet:
            _report("note", f"{_called(name)}: no documents: the input is empty")
    if not quiet:
        sys.stderr.write(tally.line(docs.unrecognised, docs.dml, options.filtering, history is not None,
                                    docs.rolled_back) + "\n")
    sys.exit(1 if tally.errors else 0)


def _findings(t) -> list:
    """A translation's diagnostics and error as findings (ddlc.check's data), at the document's line."""
    from ..check.run import Finding, error_at

    out = [Finding(t.source, t.line, t.document, d.jsonpath, d.code, d.severity.value, d.message, t.target,
                   fails=False) for d in t.diagnostics]
    if t.error is not None:
        e = t.error
        hint = getattr(e, "hint", None)
        line, column = error_at(e, t.line)
        out.append(Finding(t.source, line, t.document, e.jsonpath, e.code, "error",
                           e.message + (f" ({hint})" if hint else ""), t.target, fails=True, column=column))
    return out


def _write_sarif(path: str, findings: list, documents: int, target: str) -> bool:
    import orjson

    from ..check.report import sarif_report
    from ..check.run import CheckReport

    report = CheckReport(findings=findings, files=0, documents=documents, targets=(target,))
    try:
        with open(path, "wb") as fh:
            fh.write(orjson.dumps(sarif_report(report), option=orjson.OPT_INDENT_2) + b"\n")
    except OSError as exc:
        _report("error", f"cannot write {path}: {exc.strerror or exc}")
        return False
    return True


def _called(name: str) -> str:
    return "standard input" if name == "<stdin>" else name


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


@cli.command(short_help="Print the IR and the diagnostics of each document.", epilog="""\b
Examples:
  ddlc explain --to postgres orders.json
  ddlc explain --format json log.jsonl | jq '.diagnostics[]'""")
@click.option("--to", "target", type=TargetChoice(), default=None,
              help="Target whose capability table the passes apply. " + TO_DEFAULT_HELP)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: an indented tree for people; json: one object per document and line.")
@_common
def explain(target: str, fmt: str, default_schema: str, schema_map: tuple[tuple[str, str], ...],
            on_unsupported: str, verbose: bool, input_format: str, inputs: tuple[str, ...]) -> None:
    """Print the IR and the diagnostics of each document."""
    import orjson

    from ..api import Options
    from ..explain import explain_document, render_text

    target = resolve_targets(target)[0]
    options = Options.of(default_schema=default_schema, schema_map=schema_map, on_unsupported=on_unsupported)
    failed = 0
    docs = _inputs(inputs, verbose, input_format)
    for doc in docs:
        report = explain_document(doc, options, target)
        failed += report["error"] is not None
        if fmt == "json":
            sys.stdout.write(orjson.dumps(report).decode() + "\n")
        else:
            sys.stdout.write(render_text(report))
    for name in nothing_read(docs):
        _report("note", f"{_called(name)}: no documents: the input is empty")
    sys.exit(1 if failed else 0)


@cli.command(short_help="Check documents against the JSON Schemas in grammars/.", epilog="""\b
Examples:
  ddlc validate orders.json
  ddlc validate -q ddl/ && echo valid""")
@click.argument("inputs", nargs=-1, type=click.Path(allow_dash=True))
@click.option("--quiet", "-q", is_flag=True, help="Print nothing on success.")
@_verbose
def validate(inputs: tuple[str, ...], quiet: bool, verbose: bool, input_format: str) -> None:
    """Check documents against the JSON Schemas in grammars/ (every violation, with its path)."""
    from ..frontend.schema import validate as check

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
    empty = nothing_read(docs)
    for name in empty:  # validating nothing is a mistake (an empty schema file): it fails
        _report("error", f"{_called(name)}: no documents: the input is empty [DDLC-E014]")
    if not quiet:
        sys.stderr.write(f"{total - bad} of {_n(total, 'document')} valid, "
                         f"{_n(docs.unrecognised, 'line')} not recognised"
                         + (f", {_n(len(empty), 'input')} empty" if empty else "") + "\n")
    sys.exit(1 if bad or empty else 0)


@cli.command(short_help="List the targets and their own options.")
def targets() -> None:
    """List every target (--to), what it writes, what it can do and its own options, from the backends'
    declarations."""
    from ..backends import backend_class, target_names

    for name in target_names():
        cls = backend_class(name)
        can = [w for w, on in (("pretty-prints (--pretty)", cls.prettify is not None),
                               ("passes TDDL text through", cls.passes_source_text),
                               ("gsql blocks", cls.gsql_blocks)) if on]
        sys.stdout.write(f"{name}: {cls.title}" + (f" ({'; '.join(can)})" if can else "") + "\n")
        for kw, o in cls.option_keywords().items():
            values = "|".join(o.choices) if o.choices else (o.metavar or o.kind.value).upper()
            sys.stdout.write(f"  --{kw.replace('_', '-')} {values}  (library: {kw}=..., default {o.default!r}): "
                             f"{o.help}\n")


@cli.command(short_help="Print a shell completion script.")
@click.argument("shell", type=click.Choice(["bash", "zsh", "fish"]))
def completion(shell: str) -> None:
    """Print the completion script for SHELL; load it with eval "$(ddlc completion bash)" (in ~/.bashrc),
    or the same for zsh; fish: ddlc completion fish > ~/.config/fish/completions/ddlc.fish."""
    from click.shell_completion import get_completion_class

    cls = get_completion_class(shell)
    assert cls is not None
    sys.stdout.write(cls(cli, {}, "ddlc", "_DDLC_COMPLETE").source() + "\n")


if __name__ == "__main__":  # pragma: no cover
    main()
