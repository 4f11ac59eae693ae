"""What the ``ddlc`` commands share: reporting, the input and translation options, their checks.

(Its own module so that each command module imports it and none imports another: no cycle.)
"""

from __future__ import annotations

import sys
from typing import Any

import click

_COLOR_ERR = None


def _err_color() -> bool:
    global _COLOR_ERR
    if _COLOR_ERR is None:
        _COLOR_ERR = use_colour(sys.stderr)
    return _COLOR_ERR


def use_colour(stream: Any) -> bool:
    """Colour on ``stream``: never with ``NO_COLOR``; with ``FORCE_COLOR`` (any value but ``0`` or ``false``)
    even in a pipe or a CI log; else only on a terminal."""
    import os

    if os.environ.get("NO_COLOR"):
        return False
    force = os.environ.get("FORCE_COLOR")
    if force:
        return force.lower() not in ("0", "false")
    return stream.isatty()


def _report(kind: str, text: str) -> None:
    colour = {"error": "red", "warning": "yellow", "note": "cyan", "info": "blue"}.get(kind)
    prefix = f"{kind}:"
    if _err_color() and colour:
        prefix = click.style(prefix, fg=colour, bold=True)
    status = sys.modules.get("ddlc.cli.status")
    if status is not None:  # a progress line is (or was) on the screen: off it first, never mixed in
        status.hide()
    sys.stderr.write(f"{prefix} {text}\n")


INPUT_SUFFIXES = (".json", ".jsonl", ".ndjson")  # the files a directory given as an input stands for


def expand_inputs(inputs: tuple[str, ...]) -> list[str]:
    """The inputs with each directory replaced by the files under it whose names end in
    :data:`INPUT_SUFFIXES` (sorted; hidden directories skipped). One rule for every command: a
    missing file, and a directory holding none of those files, is an input that cannot be read (its
    document fails, exit 1); no input at all means standard input."""
    import os

    out: list[str] = []
    for p in inputs or ("-",):
        if p != "-" and os.path.isdir(p):
            found = []
            for d, dirs, files in os.walk(p):
                dirs[:] = sorted(x for x in dirs if not x.startswith("."))
                found.extend(os.path.join(d, f) for f in files if f.endswith(INPUT_SUFFIXES))
            out.extend(sorted(found) or [p])  # none: reading the directory is the error
        else:
            out.append(p)
    return out


def _inputs(inputs: tuple[str, ...], verbose: bool = False, form: str = "auto", txns: Any = None) -> Any:
    """The documents of the inputs (a ``DocumentStream``: ``.unrecognised`` counts the lines of
    decoding output that were neither a known row nor part of one; ``-v`` prints each). ``txns``: the
    run's transactions, when a state continues them (:meth:`ddlc.state_file.History.txns`)."""
    from ..frontend.documents import read_inputs

    on_skip = (lambda s: _report("note", str(s))) if verbose else None
    if (not inputs or "-" in inputs) and sys.stdin.isatty():  # else a bare `ddlc translate` waits, silent
        _report("note", "reading standard input (type or paste the documents, then Ctrl-D; or name files: "
                        "ddlc COMMAND FILE...)")
    return read_inputs(expand_inputs(inputs), stdin=sys.stdin, on_skip=on_skip, form=form, txns=txns)


def nothing_read(docs: Any) -> list[str]:
    """The inputs that held nothing at all (no document, no row, no line)."""
    return list(docs.empty)


INPUT_FORMATS = ("auto", "rows", "decoding", "batch", "json")  # ddlc.frontend.documents.FORMS


def _verbose(fn):
    fn = click.option("--input-format", "input_format", type=click.Choice(INPUT_FORMATS), default="auto",
                      show_default=True,
                      help="The inputs' form: told from each input (auto), or forced: rows (the rows of "
                           "pg_logical_slot_get_changes as JSON lines or CSV), decoding (test_decoding/"
                           "mppdb_decoding text), batch (parallel decoding's batch framing), json (a JSON "
                           "document, array or JSON lines).")(fn)
    return click.option("--verbose", "-v", is_flag=True,
                        help="Report each input line that is neither a known row nor part of one "
                             "(its line, byte offset and start) as it is read.")(fn)


def _schema_map(ctx, param, values):
    """``--schema-map`` and ``--role-map``: ``SRC=DST``, repeatable, each also a comma list (``a=b,c=d``), read
    by the library's one parser (:func:`ddlc.options.parse_mapping`); a malformed entry or a source mapped
    twice to different targets is a usage error."""
    if not values:
        return ()
    from ..options import parse_mapping

    flag = "--" + (param.name or "schema_map").replace("_", "-") if param is not None else "--schema-map"
    try:
        return parse_mapping(values, "", flag)
    except (ValueError, TypeError) as exc:
        raise click.BadParameter(str(exc)) from None


_role_map = _schema_map  # one parser for every mapping flag


OWNERS_HELP = ("Also give each object a CREATE makes (table, partition, view, materialized view, sequence, "
               "function, type, schema) to the role that ran it, the document's myowner, with ALTER ... OWNER TO "
               "after the statement, as pg_dump does (postgres; spark and gaussdb say it is not written). Off by "
               "default: replication appliers usually run as one role, and every OWNER TO needs that role to "
               "exist on the target. AUTHORIZATION and OWNER TO written in the source are kept either way.")
NO_OWNER_HELP = ("Write no ownership at all, like pg_dump's --no-owner: CREATE SCHEMA ... AUTHORIZATION "
                 "loses AUTHORIZATION, ALTER ... OWNER TO and DEFINER are removed (DDLC-I502).")
ROLE_MAP_HELP = ("Rename a role in AUTHORIZATION, OWNER TO, DEFINER, GRANT/REVOKE and the --owners owner "
                 "(repeatable; also SRC=DST,SRC=DST).")


def _owner_options(fn):
    fn = click.option("--role-map", multiple=True, callback=_role_map, metavar="SRC=DST", help=ROLE_MAP_HELP)(fn)
    return click.option("--no-owner", "no_owner", is_flag=True, help=NO_OWNER_HELP)(fn)


def _common(fn):
    fn = click.argument("inputs", nargs=-1, type=click.Path(allow_dash=True))(fn)
    fn = click.option("--on-unsupported", type=click.Choice(["warn", "error", "comment", "skip"]), default="warn",
                      show_default=True,
                      help="What the target cannot take. warn: drop a clause with a warning, fail a statement "
                           "with no target form; error: fail both; comment: keep both as SQL comments; "
                           "skip: leave a statement with no target form out, with its warning.")(fn)
    fn = click.option("--schema-map", multiple=True, callback=_schema_map, metavar="SRC=DST",
                      help="Rename a schema everywhere (repeatable; also SRC=DST,SRC=DST).")(fn)
    fn = click.option("--default-schema", default="public", show_default=True,
                      help="Schema for names the input left unqualified.")(fn)
    return _verbose(fn)


from ..backends import BACKENDS, target_names  # noqa: E402  (names only: no backend is imported)


class _Targets(list):
    """The registered targets' names, read each time they are used (a target registered after the CLI
    was imported is a choice too)."""

    def _names(self) -> list[str]:
        return target_names()

    def __iter__(self):
        return iter(self._names())

    def __len__(self) -> int:
        return len(self._names())

    def __contains__(self, x: object) -> bool:
        return x in BACKENDS

    def __getitem__(self, i):
        return self._names()[i]

    def __repr__(self) -> str:
        return repr(self._names())

    def __eq__(self, other: object) -> bool:
        return self._names() == list(other) if isinstance(other, list | tuple) else NotImplemented

    __hash__ = None  # type: ignore[assignment]


TARGET_CHOICES: list[str] = _Targets()


class TargetChoice(click.Choice):
    """``--to``: one of the registered targets (read when the command runs, not when it is defined)."""

    def __init__(self) -> None:
        super().__init__(TARGET_CHOICES)

    @property
    def choices(self):  # type: ignore[override]
        return tuple(target_names())

    @choices.setter
    def choices(self, value) -> None:  # click's __init__ assigns it
        pass

    def convert(self, value, param, ctx):
        value = super().convert(value, param, ctx)
        if ctx is None or not ctx.resilient_parsing:  # a target whose own library is missing: exit 2
            from .needs import require_targets

            require_targets([value])
        return value


TO_DEFAULT_HELP = "Default: the targets DDLC_TARGETS names, else targets in .ddlc.toml, else postgres."


def resolve_targets(given: str | list[str] | None) -> list[str]:
    """The targets of a command: ``--to`` when given, else :func:`ddlc.check.config.default_targets`
    (``DDLC_TARGETS``, the configuration's ``targets``, ``postgres``); one that cannot be used is a usage
    error (exit 2). A command that takes one target uses the first."""
    if given:
        return [given] if isinstance(given, str) else list(given)
    from ..check.config import ConfigError, default_targets

    try:
        names = list(default_targets())
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None
    from .needs import require_targets

    require_targets(names)
    return names


def __getattr__(name: str) -> Any:
    """``SPARK_PARTITIONING``... the spark target's declared choices (ddlc.api gives the same)."""
    if name.startswith("SPARK_"):
        from .. import api

        return getattr(api, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def target_option_params(targets: list[str]) -> list[click.Option]:
    """The flags of ``targets``' own options (``--spark-varchar``...), made from their backends'
    declarations (:class:`ddlc.backends.base.TargetOption`). Not given, an option keeps its default."""
    from ..backends import backend_class
    from ..backends.base import OptionKind

    out = []
    for t in targets:
        cls = backend_class(t)
        for kw, o in cls.option_keywords().items():
            flag = "--" + kw.replace("_", "-")
            shown = f"{o.help} ({t} target)"
            if o.kind is OptionKind.FLAG:
                out.append(click.Option([flag, kw], is_flag=True, default=None, help=shown))
            elif o.kind is OptionKind.CHOICE:
                out.append(click.Option([flag, kw], type=click.Choice(o.choices), default=None,
                                        help=f"{shown}  [default: {o.default}]"))
            else:
                out.append(click.Option([flag, kw], metavar=o.metavar or "VALUE", default=None, help=shown))
    return out


class TargetOptionsCommand(click.Command):
    """A command that also takes every target's own options (generated from the backends' declarations).

    Only the backends whose flags appear on the command line are imported (all of them for ``--help``),
    so naming no target option costs nothing at start-up."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        names = target_names()
        if ctx.resilient_parsing or any(a in ("--help", "-h") for a in args):
            wanted = names
        else:
            wanted = [t for t in names if any(a.startswith(f"--{t}-") for a in args)]
        ctx.meta["ddlc.target_options"] = target_option_params(wanted)
        return super().parse_args(ctx, args)

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        params = super().get_params(ctx)
        extra = ctx.meta.get("ddlc.target_options")
        if extra is None:
            extra = ctx.meta["ddlc.target_options"] = target_option_params(target_names())
        return [*params[:-1], *extra, params[-1]] if params else extra  # before --help


def given_target_options(kw: dict[str, Any]) -> dict[str, Any]:
    """Take the target options the command line gave out of a command's keywords (None: not given), over
    those the configuration sets (``spark-constraints = "drop"`` in .ddlc.toml or ``[tool.ddlc]``); a
    configuration that cannot be used is a usage error (exit 2)."""
    from ..backends import target_of_keyword
    from ..check.config import ConfigError, configured_target_options

    out = {}
    for k in [k for k in kw if target_of_keyword(k) is not None]:
        v = kw.pop(k)
        if v is not None:
            out[k] = v
    try:
        configured = configured_target_options()
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None
    return {**configured, **out}


def _translate_options(fn):
    """The translation options ``translate`` and ``pipeline run`` share (ddlc.api.Options)."""
    for deco in reversed(_TRANSLATE_OPTIONS):
        fn = deco(fn)
    return fn


_TRANSLATE_OPTIONS = [
    click.option("--mode", type=click.Choice(["canonical", "raw"]), default="canonical", show_default=True,
                 help="gaussdb: canonical TDDL text, or raw byte-exact openGauss expansion."),
    click.option("--validate", is_flag=True, help="Check each tree against grammars/ before translating."),
    click.option("--pretty", is_flag=True, help="Pretty-print each statement, on the targets that can (postgres)."),
    click.option("--white-table-list", metavar="LIST", default=None,
                 help="Keep only the DDL of these tables, as GaussDB's white-table-list decoding option: "
                      "schema.table entries separated by commas, * for any (public.t1,*.t3,my_schema.*). "
                      "DDL on no table (schemas, functions...) is kept."),
    click.option("--schema-regex", metavar="REGEX", default=None,
                 help="Keep only statements naming a schema this regular expression matches whole."),
    click.option("--exclude-user", "exclude_users", multiple=True, metavar="USER[,USER...]",
                 help="Leave out the DDL run by these users (GaussDB's exclude-users; inputs that carry "
                      "the user: JDDL myowner, decoding rows). Repeatable."),
    click.option("--owners", is_flag=True, help=OWNERS_HELP),
    _owner_options,
]


def _options(**kw: Any) -> Any:
    """``ddlc.api.Options`` from the shared flags; a bad value is a usage error."""
    from ..api import Options

    users = kw.pop("exclude_users", ())
    kw.update(given_target_options(kw))
    try:
        return Options.of(exclude_users=[u for v in users for u in v.split(",")], **kw)
    except (ValueError, TypeError) as exc:
        raise click.BadParameter(str(exc)) from None


def _n(count: int, word: str) -> str:
    """``1 document``, ``2 documents`` (``index``: ``indexes``)."""
    if count == 1:
        return f"{count} {word}"
    return f"{count} {word}{'es' if word.endswith(('x', 's', 'sh', 'ch')) else 's'}"


class Progress:
    """A progress line on standard error for long runs (:mod:`.status`: no library needed): shown only
    when standard error is a terminal and standard output is not (the output would tear it), after a
    second of work, and never with --quiet. Diagnostics written meanwhile take it off the screen first."""

    __slots__ = ("_what", "_start", "_count", "_line")

    def __init__(self, what: str) -> None:
        import time

        self._what, self._start, self._count, self._line = what, time.monotonic(), 0, None

    @classmethod
    def maybe(cls, what: str) -> Progress | None:
        if not sys.stderr.isatty() or sys.stdout.isatty():
            return None
        return cls(what)

    def tick(self, n: int = 1) -> None:
        self._count += n
        if self._count % 16:  # the clock is read every 16 documents; the line redrawn at most 10 times a second
            return
        import time

        seconds = time.monotonic() - self._start
        if self._line is None:
            if seconds < 1.0:
                return
            from .status import StatusLine

            self._line = StatusLine()
        m, s = divmod(int(seconds), 60)
        self._line.update(f"{self._what}: {self._count:,} document{'' if self._count == 1 else 's'}  {m}:{s:02d}")

    def stop(self) -> None:
        if self._line is not None:
            self._line.close()
