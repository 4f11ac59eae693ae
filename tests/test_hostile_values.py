"""Hostile values in every name and literal position of every fixture tree (issue 8's proof).

For each tree the builder knows, strings at ``%I`` (identifier), ``%L`` (literal) and ``%D``/``%T``
name positions are replaced with hostile values: quotes, backslashes, ``;``, ``--``, ``/*``, dollar
tags, newlines, psql meta-commands, unicode (RTL, zero-width), 64+ byte names, reserved words. The
PostgreSQL output must be either a clean error for that document, or statements that pglast splits
into exactly the statements ddlc reports, each parsing as one statement of the kind ddlc wrote.
A sample of them is applied with psql -f on the real server (with standard_conforming_strings off)
and a sentinel table must survive.
"""

from __future__ import annotations

import copy
import json
import re

import pglast
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ddlc
from conftest import case_dirs, case_id
from ddlc.frontend.build import shape_of

_SPEC = re.compile(r"%\{([A-Za-z_][A-Za-z0-9_]*)(?::[^}]*)?\}([IDTLsn])")

HOSTILE = [
    "x'; DROP TABLE public.sentinel; --", 'x"; DROP TABLE public.sentinel; --', "a\\", "\\'", "$$", "$x$",
    "-- c", "/* c", "*/", ";", "a\nb", "\n\\! id\n", "\\connect x", "\u202eevil", "zero\u200bwidth", "é",
    "n" * 70, "select", "lateral", "isnull", "system_user", "user", "Order", "a.b", "", " ",
]


def _trees():
    out = []
    for case in case_dirs():
        if (case / "expected.error.json").exists():
            continue
        doc = json.loads((case / "input.json").read_text("utf-8"))
        tree = doc.get("JDDL", doc) if isinstance(doc, dict) else None
        if isinstance(tree, dict) and isinstance(tree.get("fmt"), str) and shape_of(tree) is not None:
            out.append((case_id(case), tree))
    return out


TREES = _trees()


def positions(tree, path=()):
    """(path, kind) of every string in a name or literal position of ``tree``."""
    if not isinstance(tree, dict):
        return
    fmt = tree.get("fmt")
    specs = dict((k, c) for k, c in _SPEC.findall(fmt)) if isinstance(fmt, str) else {}
    for k, v in tree.items():
        if k == "fmt":
            continue
        conv = specs.get(k)
        if conv in ("I", "L") and isinstance(v, str):
            yield path + (k,), conv
        elif conv in ("I", "L") and isinstance(v, list):
            for i, x in enumerate(v):
                if isinstance(x, str):
                    yield path + (k, i), conv
        elif conv == "D" and isinstance(v, dict):
            for name in ("objname", "schemaname"):
                if isinstance(v.get(name), str):
                    yield path + (k, name), "D"
        elif conv == "D" and isinstance(v, list):
            for i, x in enumerate(v):
                if isinstance(x, dict) and isinstance(x.get("objname"), str):
                    yield path + (k, i, "objname"), "D"
        if isinstance(v, dict):
            yield from positions(v, path + (k,))
        elif isinstance(v, list):
            for i, x in enumerate(v):
                if isinstance(x, dict):
                    yield from positions(x, path + (k, i))


def _set(tree, path, value):
    for p in path[:-1]:
        tree = tree[p]
    tree[path[-1]] = value


def _kind(sql: str) -> str:
    return " ".join(sql.split()[:2]).upper()


def check_output(t) -> None:
    """Either a clean error, or exactly the statements reported, each one statement of its kind."""
    if t.error is not None:
        assert t.error.code != "DDLC-E900", t.error  # never an internal error
        return
    script = t.sql
    parts = pglast.split(script) if script.strip() else []
    assert len(parts) == len(t.statements), (t.statements, parts)
    for stmt, part in zip(t.statements, parts, strict=True):
        assert len(pglast.parse_sql(stmt)) == 1
        assert _kind(part) == _kind(stmt)
    assert not meta_command_lines(script), script


def meta_command_lines(script: str) -> list[int]:
    """Offsets of lines that start (after blanks) with a backslash outside every token: what psql -f would
    run as a meta-command (``\\! cmd`` runs a shell). Inside a quoted name or a literal it is text."""
    from pglast.parser import scan

    spans = [(t.start, t.end) for t in scan(script)]
    out, pos = [], 0
    for line in script.splitlines(keepends=True):
        stripped = line.lstrip(" \t")
        if stripped.startswith("\\"):
            at = pos + len(line) - len(stripped)
            if not any(a <= at <= b for a, b in spans):
                out.append(at)
        pos += len(line)
    return out


@pytest.mark.parametrize("case", [c for c, _ in TREES], ids=[c for c, _ in TREES])
def test_every_position_with_every_hostile_value(case):
    tree = dict(TREES)[case]
    for path, _conv in list(positions(tree)):
        for value in HOSTILE:
            t2 = copy.deepcopy(tree)
            _set(t2, path, value)
            [t] = ddlc.translate_many([json.dumps(t2)], target="postgres", on_unsupported="skip")
            check_output(t)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_values_anywhere(data):
    case, tree = data.draw(st.sampled_from(TREES))
    tree = copy.deepcopy(tree)
    for path, _conv in list(positions(tree)):
        if data.draw(st.booleans()):
            _set(tree, path, data.draw(st.text(max_size=20) | st.sampled_from(HOSTILE)))
    for target in ("postgres", "gaussdb"):
        [t] = ddlc.translate_many([json.dumps(tree)], target=target, on_unsupported="skip")
        if target == "postgres":
            check_output(t)
        else:
            assert t.error is None or t.error.code != "DDLC-E900", t.error


# ---- on the real server, through psql -f ------------------------------------------------------------------
from conftest import CASES  # noqa: E402

PG_CASES = {case_id(p.parent): p.parent for p in CASES.rglob("expected.postgres.sql")}
PG_TREES = [(c, t) for c, t in TREES if c in PG_CASES]
PAYLOADS = ["x'; DROP TABLE public.sentinel; --", "x\\'; DROP TABLE public.sentinel; --",
            'x"; DROP TABLE public.sentinel; --', "\n\\! touch {marker}\n", "$$; DROP TABLE public.sentinel; $$",
            "/* x", "a\\\\'b"]


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.data())
def test_hostile_scripts_replayed_with_psql(pg_server, tmp_path, data):
    case, tree = data.draw(st.sampled_from(PG_TREES))
    spots = list(positions(tree))
    if not spots:
        return
    tree = copy.deepcopy(tree)
    marker = tmp_path / "pwned"
    for path, _conv in data.draw(st.lists(st.sampled_from(spots), min_size=1, max_size=3, unique=True)):
        _set(tree, path, data.draw(st.sampled_from(PAYLOADS)).format(marker=marker))
    [t] = ddlc.translate_many([json.dumps(tree)], target="postgres", on_unsupported="skip")
    check_output(t)
    if t.error is not None or not t.statements:
        return
    with pg_server.database() as db:  # (one per example: dropped at once)
        setup = PG_CASES[case] / "setup.postgres.sql"
        with pg_server.connect(db) as conn:
            conn.execute("CREATE TABLE public.sentinel (id int)")
            if setup.exists():
                conn.execute(setup.read_text("utf-8"))
        script = tmp_path / "replay.sql"
        script.write_text(t.sql, "utf-8")
        # the script may fail (a renamed object no longer matches the setup); it may never do anything else
        pg_server.psql_file(db, str(script), options="-c standard_conforming_strings=off")
        with pg_server.connect(db) as conn:
            assert conn.execute("SELECT to_regclass('public.sentinel') IS NOT NULL").fetchone() == (True,), t.sql
    assert not marker.exists(), t.sql
