"""The pipeline's SparkSession: the master the user chose (or spark-submit's), the workers on the driver's own
interpreter, and a local JVM kept quiet and quick to start unless ``-v``."""

from __future__ import annotations

import os
import sys
from typing import Any


LOCAL_JAVA_OPTIONS = "-XX:TieredStopAtLevel=1"  # the JVM of a local session: the quick compiler only


def session(master: str | None = None, ui: bool = False, verbose: bool = False) -> Any:
    """The SparkSession: ``master`` (default ``local[*]``) unless ``spark-submit`` already chose one.
    Workers run the driver's own interpreter (``PYSPARK_PYTHON``), so that they import this ddlc.

    Spark's own logging is quiet unless ``verbose`` (``-v``): a JVM this process starts gets a log4j
    configuration of errors only (no "Using Spark's default log4j profile", "Setting default log level",
    WARN lines), and its start-up notice about incubator modules is held back (:class:`_QuietJvm`)."""
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("ddlc-pipeline")
    launching = "PYSPARK_GATEWAY_PORT" not in os.environ  # not under spark-submit: this process starts the JVM
    if master is not None:
        builder = builder.master(master)
    elif launching:
        builder = builder.master("local[*]")
    java: list[str] = []
    if launching and (master or "local").startswith("local") and "PYSPARK_SUBMIT_ARGS" not in os.environ:
        # in local mode the JVM shares the cores with the Python workers and only passes bytes along: its
        # optimising compiler was most of its CPU (0.1-0.5 CPU-s of a 400 MB run, docs/performance.md)
        java.append(LOCAL_JAVA_OPTIONS)
    quiet = launching and not verbose and "PYSPARK_SUBMIT_ARGS" not in os.environ
    log4j = _quiet_log4j() if quiet else None
    if log4j is not None:
        java.append(f"-Dlog4j2.configurationFile={log4j}")
    if java:
        builder = builder.config("spark.driver.extraJavaOptions", " ".join(java))
    builder = (builder.config("spark.ui.enabled", "true" if ui else "false")
               .config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.execution.arrow.pyspark.enabled", "true")
               .config("spark.sql.adaptive.enabled", "false")
               .config("spark.python.worker.reuse", "true"))
    if not verbose:
        builder = builder.config("spark.log.level", "ERROR")
    with _QuietJvm(quiet):
        spark = builder.getOrCreate()
    if log4j is not None:
        try:
            os.unlink(log4j)
        except OSError:
            pass
    if not verbose and not quiet:
        spark.sparkContext.setLogLevel("ERROR")
    return spark


_LOG4J = """# ddlc pipeline run: Spark's own logging, errors only (-v shows Spark's usual logging)
rootLogger.level = error
rootLogger.appenderRef.stderr.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{yy/MM/dd HH:mm:ss} %p %c{1}: %m%n%ex
"""


def _quiet_log4j() -> str | None:
    """A log4j2 configuration of errors only, in a temporary file (read once, when the JVM starts)."""
    import tempfile

    try:
        fd, path = tempfile.mkstemp(prefix="ddlc-log4j2-", suffix=".properties")
        with os.fdopen(fd, "w") as fh:
            fh.write(_LOG4J)
    except OSError:
        return None
    return path


class _QuietJvm:
    """While the JVM starts, standard error (file descriptor 2, which the JVM inherits) is a pipe that a
    thread copies to the real standard error, less the JVM's own start-up notices (``WARNING: Using
    incubator modules``, which no log4j setting governs) and Spark's log-level announcements. Everything
    else the JVM writes later still reaches standard error through it."""

    NOISE = (b"WARNING: Using incubator modules", b"Setting Spark log level to ", b"Setting default log level to ",
             b"To adjust logging level use sc.setLogLevel", b"Using Spark's default log4j profile")

    def __init__(self, on: bool) -> None:
        self.on = on
        self._saved: int | None = None

    def __enter__(self) -> _QuietJvm:
        if not self.on:
            return self
        import threading

        try:
            sys.stderr.flush()
            read, write = os.pipe()
            self._saved = os.dup(2)
            os.dup2(write, 2)
            os.close(write)
        except OSError:
            self._saved = None
            return self
        threading.Thread(target=self._copy, args=(read, os.dup(self._saved)), name="ddlc-jvm-stderr",
                         daemon=True).start()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._saved is not None:
            sys.stderr.flush()
            os.dup2(self._saved, 2)  # this process writes to the real one again; the JVM keeps the pipe
            os.close(self._saved)
            self._saved = None

    def _copy(self, read: int, out: int) -> None:
        pending = b""
        with os.fdopen(read, "rb", buffering=0) as src:
            while True:
                try:
                    chunk = src.read(65536)
                except OSError:
                    return
                if not chunk:
                    break
                pending += chunk
                *lines, pending = pending.split(b"\n")
                kept = b"".join(line + b"\n" for line in lines if not line.startswith(self.NOISE))
                if kept:
                    try:
                        os.write(out, kept)
                    except OSError:
                        return
        if pending and not pending.startswith(self.NOISE):
            try:
                os.write(out, pending)
            except OSError:
                pass
