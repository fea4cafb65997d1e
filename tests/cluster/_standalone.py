"""A real standalone Spark cluster (one master, one worker with one core) and its processes.

The cluster is started from the pyspark package itself (``$SPARK_HOME/bin/spark-class``), bound
to 127.0.0.1 only, on free ports, with its work and log directories in a temporary directory.
Every process is started here in a process group of its own and stopped by its id when the
cluster stops, whatever happened; readiness is polled from the master's JSON status page.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from typing import Any, Dict, List, Optional

import pytest

from tests._helpers.waiting import wait_until

#: Java options that make the short-lived JVMs of the tests start faster.
QUICK_JVM = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
EXECUTOR_CLASS = "org.apache.spark.executor.CoarseGrainedExecutorBackend"


def spark_home() -> str:
    import pyspark

    return os.path.dirname(os.path.abspath(pyspark.__file__))


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# -- processes ---------------------------------------------------------------------------------
def children(pid: int) -> List[int]:
    """The direct children of ``pid`` (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/{}/stat".format(entry)) as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:  # fields after the name: state, ppid, ...
            found.append(int(entry))
    return found


def descendants(pid: int) -> List[int]:
    found = []
    for child in children(pid):
        found.append(child)
        found.extend(descendants(child))
    return found


def command_line(pid: int) -> str:
    try:
        with open("/proc/{}/cmdline".format(pid), "rb") as cmdline:
            return cmdline.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def stop_group(proc: "subprocess.Popen[Any]", grace: float = 10.0) -> None:
    """Stop a process started with ``start_new_session`` and everything in its group, by id."""
    pgid = proc.pid
    if proc.poll() is None:
        try:
            os.killpg(pgid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            pass
    deadline = time.monotonic() + grace
    while group_alive(pgid) and time.monotonic() < deadline:
        time.sleep(0.1)
    if group_alive(pgid):
        os.killpg(pgid, signal.SIGKILL)
    proc.wait(30)
    wait_until(lambda: not group_alive(pgid), 30, "process group {} to exit".format(pgid))


# -- the cluster -------------------------------------------------------------------------------
class Cluster:
    """A running standalone master and worker."""

    def __init__(self, base: Any):
        self.base = base
        self.home = spark_home()
        self.port = free_port()
        self.webui = free_port()
        self.worker_webui = free_port()
        self.url = "spark://127.0.0.1:{}".format(self.port)
        conf_dir = base / "conf"  # an empty Spark configuration: nothing from the machine
        conf_dir.mkdir()
        self.env = dict(os.environ)
        self.env.update({
            "SPARK_HOME": self.home,
            "SPARK_CONF_DIR": str(conf_dir),
            "SPARK_LOCAL_IP": "127.0.0.1",
            "SPARK_LOCAL_DIRS": str(base / "local"),
            "SPARK_DAEMON_MEMORY": "384m",
            "SPARK_DAEMON_JAVA_OPTS": QUICK_JVM,
            "PYSPARK_PYTHON": sys.executable,
            "PYSPARK_DRIVER_PYTHON": sys.executable,
        })
        for name in ("SPARK_REMOTE", "SPARK_CONNECT_MODE_ENABLED", "PYSPARK_SUBMIT_ARGS",
                     "PYSPARK_GATEWAY_PORT", "PYSPARK_GATEWAY_SECRET"):
            self.env.pop(name, None)
        self.processes: List["subprocess.Popen[Any]"] = []
        self.worker: Optional["subprocess.Popen[Any]"] = None

    def _spawn(self, name: str, args: List[str]) -> "subprocess.Popen[Any]":
        log = open(str(self.base / "{}.log".format(name)), "w")
        try:
            proc = subprocess.Popen([os.path.join(self.home, "bin", "spark-class")] + args,
                                    stdout=log, stderr=subprocess.STDOUT, env=self.env,
                                    start_new_session=True)
        finally:
            log.close()
        self.processes.append(proc)
        return proc

    def launch(self) -> "Cluster":
        """Start the master and the worker (the worker retries until the master is up)."""
        self._spawn("master", ["org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
                               "--port", str(self.port), "--webui-port", str(self.webui)])
        work = self.base / "work"
        work.mkdir()
        self.worker = self._spawn("worker", [
            "org.apache.spark.deploy.worker.Worker", self.url, "--host", "127.0.0.1",
            "--webui-port", str(self.worker_webui), "--cores", "1", "--memory", "1g",
            "--work-dir", str(work)])
        return self

    def wait_ready(self) -> "Cluster":
        """Poll the master until it lists the worker as alive."""
        for proc in self.processes:
            if proc.poll() is not None:
                pytest.fail("a cluster process exited ({}):\n{}".format(proc.returncode, self.logs()))
        wait_until(lambda: [w for w in (self.status() or {}).get("workers", [])
                            if w.get("state") == "ALIVE"], 120, "an alive worker on the master")
        return self

    def stop(self) -> None:
        """Stop the worker (and the executors in its group), then the master, by pid."""
        failures = []
        for proc in reversed(self.processes):
            try:
                stop_group(proc)
            except BaseException as e:  # stop the others, then report it
                failures.append(e)
        if failures:
            raise failures[0]

    def status(self) -> Optional[Dict[str, Any]]:
        """The master's JSON status, or ``None`` while it does not answer."""
        try:
            url = "http://127.0.0.1:{}/json/".format(self.webui)
            with urllib.request.urlopen(url, timeout=5) as answer:
                return dict(json.loads(answer.read().decode()))
        except (OSError, ValueError):
            return None

    def applications(self) -> List[Dict[str, Any]]:
        status = self.status() or {}
        return list(status.get("activeapps", [])) + list(status.get("completedapps", []))

    def executors(self) -> List[int]:
        """The pids of the executor processes the worker runs now."""
        assert self.worker is not None
        return [pid for pid in descendants(self.worker.pid) if EXECUTOR_CLASS in command_line(pid)]

    def logs(self) -> str:
        return "\n".join("--- {}\n{}".format(name, (self.base / (name + ".log")).read_text()[-3000:])
                         for name in ("master", "worker"))
