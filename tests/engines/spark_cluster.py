"""A real Spark standalone cluster on this machine: one master and N workers, each its own JVM.

``spark-class org.apache.spark.deploy.master.Master`` and ``...deploy.worker.Worker`` (from the pyspark
package), each worker with its cores, memory and work directory of its own; executors are launched by
the workers as separate processes (``CoarseGrainedExecutorBackend``), and their Python workers run this
venv's interpreter. Nothing is mocked: a cluster that does not come up fails the tests that need it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import pyspark

SPARK_HOME = Path(pyspark.__file__).resolve().parent
SPARK_CLASS = SPARK_HOME / "bin" / "spark-class"
SPARK_SUBMIT = SPARK_HOME / "bin" / "spark-submit"


def free_port() -> int:
    return free_ports(1)[0]


def free_ports(n: int) -> list[int]:
    """``n`` distinct ports free now (every socket is held until all are chosen, so none repeats)."""
    socks = [socket.socket() for _ in range(n)]
    try:
        for s in socks:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


# Loopback only, and never through a proxy: an ``http_proxy`` in the environment (CI machines have one)
# would answer for 127.0.0.1 with a page of its own.
_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def get_json(url: str, timeout: float = 5) -> Any:
    """The JSON a Spark UI serves at ``url``; ``ValueError`` naming the URL when the answer is not JSON."""
    with _DIRECT.open(url, timeout=timeout) as r:
        body = r.read()
    try:
        return json.loads(body)
    except ValueError:
        raise ValueError(f"{url} answered with something that is not JSON: {body[:200]!r}") from None


def spark_env(**extra: str) -> dict[str, str]:
    """The environment of the cluster's JVMs and of a driver run against it: this venv's Python everywhere."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYSPARK_SUBMIT_ARGS", "PYSPARK_GATEWAY"))}
    env.update(SPARK_HOME=str(SPARK_HOME), PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable,
               SPARK_LOCAL_IP="127.0.0.1", SPARK_NO_DAEMONIZE="1")
    env.update(extra)
    return env


class SparkCluster:
    """``with SparkCluster(workers=2) as c: ... c.url ...``: a master on 127.0.0.1 and ``workers`` workers of
    ``cores`` cores each."""

    def __init__(self, workers: int = 2, cores: int = 1, memory: str = "1g", conf: dict[str, str] | None = None):
        self.n, self.cores, self.memory = workers, cores, memory
        self.dir = Path(tempfile.mkdtemp(prefix="ddlc-cluster-"))
        self.port, self.ui, *self._worker_uis = free_ports(2 + workers)
        self.url = f"spark://127.0.0.1:{self.port}"
        self.master: subprocess.Popen | None = None
        self.workers: list[subprocess.Popen] = []
        self.conf = conf or {}

    def _start(self, name: str, args: list[str]) -> subprocess.Popen:
        log = open(self.dir / f"{name}.log", "wb")
        conf_dir = self.dir / "conf"
        conf_dir.mkdir(exist_ok=True)
        with open(conf_dir / "spark-defaults.conf", "w") as fh:
            for k, v in self.conf.items():
                fh.write(f"{k} {v}\n")
        env = spark_env(SPARK_CONF_DIR=str(conf_dir), SPARK_DAEMON_MEMORY="512m")
        return subprocess.Popen([str(SPARK_CLASS), *args], stdout=log, stderr=subprocess.STDOUT, env=env,
                                cwd=self.dir, start_new_session=True)

    def start(self) -> SparkCluster:
        self.master = self._start("master", ["org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
                                             "--port", str(self.port), "--webui-port", str(self.ui)])
        for i in range(self.n):
            self.add_worker()
        self.wait_workers(self.n)
        return self

    def add_worker(self) -> subprocess.Popen:
        i = len(self.workers)
        work = self.dir / f"worker-{i}"
        work.mkdir()
        p = self._start(f"worker-{i}", ["org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1",
                                        "--cores", str(self.cores), "--memory", self.memory,
                                        "--work-dir", str(work), "--webui-port",
                                        str(self._worker_uis[i] if i < len(self._worker_uis) else free_port()),
                                        self.url])
        self.workers.append(p)
        return p

    _UI_BOUND = re.compile(rb"Successfully started service 'MasterUI' on port (\d+)")

    def ui_port(self) -> int | None:
        """The port the master's web UI is bound to, as its log says (Spark takes the next port when the one
        asked for is taken), or None before it has bound."""
        try:
            m = self._UI_BOUND.search((self.dir / "master.log").read_bytes())
        except OSError:
            return None
        return int(m.group(1)) if m else None

    def state(self) -> dict[str, Any]:
        port = self.ui_port()
        if port is None:
            raise OSError("the master's web UI has not bound yet")
        return get_json(f"http://127.0.0.1:{port}/json/")

    def wait_workers(self, n: int, timeout: float = 90) -> None:
        end = time.monotonic() + timeout
        last: Exception | None = None
        while True:
            try:
                alive = [w for w in self.state()["workers"] if w["state"] == "ALIVE"]
                if len(alive) >= n:
                    return
            except (OSError, ValueError, KeyError) as e:
                last = e
            for p in [self.master, *self.workers]:
                if p is not None and p.poll() is not None:
                    raise RuntimeError(f"a Spark daemon exited ({p.args[1]}): {self.logs()}")
            if time.monotonic() > end:
                raise RuntimeError(f"the cluster did not come up in {timeout} s (last answer: {last!r}): {self.logs()}")
            time.sleep(0.3)

    def logs(self) -> str:
        return "\n".join(f"--- {f.name}\n{f.read_text(errors='replace')[-3000:]}" for f in sorted(self.dir.glob("*.log")))

    def executors(self) -> list[int]:
        """The pids of the executor processes the workers launched (children of the worker JVMs)."""
        workers = {p.pid for p in self.workers if p.poll() is None}
        out = []
        for d in Path("/proc").iterdir():
            if not d.name.isdigit():
                continue
            try:
                cmd = (d / "cmdline").read_bytes()
                if b"CoarseGrainedExecutorBackend" not in cmd:
                    continue
                ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            if ppid in workers or self._under(ppid, workers):
                out.append(int(d.name))
        return sorted(out)

    @staticmethod
    def _under(pid: int, roots: set[int]) -> bool:
        for _ in range(5):
            try:
                pid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                return False
            if pid in roots:
                return True
        return False

    def stop(self) -> None:
        for p in [*self.workers, self.master]:
            if p is not None and p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGTERM)  # (its own session: the daemon and what it launched)
                except ProcessLookupError:
                    pass
        for p in [*self.workers, self.master]:
            if p is None:
                continue
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
        for e in self.executors():
            try:
                os.kill(e, signal.SIGKILL)
            except ProcessLookupError:
                pass
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> SparkCluster:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc: Any) -> None:
        self.stop()
