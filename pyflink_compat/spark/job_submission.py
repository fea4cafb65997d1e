"""Starting a job program the way ``flink run`` does: a Python script, with Flink options that
its environment reads as if the cluster's configuration held them.

The options become ``spark.flink.*`` confs of the Spark application the script starts, which is
where a :class:`~pyflink_compat.datastream.StreamExecutionEnvironment` reads its settings from
(:mod:`pyflink_compat.settings.store`); what the script's own code sets still wins, as in Flink.

* Without a master, the script runs with this Python, and Spark takes the confs from
  ``PYSPARK_SUBMIT_ARGS`` when the script starts its session.
* With a master (``--master`` or ``-m``), it goes through ``spark-submit --master`` (the one in
  ``SPARK_HOME``, else the one of the installed pyspark), in client mode: the driver runs here.

Each submission has an id, passed as the conf ``spark.pyflink_compat.submission``; the job
records it in the registry, which is how the command finds the job it started
(:func:`wait_for_record`).
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
import uuid
from typing import IO, Dict, List, Mapping, Optional, Sequence, Tuple

import attrs

from pyflink_compat.settings.registry import CONF_PREFIX
from pyflink_compat.spark.job_presence import GIVEN_RESTORE_CONF, SUBMISSION_CONF
from pyflink_compat.spark.job_registry import JobRecord, JobRegistry

__all__ = ["Submission", "launch_command", "start", "wait_for_record", "wait_until_running", "program_failure",
           "spark_submit_path", "absolute", "shown_command"]


@attrs.frozen
class Submission:
    """One ``run`` of a job program.

    :param script: The Python file.
    :param args: Its arguments.
    :param options: Flink options by key (the configuration file's, then ``-D``'s and the
        flags').
    :param master: The Spark master to submit to (``None``: run the script here, Spark local).
    :param submission_id: Unique; the job records it.
    :param python: The Python the script runs with.
    :param given_restore: The restore path given with ``-s`` (``None``: none): the job restores
        from it whatever its checkpoint directory holds.
    """

    script: str
    args: Tuple[str, ...] = ()
    options: Mapping[str, str] = attrs.field(factory=dict)
    master: Optional[str] = None
    submission_id: str = attrs.field(factory=lambda: uuid.uuid4().hex)
    python: str = sys.executable
    given_restore: Optional[str] = None

    def confs(self) -> List[Tuple[str, str]]:
        """The Spark confs of the application: every option under ``spark.flink.``, the
        submission id, and the restore path given with ``-s``."""
        given = [] if self.given_restore is None else [(GIVEN_RESTORE_CONF, self.given_restore)]
        return [(CONF_PREFIX + key, value) for key, value in self.options.items()] + \
            [(SUBMISSION_CONF, self.submission_id)] + given


def spark_submit_path(environ: Mapping[str, str]) -> str:
    """``spark-submit`` of ``SPARK_HOME``, else of the installed pyspark."""
    home = environ.get("SPARK_HOME")
    if not home:
        import pyspark

        home = os.path.dirname(os.path.abspath(pyspark.__file__))
    return os.path.join(home, "bin", "spark-submit")


def launch_command(submission: Submission, environ: Mapping[str, str]) -> Tuple[List[str], Dict[str, str]]:
    """The command line and environment that start a submission."""
    env = dict(environ)
    env.setdefault("PYSPARK_PYTHON", submission.python)
    env.setdefault("PYSPARK_DRIVER_PYTHON", submission.python)
    conf_args: List[str] = []
    for key, value in submission.confs():
        conf_args += ["--conf", "{}={}".format(key, value)]
    if submission.master is None:
        given = env.get("PYSPARK_SUBMIT_ARGS", "").strip() or "pyspark-shell"
        env["PYSPARK_SUBMIT_ARGS"] = " ".join(shlex.quote(arg) for arg in conf_args) + " " + given
        return [submission.python, submission.script] + list(submission.args), env
    command = [spark_submit_path(environ), "--master", submission.master] + conf_args + \
        [submission.script] + list(submission.args)
    return command, env


def start(submission: Submission, detached: bool, log: Optional[IO[bytes]] = None,
          environ: Optional[Mapping[str, str]] = None) -> "subprocess.Popen[bytes]":
    """Start a submission's process.

    :param detached: Whether it runs on after this process ends: in a session of its own, its
        output to ``log``, with no input.
    """
    command, env = launch_command(submission, os.environ if environ is None else environ)
    if not detached:
        return subprocess.Popen(command, env=env)
    return subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)


def wait_for_record(registry: JobRegistry, submission_id: str, process: "subprocess.Popen[bytes]",
                    timeout: float, poll: float = 0.2) -> Optional[JobRecord]:
    """The record of the first job a submission started, once it is in the registry.

    :return: ``None`` when the process ended, or ``timeout`` seconds passed, without one.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = [r for r in registry.records() if r.submission == submission_id]
        if found:
            return found[0]
        if process.poll() is not None:
            found = [r for r in registry.records() if r.submission == submission_id]
            return found[0] if found else None
        time.sleep(poll)
    return None


def wait_until_running(registry: JobRegistry, record: JobRecord, process: "subprocess.Popen[bytes]",
                       timeout: float, poll: float = 0.2) -> JobRecord:
    """A recorded job's record once it has left ``CREATED`` (it runs, or has ended), its
    program has ended, or ``timeout`` seconds have passed."""
    deadline = time.monotonic() + timeout
    while record.status == "CREATED" and time.monotonic() < deadline:
        ended = process.poll() is not None
        record = registry.read(record.job_id) or record
        if ended:
            break
        time.sleep(poll)
    return record


#: How much of the end of a program's output is searched for the error it ended with.
_OUTPUT_TAIL = 1 << 16


def program_failure(log_path: str) -> Optional[str]:
    """The error a job program ended with, from the end of its output: the exception of the last
    Python traceback, as one line without the exception's module (``None`` when there is none).
    """
    try:
        with open(log_path, "rb") as stream:
            stream.seek(max(0, os.path.getsize(log_path) - _OUTPUT_TAIL))
            text = stream.read().decode("utf-8", "replace")
    except OSError:
        return None
    start = text.rfind("Traceback (most recent call last):")
    if start < 0:
        return None
    lines = text[start:].splitlines()[1:]
    while lines and (lines[0].startswith((" ", "\t")) or not lines[0].strip()):
        lines.pop(0)  # the frames
    message = " ".join(line.strip() for line in lines if line.strip() and not line.startswith("\tat "))
    head, colon, rest = message.partition(": ")
    if colon and " " not in head and "." in head:  # pkg.module.SomeError: ...
        message = head.rpartition(".")[2] + ": " + rest
    return message[:2000] or None


def absolute(path: str) -> str:
    """A local path made absolute (the job runs in another directory); a URI unchanged."""
    if "://" in path or path.startswith("file:"):
        return path
    return os.path.abspath(path)


def shown_command(argv: Sequence[str]) -> str:
    """A command line as a shell would show it."""
    return " ".join(shlex.quote(a) for a in argv)
