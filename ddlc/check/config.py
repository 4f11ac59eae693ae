"""``ddlc check`` configuration: ``[tool.ddlc]`` in ``pyproject.toml`` or the top level of ``.ddlc.toml``.

Found by looking in the current directory and then each parent for ``.ddlc.toml`` (first) or a
``pyproject.toml`` holding a ``[tool.ddlc]`` table; ``--config PATH`` names one, ``--no-config``
ignores them. Command-line flags override what the file says. Every key is checked: an unknown
key, a value of the wrong type, an empty ``targets`` or ``include`` is one clear error naming the
file and the key. A target's own options are keys too, by their flag names without the dashes
(``spark-constraints = "drop"``), checked by their declarations: they are the default of every command
that translates (:func:`configured_target_options`; ``ddlc check`` takes them from its configuration).

``include`` and ``exclude`` are gitignore patterns (``pathspec.GitIgnoreSpec``: ``*``, ``?``,
``[a-z]`` within one path segment, ``**`` across segments, a leading ``/`` or an inner ``/``
anchors to the file's directory, a pattern naming a directory stands for what is under it, ``!``
re-admits), matched against paths relative to the file's directory. ``pathspec`` is imported on
first use, not at start-up (~12 ms: a pre-commit run over named files never needs it unless
``exclude`` is set), so a pattern it refuses is reported when the globs are first used.
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from typing import Any

from ..records import record
from ..options import DEFAULT_TARGET, TARGETS_ENV

__all__ = ["CheckConfig", "ConfigError", "DEFAULT_TARGETS", "configured_target_options", "default_targets",
           "find_config", "load_config", "glob_spec"]

DEFAULT_TARGETS = (DEFAULT_TARGET,)
DEFAULT_INCLUDE = ("**/*.json", "**/*.jsonl", "**/*.ndjson")


class ConfigError(Exception):
    """The configuration file cannot be used (a usage error: exit 2)."""


@record(frozen=True, slots=True)
class CheckConfig:
    """What ``ddlc check`` checks and what fails it (see the module docstring for the file form)."""

    targets: tuple[str, ...] = DEFAULT_TARGETS
    strict: bool = False  # warnings fail too
    default_schema: str = "public"
    schema_map: tuple[tuple[str, str], ...] = ()
    allow: frozenset[str] = frozenset()  # codes that never fail a check (still reported as allowed)
    deny: frozenset[str] = frozenset()  # codes that always fail it, whatever their severity
    include: tuple[str, ...] = DEFAULT_INCLUDE  # files a directory (or a pre-commit file list) stands for
    exclude: tuple[str, ...] = ()
    # every selected file must be JDDL: without it a JSON file with no "fmt", "JDDL" or "TDDL" key anywhere
    # (package.json, tsconfig.json) is left alone with a note, by check and format alike
    require_jddl: bool = False
    # the targets' own options, by their flag names without the dashes (spark-constraints = "drop"), as
    # (library keyword, value) pairs: the default of every command that translates (a flag overrides it)
    target_options: tuple[tuple[str, Any], ...] = ()
    root: str = "."  # the directory globs are relative to
    source: str | None = None  # the file this came from

    def with_flags(self, **flags: Any) -> CheckConfig:
        """The flags given on the command line (None: not given) over the file's values."""
        return replace(self, **{k: v for k, v in flags.items() if v is not None})

    def wanted(self, path: str) -> bool:
        """Is ``path`` one of the files the include/exclude globs select? Raises :class:`ConfigError`
        for a glob that is not one."""
        if self.include == DEFAULT_INCLUDE:  # the default globs select by suffix: no glob library to import
            included = path.endswith((".json", ".jsonl", ".ndjson"))
        else:
            included = self._spec("include").match_file(_relative(path, self.root))
        return included and not self.excluded(path)

    def excluded(self, path: str) -> bool:
        """Do the exclude globs leave ``path`` out? (Without any, the glob library is not imported.)"""
        return bool(self.exclude) and self._spec("exclude").match_file(_relative(path, self.root))

    def _spec(self, key: str) -> Any:
        return glob_spec(getattr(self, key), where=self.source or "the configuration", key=key)


def _relative(path: str, root: str) -> str:
    try:
        rel = os.path.relpath(os.path.abspath(path), os.path.abspath(root))
    except ValueError:  # another drive
        rel = path
    return rel.replace(os.sep, "/")


_SPECS: dict[tuple[str, ...], Any] = {}


def glob_spec(globs: tuple[str, ...], *, where: str = "the configuration", key: str = "include") -> Any:
    """The ``pathspec.GitIgnoreSpec`` of ``globs`` (gitignore semantics; cached). A glob the library
    refuses, or one that can select nothing (blank, a ``#`` comment, an unclosed ``[``), is a
    :class:`ConfigError` naming ``where`` and ``key``."""
    spec = _SPECS.get(globs)
    if spec is None:
        import pathspec  # here, not at start-up: ~12 ms of imports

        for g in globs:
            try:
                one = pathspec.GitIgnoreSpec.from_lines([g])
            except ValueError as exc:
                raise ConfigError(f"{where}: {key}: {g!r} is not a glob ({exc})") from None
            if all(p.include is None for p in one.patterns):
                raise ConfigError(f"{where}: {key}: {g!r} can select no file (in gitignore syntax it is blank, "
                                  "a comment, or has an unclosed [)")
        spec = _SPECS[globs] = pathspec.GitIgnoreSpec.from_lines(globs)
    return spec


def find_config(start: str | os.PathLike[str] = ".") -> str | None:
    """The configuration file that applies in ``start``: the nearest ``.ddlc.toml`` or ``pyproject.toml``
    with a ``[tool.ddlc]`` table, looking upwards. (``os.path``, not ``pathlib``: start-up.)"""
    d = os.path.realpath(start)
    while True:
        own = os.path.join(d, ".ddlc.toml")
        if os.path.isfile(own):
            return own
        py = os.path.join(d, "pyproject.toml")
        if os.path.isfile(py):
            with open(py, encoding="utf-8", errors="replace") as fh:
                if "[tool.ddlc" in fh.read():
                    return py
        up = os.path.dirname(d)
        if up == d:
            return None
        d = up


_KEYS = {"targets", "strict", "default-schema", "schema-map", "allow", "deny", "include", "exclude", "require-jddl"}


def load_config(path: str | os.PathLike[str] | None) -> CheckConfig:
    """The configuration in ``path`` (None: the defaults). Raises :class:`ConfigError`."""
    env = _env_targets()
    if path is None:
        return CheckConfig() if env is None else CheckConfig(targets=env)
    import tomllib  # (here, not at the top: most runs read no configuration)

    p = os.fspath(path)
    try:
        with open(p, encoding="utf-8") as fh:
            data = tomllib.loads(fh.read())
    except OSError as exc:
        raise ConfigError(f"cannot read the configuration {p}: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{p}: not valid TOML: {exc}") from None
    where = str(p)
    if os.path.basename(p) == "pyproject.toml":
        data = data.get("tool", {}).get("ddlc", {})
        where = f"{p} [tool.ddlc]"
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: must be a table")
    kw: dict[str, Any] = {}
    options: dict[str, Any] = {}
    for raw_key, v in data.items():
        key = raw_key.replace("_", "-")
        if key not in _KEYS and _target_option(key, raw_key, v, where, options):
            continue
        if key not in _KEYS:
            raise ConfigError(f"{where}: unknown key {raw_key!r} (known: {', '.join(sorted(_KEYS))}, and the "
                              "targets' options by their flag names, e.g. spark-constraints)")
        name = key.replace("-", "_")
        if key in ("strict", "require-jddl"):
            if not isinstance(v, bool):
                raise ConfigError(f"{where}: {raw_key} must be true or false, not {v!r}")
            kw[name] = v
        elif key == "default-schema":
            if not isinstance(v, str) or not v:
                raise ConfigError(f"{where}: {raw_key} must be a non-empty string, not {v!r}")
            kw[name] = v
        elif key == "schema-map":  # a table, "a=b,c=d" or a list of "a=b": the CLI's one parser
            from ..options import parse_mapping

            if not isinstance(v, dict | str | list):
                raise ConfigError(f"{where}: {raw_key} must be a table of source = \"target\" schema names "
                                  f"(or \"SRC=DST,SRC=DST\"), not {v!r}")
            try:
                kw[name] = parse_mapping(v, raw_key, "--schema-map")
            except (ValueError, TypeError) as exc:
                raise ConfigError(f"{where}: {exc}") from None
        else:
            if isinstance(v, str):
                v = [s.strip() for s in v.split(",") if s.strip()]
            if not isinstance(v, list) or not all(isinstance(s, str) and s for s in v):
                raise ConfigError(f"{where}: {raw_key} must be a list of strings, not {v!r}")
            if not v and key in ("targets", "include"):
                what = ("name at least one target (known: " + ", ".join(_known_targets()) + ")" if key == "targets"
                        else "name at least one glob, or leave the key out for the default "
                             + ", ".join(DEFAULT_INCLUDE))
                raise ConfigError(f"{where}: {raw_key} is empty: {what}")
            if key == "targets":
                _check_targets(v, where)
                kw[name] = tuple(v)
            elif key in ("allow", "deny"):
                kw[name] = frozenset(_code(c, where, raw_key) for c in v)
            else:
                kw[name] = tuple(v)
    if env is not None:
        kw["targets"] = env  # the environment over the file, a flag over both
    if options:
        kw["target_options"] = tuple(sorted(options.items()))
    return CheckConfig(root=os.path.dirname(p) or ".", source=where, **kw)


def _target_option(key: str, raw_key: str, v: Any, where: str, into: dict[str, Any]) -> bool:
    """A target's own option (``spark-constraints = "drop"``: its flag without the dashes) put in ``into`` by
    its library keyword, checked by its declaration; False when ``key`` names no target's option."""
    from ..backends import target_of_keyword  # names only: the backend is imported for a key it may own

    keyword = key.replace("-", "_")
    if target_of_keyword(keyword) is None:
        return False
    from ..backends import find_option

    found = find_option(keyword)
    if found is None:
        return False
    try:
        found[1].check(keyword, v)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{where}: {raw_key}: {str(exc).removeprefix(keyword + ' ')}") from None
    into[keyword] = v
    return True


def configured_target_options(start: str | os.PathLike[str] = ".") -> dict[str, Any]:
    """The targets' own options the configuration that applies in ``start`` sets (``spark-constraints =
    "drop"``...), by library keyword: what a translating command uses where its flag is not given. Raises
    :class:`ConfigError` for a configuration that cannot be used."""
    path = find_config(start)
    return {} if path is None else dict(load_config(path).target_options)


def _env_targets() -> tuple[str, ...] | None:
    """The targets ``DDLC_TARGETS`` names (comma-separated), None when it is unset or blank."""
    raw = os.environ.get(TARGETS_ENV, "")
    if not raw.strip():
        return None
    names = [t.strip() for t in raw.split(",") if t.strip()]
    _check_targets(names, f"the environment variable {TARGETS_ENV}={raw!r}")
    return tuple(names)


def default_targets(start: str | os.PathLike[str] = ".") -> tuple[str, ...]:
    """The targets a command uses when its ``--to`` is not given: ``DDLC_TARGETS``, else the ``targets``
    of the configuration that applies in ``start``, else :data:`ddlc.options.DEFAULT_TARGET`. Raises
    :class:`ConfigError` for a configuration or a variable that cannot be used."""
    env = _env_targets()
    if env is not None:
        return env
    return load_config(find_config(start)).targets


def _known_targets() -> tuple[str, ...]:
    from ..backends import BACKENDS

    return tuple(BACKENDS)


def _check_targets(targets: list[str], where: str) -> None:
    for t in targets:
        if t not in _known_targets():
            raise ConfigError(f"{where}: unknown target {t!r} (known: {', '.join(_known_targets())})")


def _code(c: str, where: str, key: str) -> str:
    code = c.upper()
    if not code.startswith("DDLC-"):
        code = "DDLC-" + code
    if not re.fullmatch(r"DDLC-[EWNI]\d{3}", code):
        raise ConfigError(f"{where}: {key}: {c!r} is not a diagnostic code (like DDLC-W611)")
    return code

