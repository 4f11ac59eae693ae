"""Shared test helpers: golden-case discovery and paths."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
CASES = FIXTURES / "cases"
ORACLE = FIXTURES / "oracle"


def ddlc_command() -> list[str]:
    """The real console script next to this interpreter (installed by `pip install -e .`)."""
    script = Path(sys.executable).with_name("ddlc")
    if not script.exists():
        raise RuntimeError(f"console script {script} missing: run `pip install -e .` (see README)")
    return [str(script)]


def case_dirs() -> list[Path]:
    return sorted(p.parent for p in CASES.rglob("input.json"))


def case_id(p: Path) -> str:
    return str(p.relative_to(CASES))


import pytest  # noqa: E402


@pytest.fixture(scope="session")
def pg_server():
    """A real PostgreSQL server for the whole test session (installed and started if needed)."""
    from engines.postgres import PostgresServer

    server = PostgresServer()
    server.start()
    _PG_SERVERS.append(server)
    yield server
    _PG_SERVERS.remove(server)
    left = len(server.live_databases)
    t0 = time.perf_counter()
    server.stop()
    _ENGINE_TIMES.append(f"PostgreSQL stopped in {time.perf_counter() - t0:.1f} s "
                         f"({server.databases_made} databases made, {left} left)")


_PG_SERVERS: list[Any] = []  # the session's PostgreSQL server once a test asked for it


@pytest.fixture(autouse=True)
def _drop_the_test_databases():
    """Every database a test makes (``pg_server.fresh_database()``, directly or in a helper) is dropped when the
    test ends: hundreds of them left make the server's shutdown write out and delete gigabytes. Databases made
    by a module fixture (set up before this one) stay for the module's other tests; the fixture drops them.
    A hypothesis test that makes one per example drops each one itself (``with pg_server.database() as db``)."""
    made_before = {id(s): s.databases_made for s in _PG_SERVERS}  # (the server may start during the test)
    yield
    for server in list(_PG_SERVERS):
        server.drop_databases_made_after(made_before.get(id(server), 0))


@pytest.fixture()
def pg_db(pg_server):
    """A connection to a fresh, empty database."""
    with pg_server.database() as name, pg_server.connect(name) as conn:
        yield conn


# Speed is measured in bench/, never in tests: no per-example deadline (the first example of a
# property may pay a lazy import, and CI machines are shared).
from hypothesis import settings as _hyp_settings  # noqa: E402

_hyp_settings.register_profile("ddlc", deadline=None)
_hyp_settings.load_profile("ddlc")


@pytest.fixture(scope="session")
def spark():
    """One local SparkSession for the whole test session, with the stand-in ``delta`` source.
    Never skipped: a Spark that cannot start fails the tests that need it."""
    from engines.spark import SparkEngine

    engine = SparkEngine()
    yield engine
    t0 = time.perf_counter()
    engine.stop()
    _ENGINE_TIMES.append(f"SparkSession stopped in {time.perf_counter() - t0:.1f} s")


_ENGINE_TIMES: list[str] = []  # what the session's engines took to stop (CI time: issue 26's closing note)


def pytest_sessionfinish(session: Any) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # a pytest-xdist worker: its engines' lines go to the controller
        workeroutput["ddlc_engine_times"] = list(_ENGINE_TIMES)


def pytest_testnodedown(node: Any, error: Any) -> None:  # (pytest-xdist's controller, as each worker ends)
    name = getattr(node, "gateway", None) and node.gateway.id
    _ENGINE_TIMES.extend(f"{line} [{name}]" for line in getattr(node, "workeroutput", {}).get("ddlc_engine_times", ()))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    for line in _ENGINE_TIMES:
        terminalreporter.write_line(f"engines: {line}")


def pytest_collection_finish(session: Any) -> None:
    """Refuse a run on pytest-xdist workers whose groups were not applied (a pytest release xdist does not follow:
    pytest-xdist issue 1386): the SparkSession's tests would be spread over the workers, each with a session of
    its own, and pass or fail by the order they happen to run in."""
    workerinput = getattr(session.config, "workerinput", None)
    if workerinput is not None:  # (a worker's own options say no --dist: the command line it came from does)
        args = [*workerinput.get("mainargv", ()), *os.environ.get("PYTEST_ADDOPTS", "").split()]
        if any("loadgroup" in a for a in args) and session.items and "@" not in session.items[0].nodeid:
            raise pytest.UsageError("pytest-xdist did not apply the test groups (--dist loadgroup): see "
                                    "tests/conftest.py; pytest " + pytest.__version__)


@pytest.hookimpl(tryfirst=True)  # (before xdist's own hook, which reads the groups into the test ids)
def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    """Under pytest-xdist (``.ci/test`` runs ``-n 2 --dist loadgroup``): every test that uses the shared
    SparkSession (the ``spark`` fixture, or marked ``spark_session`` when it asks for it at run time) runs on one worker, in the order of a serial run (its tests share the session's catalog: a
    schema one test makes is there for the next); any other test stays with its file (module fixtures
    made once)."""
    for item in items:
        shared = "spark" in getattr(item, "fixturenames", ()) or item.get_closest_marker("spark_session") is not None
        group = "spark-session" if shared else item.nodeid.split("::", 1)[0]
        item.add_marker(pytest.mark.xdist_group(group))


def pytest_configure(config: Any) -> None:
    config.addinivalue_line("markers", "spark_session: the test asks for the shared SparkSession at run time "
                                       "(request.getfixturevalue): it runs in the session's xdist group")
