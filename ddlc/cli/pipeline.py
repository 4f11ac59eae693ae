"""``ddlc pipeline run``: the PySpark pipeline's command line (the driver is :mod:`ddlc.pipeline.run`)."""

from __future__ import annotations

import sys
from typing import Any

import click

from .common import (INPUT_FORMATS, TARGET_CHOICES, TO_DEFAULT_HELP, TargetOptionsCommand, _options, _report, _schema_map,
                     _translate_options, resolve_targets)


@click.group(short_help="Translate decoding logs on Spark (PySpark).", epilog="""\b
Example:
  ddlc pipeline run --input logs/ --to postgres,spark --output out/ --state cdc.state""")
def pipeline() -> None:
    """Translate logical-decoding logs on Spark (local[*] by default, any cluster with --master)."""


def _targets(ctx: Any, param: Any, value: str | None) -> list[str] | None:
    if value is None:
        return None  # resolved when the command runs (resolve_targets)
    names = [t.strip() for t in value.split(",") if t.strip()]
    bad = [t for t in names if t not in TARGET_CHOICES]
    if bad or not names:
        raise click.BadParameter(f"expected targets among {', '.join(TARGET_CHOICES)} separated by commas, "
                                 f"got {value!r}")
    from .needs import require_targets

    require_targets(names)
    return names


@pipeline.command("run", cls=TargetOptionsCommand)
@click.option("--input", "inputs", multiple=True, required=True, metavar="PATH|URI",
              help="A decoding log (file, or a directory: the files under it in name order), a plain path or "
                   "any URI Spark's filesystem layer reads (hdfs://, s3a://, abfss://, file://...). Repeatable; "
                   "read in the order given.")
@click.option("--input-format", type=click.Choice(INPUT_FORMATS), default="auto", show_default=True,
              help="The inputs' form, told from each file (auto) or forced (see ddlc translate --help).")
@click.option("--to", "targets", default=None, callback=_targets, metavar="T1,T2",
              help=f"Targets, separated by commas ({', '.join(TARGET_CHOICES)}). " + TO_DEFAULT_HELP)
@click.option("--output", required=True, metavar="DIR|URI",
              help="Where the outputs go (a directory, or a URI as for --input): <target>.sql, results.parquet, "
                   "quarantine.parquet, summary.json (written last). Must be new, empty or an unfinished run's; "
                   "a committed run there needs --overwrite.")
@click.option("--overwrite", is_flag=True,
              help="Replace the outputs of a committed run in DIR (the files of ddlc's only: any other file "
                   "in DIR still refuses the run).")
@click.option("--master", default=None, metavar="URL",
              help="Spark master (local[N], spark://host:7077, yarn...). Default: local[*], or what spark-submit set.")
@click.option("--state", "state_path", metavar="PATH", default=None,
              help="Load the stream's history from PATH and save it there after the outputs are committed.")
@click.option("--piece-size", default=32, show_default=True, type=click.IntRange(1, 4096), metavar="MB",
              help="JSON lines inputs are read in pieces of about this many MB, each by its own task.")
@click.option("--progress", is_flag=True, help="Show a progress bar (records/s, MB/s) and the Spark UI address.")
@click.option("--verbose", "-v", is_flag=True, help="Show Spark's own logging (by default only its errors).")
@_translate_options
@click.option("--on-unsupported", type=click.Choice(["warn", "error", "comment", "skip"]), default="warn",
              show_default=True, help="As for ddlc translate.")
@click.option("--schema-map", multiple=True, callback=_schema_map, metavar="SRC=DST",
              help="Rename a schema everywhere (repeatable; also SRC=DST,SRC=DST).")
@click.option("--default-schema", default="public", show_default=True,
              help="Schema for names the input left unqualified.")
def run_command(inputs: tuple[str, ...], input_format: str, targets: list[str], output: str, overwrite: bool,
                master: str | None, state_path: str | None, piece_size: int, progress: bool, verbose: bool,
                **kw: Any) -> None:
    """Translate decoding logs on Spark into DIR, each target's statements in log order.

    DIR may be new, empty, or hold only an unfinished run's files (no summary.json: this run completes
    it). A committed run there (summary.json) is refused unless --overwrite, which leaves exactly this
    run's files; a file ddlc does not write is always refused (never removed).

    Exit codes: 0 every document translated; 1 some were quarantined (see quarantine.parquet);
    2 usage error (bad input, option, state or output directory: nothing is started); 3 the counts did
    not add up (nothing committed).

    Example: ddlc pipeline run --input logs/ --to postgres,spark --output out/ --state state.json
    """
    from .needs import PIPELINE, require

    require(PIPELINE, "ddlc pipeline run")
    targets = resolve_targets(targets)
    from ..pipeline.run import CheckFailed, PipelineError, run

    options = _options(**kw)
    try:
        summary = run(inputs, output, targets, master=master, input_format=input_format, state=state_path,
                      progress=progress, piece_size=piece_size << 20, options=options, overwrite=overwrite,
                      verbose=verbose,
                      report=lambda text: sys.stderr.write(text + "\n"))
    except CheckFailed as exc:
        _report("error", str(exc))
        sys.exit(3)
    except PipelineError as exc:
        _report("error", str(exc))
        sys.exit(2)
    failed = sum(c["quarantined"] for c in summary["targets"].values())
    sys.exit(1 if failed else 0)


@pipeline.command("script")
def script_command() -> None:
    """Print the path of the script spark-submit runs (spark-submit ... $(ddlc pipeline script) run ...)."""
    import os

    sys.stdout.write(os.path.join(os.path.dirname(__file__), "submit.py") + "\n")
