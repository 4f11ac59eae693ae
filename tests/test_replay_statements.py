"""A statement that will fail on the target is never silent (issue 25.4): every fixture history is translated
to PostgreSQL and applied to the real server statement by statement; the server may refuse a statement only
when its document carried a diagnostic (a warning or an error) saying so. A property over prefixes of the
histories: a log cut anywhere is a history too, and its replay script builds the catalog its translation
builds."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ddlc
from ddlc.api import Options
from ddlc.diagnostics import Severity
from ddlc.frontend.documents import read_documents
from ddlc.replay import fold_log, script
from test_replay_histories import HAND_WRITTEN, HISTORY_DIR, SKIP, hand_written, histories, params, sequences


def _said(t) -> list[str]:
    """The diagnostics of a document that announce trouble (warnings, errors)."""
    out = [f"{d.code} {d.message}" for d in t.diagnostics if d.severity in (Severity.WARNING, Severity.ERROR)]
    if t.error is not None:
        out.append(f"{t.error.code} {t.error}")
    return out


def apply_statement_by_statement(conn, translations) -> list[str]:
    """Run every statement in order (autocommit); a refusal of a statement whose document said nothing fails
    the test; one that was announced ends the run (what follows may depend on it). What was refused."""
    import psycopg

    refused = []
    for t in translations:
        for sql in t.statements:
            try:
                conn.execute(sql)
            except psycopg.Error as exc:
                said = _said(t)
                assert said, (f"{t.document}: the server refused a statement that carried no diagnostic:\n{sql}\n"
                              f"{type(exc).__name__}: {exc}")
                refused.append(f"{t.document}: {exc} (said: {said})")
                return refused
    return refused


@pytest.mark.parametrize("log", params(histories()))
def test_no_statement_is_refused_silently(pg_server, log):
    db = pg_server.fresh_database()
    with pg_server.connect(db) as conn:
        conn.autocommit = True
        apply_statement_by_statement(conn, list(ddlc.translate_many(log, target="postgres")))


@pytest.mark.parametrize("name", HAND_WRITTEN)
def test_no_statement_of_the_hand_written_logs_is_refused_silently(pg_server, tmp_path, name):
    db = pg_server.fresh_database()
    with pg_server.connect(db) as conn:
        conn.autocommit = True
        apply_statement_by_statement(conn, list(ddlc.translate_many(hand_written(name, tmp_path), target="postgres")))


def _lines(path: Path) -> list[str]:
    return [x for x in path.read_text("utf-8").splitlines() if x.strip()]


def _catalog(pg_server, statements: list[str]) -> str:
    from engines.catalog import snapshot

    with pg_server.database() as db, pg_server.connect(db) as conn:  # (two per hypothesis example: dropped at once)
        conn.autocommit = True
        for sql in statements:
            conn.execute(sql)
        text = snapshot(conn) + "\n".join(sequences(conn))
    return "\n".join(x for x in text.splitlines() if x and not x.startswith(SKIP))


LOGS = sorted(HISTORY_DIR.glob("*.jsonl"))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(st.sampled_from(LOGS), st.data())
def test_any_prefix_of_a_history_replays_to_its_catalog(pg_server, log, data):
    lines = _lines(log)
    n = data.draw(st.integers(min_value=1, max_value=len(lines)), label="statements")
    text = "\n".join(lines[:n]) + "\n"
    translated = list(ddlc.translate_many(text.encode(), target="postgres"))
    assert all(t.ok for t in translated), [t.error for t in translated if not t.ok]
    replay = fold_log(read_documents(text.encode()), Options.of())
    parts = script(replay, "postgres", Options.of())
    assert all(p.result.error is None for p in parts), [p.result.error for p in parts]
    want = _catalog(pg_server, [s for t in translated for s in t.statements])
    got = _catalog(pg_server, [s for p in parts for s in p.result.statements])
    assert got == want, f"{log.name}, first {n} statements"
