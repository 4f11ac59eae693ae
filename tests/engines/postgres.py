"""A throwaway PostgreSQL server for tests.

The server lives in a fresh temporary directory, listens only on 127.0.0.1 and a
unix socket inside that directory, trusts every local connection, and runs with
durability switched off (fsync, synchronous_commit, full_page_writes) because
nothing in it needs to survive.

PostgreSQL refuses to run as root.  When this process is root, only the
PostgreSQL binaries (initdb, pg_ctl) are run as the ``postgres`` system user via
``runuser``; the data directory is handed to that user.  Python itself always
stays in this process (the venv interpreter is not readable by other users).
When this process is not root, the binaries are run directly.

Typical use::

    srv = PostgresServer()
    srv.start()
    with srv.database() as db:          # dropped at the end of the block
        with srv.connect(db) as conn:
            conn.execute("CREATE TABLE t (a int)")
    srv.stop()          # also happens at interpreter exit

Every database :meth:`PostgresServer.fresh_database` makes stays until it is dropped: a suite that keeps
hundreds of them leaves gigabytes for the server's shutdown to write out and delete.  :meth:`database` drops
its one at the end of the block; :meth:`databases_dropped` drops every one made inside the block (the test
suite wraps each test in it: tests/conftest.py).
"""

from __future__ import annotations

import atexit
import glob
import os
import re
import shutil
import signal
import socket
import stat
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # psycopg is imported lazily so the installer helpers work without it
    import psycopg

MIN_MAJOR = 15
PG_ROOT = "/usr/lib/postgresql"
OS_USER = "postgres"  # system user the binaries run as when we are root
SUPERUSER = "postgres"  # database superuser created by initdb
BINDIR_ENV = "DDLC_PG_BINDIR"  # optional override of the binary directory

_INITDB_TIMEOUT = 180
_PG_CTL_WAIT = 60  # seconds pg_ctl -w waits for start/stop


# --------------------------------------------------------------------------- discovery


def _major_of(bindir: str) -> int | None:
    m = re.search(r"/(\d+)(?:\.\d+)?/bin/?$", bindir)
    return int(m.group(1)) if m else None


def find_postgres_bindir(min_major: int = MIN_MAJOR) -> str | None:
    """The server binary directory to use, or None when there is none.

    ``$DDLC_PG_BINDIR`` wins when set (it must contain initdb and pg_ctl);
    otherwise the highest ``/usr/lib/postgresql/<major>/bin`` with major >= min_major.
    """
    override = os.environ.get(BINDIR_ENV)
    if override:
        if _has_server_binaries(override):
            return override
        raise RuntimeError(f"${BINDIR_ENV}={override!r} does not contain executable initdb and pg_ctl")
    found: list[tuple[int, str]] = []
    for initdb in glob.glob(os.path.join(PG_ROOT, "*", "bin", "initdb")):
        bindir = os.path.dirname(initdb)
        major = _major_of(bindir)
        if major is not None and major >= min_major and _has_server_binaries(bindir):
            found.append((major, bindir))
    return max(found)[1] if found else None


def _has_server_binaries(bindir: str) -> bool:
    return all(os.access(os.path.join(bindir, b), os.X_OK) for b in ("initdb", "pg_ctl", "postgres"))


def ensure_postgres_installed() -> str:
    """Return the server binary directory, installing Debian's ``postgresql`` if needed.

    Installation happens only when no usable server (major >= 15) is present, we
    are root and apt-get exists; otherwise a RuntimeError explains what is
    missing.  This never returns without a usable directory.
    """
    bindir = find_postgres_bindir()
    if bindir:
        return bindir
    apt = shutil.which("apt-get")
    if os.geteuid() != 0 or apt is None:
        why = "not running as root" if os.geteuid() != 0 else "apt-get is not available"
        raise RuntimeError(
            f"No PostgreSQL >= {MIN_MAJOR} server binaries found under {PG_ROOT}/*/bin "
            f"and cannot install them ({why}). Install the Debian package 'postgresql' "
            f"(e.g. `sudo bash .ci/install-postgres.sh`) or set ${BINDIR_ENV} to a "
            "directory containing initdb, pg_ctl and postgres."
        )
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    install = [apt, "install", "-y", "postgresql"]
    attempts: list[str] = []
    for step in ("install", "update+install"):
        if step == "update+install":
            upd = subprocess.run([apt, "update"], env=env, capture_output=True, text=True,
                                 stdin=subprocess.DEVNULL)
            attempts.append(f"$ apt-get update  (exit {upd.returncode})\n{_tail(upd.stdout + upd.stderr)}")
        res = subprocess.run(install, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        attempts.append(f"$ {' '.join(install)}  (exit {res.returncode})\n{_tail(res.stdout + res.stderr)}")
        bindir = find_postgres_bindir()
        if bindir:
            return bindir
    raise RuntimeError(
        "Installing the Debian package 'postgresql' did not provide server binaries "
        f"(PostgreSQL >= {MIN_MAJOR} under {PG_ROOT}/*/bin).\n" + "\n".join(attempts)
    )


# --------------------------------------------------------------------------- helpers


def _tail(text: str, lines: int = 40) -> str:
    return "\n".join(text.rstrip().splitlines()[-lines:])


def _file_tail(path: Path, lines: int = 40) -> str:
    try:
        return _tail(path.read_text(errors="replace"), lines)
    except OSError as exc:
        return f"(log {path} unreadable: {exc})"


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _world_traversable(path: str) -> bool:
    """True when every ancestor of path lets other users pass through (o+x)."""
    p = Path(path).resolve()
    for d in [p, *p.parents]:
        try:
            if not os.stat(d).st_mode & stat.S_IXOTH:
                return False
        except OSError:
            return False
    return True


# --------------------------------------------------------------------------- server


class PostgresServer:
    """One private PostgreSQL cluster in a temporary directory (see module docstring)."""

    def __init__(self, bindir: str | None = None, port: int | None = None) -> None:
        self.bindir = bindir or ensure_postgres_installed()
        if not _has_server_binaries(self.bindir):
            raise RuntimeError(f"{self.bindir} does not contain executable initdb, pg_ctl and postgres")
        self._fixed_port = port is not None
        self.port = port if port is not None else _free_port()
        self.host = "127.0.0.1"
        self.as_root = os.geteuid() == 0
        self.dir: Path | None = None  # temp dir: data/, logs and the unix socket
        self._running = False
        self._db_counter = 0
        self._live: dict[str, int] = {}  # databases made by fresh_database and not dropped: name -> its number
        self._version: int | None = None
        self._lock = threading.Lock()
        self.timings: dict[str, float] = {}  # seconds per phase of the last start/stop

    # ----- paths
    @property
    def datadir(self) -> Path:
        assert self.dir is not None, "server not started"
        return self.dir / "data"

    @property
    def logfile(self) -> Path:
        assert self.dir is not None, "server not started"
        return self.dir / "postgres.log"

    @property
    def running(self) -> bool:
        return self._running

    def conninfo(self, dbname: str = "postgres") -> str:
        return f"host={self.host} port={self.port} user={SUPERUSER} dbname={dbname}"

    # ----- process plumbing
    def _cmd(self, *argv: str) -> list[str]:
        if self.as_root:
            return ["runuser", "-u", OS_USER, "--", *argv]
        return list(argv)

    def _run(self, argv: list[str], what: str, timeout: float, log: Path | None = None) -> subprocess.CompletedProcess:
        """Run a PostgreSQL binary; on failure raise RuntimeError with output and log tails."""
        assert self.dir is not None
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PG", "LC_"))}
        env["LANG"] = "C.UTF-8"
        try:
            res = subprocess.run(
                self._cmd(*argv), cwd=self.dir, env=env, stdin=subprocess.DEVNULL,
                capture_output=True, text=True, timeout=timeout,
                start_new_session=True,  # keep terminal Ctrl-C away from the postmaster
            )
        except subprocess.TimeoutExpired as exc:
            out = (exc.stdout or "") + (exc.stderr or "")
            if isinstance(out, bytes):
                out = out.decode(errors="replace")
            raise RuntimeError(self._failure(what, f"timed out after {timeout}s", out, log)) from None
        if res.returncode != 0:
            raise RuntimeError(self._failure(what, f"exit {res.returncode}", res.stdout + res.stderr, log))
        return res

    def _failure(self, what: str, how: str, output: str, log: Path | None) -> str:
        msg = f"PostgreSQL {what} failed ({how}) in {self.dir}\n--- output ---\n{_tail(output)}"
        if log is not None:
            msg += f"\n--- tail of {log} ---\n{_file_tail(log)}"
        return msg

    def _make_dir(self) -> Path:
        base = tempfile.gettempdir()
        if self.as_root and not _world_traversable(base):
            base = "/tmp"  # the postgres user must be able to reach the directory
        d = Path(tempfile.mkdtemp(prefix="ddlc-pg-", dir=base))
        if self.as_root:
            try:
                shutil.chown(d, OS_USER, OS_USER)
            except LookupError:
                shutil.rmtree(d, ignore_errors=True)
                raise RuntimeError(
                    f"running as root but there is no '{OS_USER}' system user to run PostgreSQL as "
                    "(the Debian 'postgresql' package creates it)"
                ) from None
        os.chmod(d, 0o700)
        return d

    # ----- lifecycle
    def start(self) -> None:
        """Create a cluster in a new temp dir and start it; no-op when already running."""
        with self._lock:
            if self._running:
                return
            self.dir = self._make_dir()
            atexit.register(self.stop)
            try:
                t0 = time.perf_counter()
                self._run(
                    [os.path.join(self.bindir, "initdb"), "-D", str(self.datadir), "-U", SUPERUSER,
                     "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync", "--no-instructions"],
                    "initdb", _INITDB_TIMEOUT,
                )
                self.timings["initdb"] = time.perf_counter() - t0
                t0 = time.perf_counter()
                self._pg_ctl_start()
                self.timings["start"] = time.perf_counter() - t0
            except BaseException:
                self._kill_postmaster()  # e.g. pg_ctl timed out while the postmaster lives on
                self._cleanup_dir()
                atexit.unregister(self.stop)
                raise

    def _pg_ctl_start(self) -> None:
        attempts = 1 if self._fixed_port else 3
        for attempt in range(attempts):
            opts = (
                f"-k {self.dir} -p {self.port} -c listen_addresses={self.host} "
                "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
                # logical decoding (test_decoding slots): stream positions are proven on a real slot
                " -c wal_level=logical -c max_replication_slots=8 -c max_wal_senders=8"
            )
            try:
                self._run(
                    [os.path.join(self.bindir, "pg_ctl"), "-D", str(self.datadir), "-l", str(self.logfile),
                     "-w", "-t", str(_PG_CTL_WAIT), "-o", opts, "start"],
                    "pg_ctl start", _PG_CTL_WAIT + 30, log=self.logfile,
                )
                self._running = True
                return
            except RuntimeError as exc:
                # Another process may have grabbed the auto-picked port in between: pick a new one.
                lost_port = "could not bind" in str(exc) or "Address already in use" in str(exc)
                if attempt + 1 < attempts and lost_port:
                    self._kill_postmaster()
                    self.port = _free_port()
                    continue
                raise

    def stop(self) -> None:
        """Stop the server (fast shutdown) and delete its directory. Safe to call repeatedly."""
        with self._lock:
            if self.dir is None:
                return
            t0 = time.perf_counter()
            try:
                if self._running or (self.dir / "data" / "postmaster.pid").exists():
                    try:
                        self._run(
                            [os.path.join(self.bindir, "pg_ctl"), "-D", str(self.datadir), "-m", "fast",
                             "-w", "-t", str(_PG_CTL_WAIT), "stop"],
                            "pg_ctl stop", _PG_CTL_WAIT + 30, log=self.logfile,
                        )
                    except RuntimeError:
                        self._kill_postmaster()  # last resort; the directory goes anyway
                        raise
            finally:
                self._running = False
                self._cleanup_dir()
                atexit.unregister(self.stop)
                self.timings["stop"] = time.perf_counter() - t0

    def _kill_postmaster(self) -> None:
        pidfile = self.dir / "data" / "postmaster.pid" if self.dir else None
        try:
            pid = int(pidfile.read_text().split()[0]) if pidfile else 0
        except (OSError, ValueError, IndexError):
            return
        if pid > 0:
            try:
                os.kill(pid, signal.SIGQUIT)  # immediate shutdown of postmaster and children
            except (ProcessLookupError, PermissionError):
                pass
            time.sleep(0.5)

    def _cleanup_dir(self) -> None:
        if self.dir is not None:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None

    def __enter__(self) -> "PostgresServer":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ----- SQL
    def connect(self, dbname: str = "postgres") -> "psycopg.Connection":
        """An autocommit psycopg connection to dbname (TCP on 127.0.0.1)."""
        import psycopg

        if not self._running:
            raise RuntimeError("PostgresServer.connect() before start() (or after stop())")
        return psycopg.connect(self.conninfo(dbname), autocommit=True, connect_timeout=10)

    def psql_file(self, dbname: str, path: str, *, options: str = "") -> "subprocess.CompletedProcess[str]":
        """Run a script with ``psql -f`` (how DBAs replay scripts): no psqlrc, stop at the first
        error, the output captured. ``options`` goes to PGOPTIONS (e.g. ``-c standard_conforming_strings=off``)."""
        import subprocess

        psql = os.path.join(self.bindir, "psql")
        env = dict(os.environ, PGOPTIONS=options) if options else None
        return subprocess.run([psql, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", self.conninfo(dbname), "-f", path],
                              capture_output=True, text=True, env=env, timeout=120)

    def fresh_database(self) -> str:
        """Create an empty database ddlc_<n> and return its name (it stays until dropped: see :meth:`database`)."""
        with self._lock:
            self._db_counter += 1
            n = self._db_counter
        name = f"ddlc_{n}"
        with self.connect() as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        with self._lock:
            self._live[name] = n
        return name

    def drop_database(self, name: str) -> None:
        """Drop a database made by :meth:`fresh_database`, ending its sessions."""
        with self.connect() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        with self._lock:
            self._live.pop(name, None)

    @contextmanager
    def database(self) -> Iterator[str]:
        """``with server.database() as name:`` a fresh database, dropped when the block ends."""
        name = self.fresh_database()
        try:
            yield name
        finally:
            if self._running:
                self.drop_database(name)

    @contextmanager
    def databases_dropped(self) -> Iterator[None]:
        """Every database :meth:`fresh_database` makes inside the block is dropped when it ends; the ones made
        before stay."""
        mark = self.databases_made
        try:
            yield
        finally:
            self.drop_databases_made_after(mark)

    def drop_databases_made_after(self, mark: int) -> None:
        """Drop the databases :meth:`fresh_database` made once :attr:`databases_made` was ``mark`` (those not
        dropped already)."""
        with self._lock:
            made = [name for name, n in self._live.items() if n > mark]
        if self._running:
            for name in made:
                self.drop_database(name)

    @property
    def databases_made(self) -> int:
        """How many databases :meth:`fresh_database` made (dropped or not)."""
        with self._lock:
            return self._db_counter

    @property
    def live_databases(self) -> list[str]:
        """The databases :meth:`fresh_database` made that were not dropped, oldest first."""
        with self._lock:
            return list(self._live)

    def version(self) -> int:
        """server_version_num, e.g. 150018."""
        if self._version is None:
            with self.connect() as conn:
                row = conn.execute("SELECT current_setting('server_version_num')::int").fetchone()
            assert row is not None
            self._version = int(row[0])
        return self._version

    def __repr__(self) -> str:
        state = "running" if self._running else "stopped"
        return f"<PostgresServer {self.bindir} {self.host}:{self.port} {state} dir={self.dir}>"
