"""``ddlc check`` and ``ddlc format``: schema changes checked before they reach production.

Registered on the ``ddlc`` group by :mod:`ddlc.cli`. The work is :mod:`ddlc.check`; this module only
turns flags and configuration into a :class:`~ddlc.check.config.CheckConfig` and prints.
"""

from __future__ import annotations

import sys

import click

from .common import TO_DEFAULT_HELP, _report, _schema_map

_CHECK_EPILOG = """\b
Examples:
  ddlc check migrations/                       # every JSON file under it
  ddlc check --targets postgres,spark --strict ddl/orders.json
  DDLC_TARGETS=postgres,spark ddlc check ddl/    # the default targets, for every command
  ddlc check --format sarif --output ddlc.sarif ddl/    # for code scanning
\b
Configuration ([tool.ddlc] in pyproject.toml, or .ddlc.toml; flags win):
  targets = ["postgres", "spark"]   strict = true   default-schema = "public"
  schema-map = {sales = "sales_v2"}  allow = ["DDLC-W611"]  deny = ["DDLC-I811"]
  include = ["ddl/**/*.json"]        exclude = ["ddl/legacy/**"]   (gitignore patterns)
\b
Exit status: 0 passed, 1 a finding fails the check, 2 usage or configuration error.
"""


def _codes(ctx, param, values):
    out = []
    for v in values:
        for c in v.split(","):
            c = c.strip().upper()
            if not c:
                continue
            c = c if c.startswith("DDLC-") else "DDLC-" + c
            import re

            if not re.fullmatch(r"DDLC-[EWNI]\d{3}", c):
                raise click.BadParameter(f"{v!r} is not a diagnostic code (like DDLC-W611)")
            out.append(c)
    return frozenset(out) if out else None


def _targets(ctx, param, value):
    if value is None:
        return None
    from ..backends import BACKENDS

    ts = tuple(t.strip() for t in value.split(",") if t.strip())
    for t in ts:
        if t not in BACKENDS:
            raise click.BadParameter(f"unknown target {t!r} (known: {', '.join(BACKENDS)})")
    if not ts:
        raise click.BadParameter(f"no target given (known: {', '.join(BACKENDS)})")
    return ts


@click.command(epilog=_CHECK_EPILOG, short_help="Check documents are valid and translate to every target.")
@click.argument("paths", nargs=-1, type=click.Path(allow_dash=True))
@click.option("--targets", callback=_targets, metavar="LIST",
              help="Targets to translate to, comma-separated. " + TO_DEFAULT_HELP)
@click.option("--strict/--no-strict", default=None, help="Fail on warnings too (what a target drops).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "sarif"]), default="text", show_default=True,
              help="text: one line per finding; json: one report object; sarif: SARIF 2.1.0 for code scanning.")
@click.option("--output", "-o", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write the report to this file instead of standard output.")
@click.option("--config", "config_path", type=click.Path(dir_okay=False), default=None,
              help="The configuration file (default: the nearest .ddlc.toml or pyproject.toml with [tool.ddlc]).")
@click.option("--no-config", is_flag=True, help="Ignore configuration files.")
@click.option("--allow", multiple=True, callback=_codes, metavar="CODE[,CODE]",
              help="Codes that never fail the check (still reported). Repeatable.")
@click.option("--deny", multiple=True, callback=_codes, metavar="CODE[,CODE]",
              help="Codes that always fail the check, whatever their severity. Repeatable.")
@click.option("--default-schema", default=None, help="Schema for names the documents left unqualified [public].")
@click.option("--schema-map", multiple=True, callback=_schema_map, metavar="SRC=DST",
              help="Rename a schema everywhere (repeatable; also SRC=DST,SRC=DST).")
@click.option("--quiet", "-q", is_flag=True, help="Print only what fails, and no summary or progress.")
@click.option("--verbose", "-v", is_flag=True, help="Also print information findings (DDLC-I...).")
def check(paths: tuple[str, ...], targets: tuple[str, ...] | None, strict: bool | None, fmt: str, output: str | None,
          config_path: str | None, no_config: bool, allow: frozenset[str] | None, deny: frozenset[str] | None,
          default_schema: str | None, schema_map: tuple[tuple[str, str], ...], quiet: bool, verbose: bool) -> None:
    """Check JDDL documents: valid against grammars/, and translatable to every target.

    PATHS are files and directories (the files the include/exclude globs select, among those named as
    among those under a directory) or - (stdin); none: the files git lists under the configuration's
    directory (or the current one; .gitignore honoured, and every file under it outside a repository),
    where selecting no file is an error (exit 2). A JSON file with no "fmt", "JDDL" or "TDDL" key
    (package.json) is left alone with a note unless the configuration says require-jddl = true. Each
    finding names its file, line, document, JSON path and code.
    """
    from ..check.config import ConfigError

    config = _config(config_path, no_config, targets=targets, strict=strict, allow=allow, deny=deny,
                     default_schema=default_schema, schema_map=schema_map or None)
    from .needs import require_targets

    require_targets(config.targets)
    from ..check.run import check_paths, expand_paths

    named = paths or (config.root,)
    files = []
    try:
        for p in named:  # no path: the files git lists under the root (.gitignore honoured), else the walk
            chosen = list(expand_paths([p], config, git=not paths))
            if not chosen and paths and not quiet:
                _report("note", f"{p}: nothing to check (no file selected by {_globs(config)})")
            files.extend(chosen)
    except ConfigError as exc:
        _report("error", str(exc))
        sys.exit(2)
    if not files and not paths:
        # no path: what the configuration selects is the check; selecting nothing is not a pass
        _report("error", _nothing_selected(config))
        sys.exit(2)
    report = check_paths(files, config, stdin=sys.stdin, on_file=_progress(len(files), quiet))
    _finish_progress()
    _write(report, fmt, output, config, verbose, quiet)
    if not quiet:
        for name in report.not_jddl:
            _report("note", f"{name}: {NOT_JDDL}")
        from ..check.report import summary_line

        sys.stderr.write(summary_line(report) + "\n")
    sys.exit(1 if report.failed else 0)


NOT_JDDL = ('not JDDL (no "fmt", "JDDL" or "TDDL" key anywhere): left alone (require-jddl = true in the '
            "configuration makes every selected file JDDL)")


def _config(config_path: str | None, no_config: bool, **flags):
    """The configuration (``--config``, else the nearest one; none with ``--no-config``) under the flags;
    a configuration that cannot be used is a usage error (exit 2)."""
    from ..check.config import ConfigError, find_config, load_config

    try:
        where = None if no_config else (config_path or find_config())
        return load_config(where).with_flags(**flags)
    except ConfigError as exc:
        _report("error", str(exc))
        sys.exit(2)


def _globs(config) -> str:
    excluded = f" less exclude {', '.join(config.exclude)}" if config.exclude else ""
    return f"the include globs {', '.join(config.include)}{excluded}"


def _nothing_selected(config) -> str:
    where = f"{config.source}: " if config.source else ""
    return (f"{where}nothing to check: no file under {config.root} selected by {_globs(config)} (name the files "
            "or directories to check, or fix the globs: gitignore syntax)")


def _write(report, fmt: str, output: str | None, config, verbose: bool, quiet: bool) -> None:
    import orjson

    from ..check.report import json_report, sarif_report, text_report

    if fmt == "text":
        if quiet:
            report.findings = [f for f in report.findings if f.fails]
        colour = output is None and _colour(sys.stdout)
        data = text_report(report, colour=colour, verbose=verbose).encode()
    elif fmt == "json":
        data = orjson.dumps(json_report(report), option=orjson.OPT_INDENT_2) + b"\n"
    else:
        data = orjson.dumps(sarif_report(report, root=config.root, verbose=verbose), option=orjson.OPT_INDENT_2) + b"\n"
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    try:
        with open(output, "wb") as fh:
            fh.write(data)
    except OSError as exc:
        _report("error", f"cannot write {output}: {exc.strerror or exc}")
        sys.exit(2)


def _colour(stream) -> bool:
    from .common import use_colour

    return use_colour(stream)


_BAR = None


def _progress(total: int, quiet: bool):
    """A progress line on stderr for long runs on a terminal (never in pipes, CI logs or --quiet)."""
    global _BAR
    if quiet or total < 20 or not sys.stderr.isatty():
        return None
    from .status import StatusLine

    _BAR = bar = StatusLine()
    done = [0]

    def advance(path: str) -> None:
        done[0] += 1
        bar.update(f"checking: {done[0]}/{total} files  {path}", force=done[0] == total)

    return advance


def _finish_progress() -> None:
    global _BAR
    if _BAR is not None:
        _BAR.close()
        _BAR = None


@click.command(name="format", short_help="Rewrite JDDL files in a canonical JSON layout.", epilog="""\b
Examples:
  ddlc format ddl/orders.json          # rewrite it in the canonical layout
  ddlc format --check ddl/             # say which files would change (CI)
\b
Files are chosen as ddlc check chooses them: the configuration's include/exclude globs apply to the files
named as to directories, and a JSON file with no "fmt", "JDDL" or "TDDL" key (package.json) is left alone.
\b
Exit status: 0 done (files rewritten, or nothing to change), 1 with --check a file would be rewritten,
or a file is not JSON, 2 usage error.""")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--check", "only_check", is_flag=True, help="Change nothing; exit 1 if a file would change.")
@click.option("--config", "config_path", type=click.Path(dir_okay=False), default=None,
              help="The configuration file (default: the nearest .ddlc.toml or pyproject.toml with [tool.ddlc]).")
@click.option("--no-config", is_flag=True, help="Ignore configuration files.")
@click.option("--quiet", "-q", is_flag=True, help="Print nothing but errors.")
def format_(paths: tuple[str, ...], only_check: bool, config_path: str | None, no_config: bool, quiet: bool) -> None:
    """Rewrite JDDL files in one canonical JSON layout ("fmt" first, keys sorted, two-space indent;
    JSON lines stay one document per line), so diffs stay small. Idempotent."""
    from ..check.config import ConfigError
    from ..check.layout import LayoutError, format_text
    from ..check.run import expand_paths, looks_jddl

    config = _config(config_path, no_config)
    try:
        chosen = list(expand_paths(paths, config))
    except ConfigError as exc:
        _report("error", str(exc))
        sys.exit(2)
    changed = bad = 0
    for path in chosen:
        try:
            with open(path, "rb") as fh:
                raw = fh.read()
            if raw.strip() and not config.require_jddl and not looks_jddl(raw):
                if not quiet:
                    _report("note", f"{path}: {NOT_JDDL}")
                continue
            text = raw.decode("utf-8")
            new = format_text(text, lines=path.endswith((".jsonl", ".ndjson")))
        except (OSError, UnicodeDecodeError, LayoutError) as exc:
            why = exc.strerror if isinstance(exc, OSError) else str(exc)
            _report("error", f"{path}: {why}; left as it is")
            bad += 1
            continue
        if new == text:
            continue
        changed += 1
        if only_check:
            if not quiet:
                sys.stderr.write(f"would reformat {path}\n")
            continue
        tmp = path + ".ddlc-format.tmp"
        with open(tmp, "w", encoding="utf-8", newline="") as fh:
            fh.write(new)
        import os
        import shutil

        shutil.copymode(path, tmp)
        os.replace(tmp, path)
        if not quiet:
            sys.stderr.write(f"reformatted {path}\n")
    sys.exit(1 if bad or (only_check and changed) else 0)  # as black and ruff: a rewrite done is a success
