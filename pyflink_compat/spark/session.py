"""Finding or starting the Spark session that backs the API.

Where the job runs is Spark's decision, not this package's. The rules, in order:

1. An active classic Spark session is used as it is (so is a session this module started
   earlier and that is still running).
2. Spark Connect cannot back the API: it needs the py4j gateway of a classic session. An active
   Connect session, or, when a session has to be started, ``SPARK_REMOTE``,
   ``SPARK_CONNECT_MODE_ENABLED``, ``SPARK_API_MODE=connect``, ``spark.remote`` or
   ``spark.api.mode=connect`` raise :class:`ClassicSessionRequired`.
3. Otherwise a session is started from the configuration Spark itself was launched with: the
   ``spark-submit`` command line (or ``PYSPARK_SUBMIT_ARGS`` when Python launches Spark), the
   ``MASTER`` variable and ``spark-defaults.conf`` (in ``SPARK_CONF_DIR``), as read from the
   launched JVM's ``SparkConf``. Only what none of them set gets a default:

   * the master: ``local[*]`` (Spark's own launcher already supplies it);
   * the application name: ``pyflink_compat``, only when Spark has no name but the placeholder
     ``pyspark-shell`` that PySpark's launcher uses (a ``spark-submit`` of ``job.py`` keeps the
     name ``job.py`` that Spark gives it);
   * ``spark.sql.shuffle.partitions``: on a local master only, the number of threads of that
     master (``local[*]``: the cores), like Flink's local default parallelism, instead of
     Spark's 200 state stores per stateful operator. On a cluster master Spark's value stands;
   * ``spark.ui.showConsoleProgress``: off, when unset, or when PySpark's launcher started the
     JVM from this process (it switches the progress bar on as a shell default) and
     ``PYSPARK_SUBMIT_ARGS`` does not mention it.

Each :class:`~pyflink_compat.datastream.StreamExecutionEnvironment` gets its own Spark session
(``newSession()`` of the base session), so its settings, held in that session's conf, are
independent of every other environment's, while all share one ``SparkContext``.
"""

from __future__ import annotations

import os
import re
import sys
import threading
from contextlib import contextmanager
from typing import TYPE_CHECKING, Dict, Iterator, Mapping, Optional

from pyflink_compat.checkpoints.layout import SHUFFLE_PARTITIONS

if TYPE_CHECKING:
    from py4j.java_gateway import JavaObject
    from pyspark.sql import SparkSession

__all__ = ["ClassicSessionRequired", "active_session_kept", "base_session", "new_session",
           "python_session", "startup_defaults"]

_lock = threading.RLock()
_started: Optional["SparkSession"] = None

#: Name of the application started when Spark was given no name.
LOCAL_APP_NAME = "pyflink_compat"
#: The application name PySpark's own launcher submits its JVM under when given none.
LAUNCHER_PLACEHOLDER_NAME = "pyspark-shell"

_MASTER = "spark.master"
_APP_NAME = "spark.app.name"
_CONSOLE_PROGRESS = "spark.ui.showConsoleProgress"
_LOCAL_MASTER = re.compile(r"^local(?:\[(\*|\d+)(?:,\s*\d+)?\])?$")


class ClassicSessionRequired(RuntimeError):
    """Raised when the only Spark session available is a Spark Connect one.

    The API drives JVM-side Spark objects through PySpark's py4j gateway, which Spark Connect
    clients do not have.
    """


def _connect_message(reason: str) -> str:
    return ("pyflink_compat needs a classic Spark session (py4j gateway to the driver JVM), "
            "but {}. Unset SPARK_REMOTE (and spark.remote / spark.api.mode=connect), or start "
            "a classic session before the environment, e.g. "
            "SparkSession.builder.master('local[*]').getOrCreate(), or submit the job with "
            "spark-submit --master <url> (without --remote).".format(reason))


def _check_not_connect_session(session: object) -> None:
    if type(session).__module__.startswith("pyspark.sql.connect") \
            or not hasattr(session, "_jsparkSession"):
        raise ClassicSessionRequired(_connect_message(
            "the active session is a Spark Connect session ({})".format(type(session).__name__)))


def _check_environment_not_connect(environ: Mapping[str, str]) -> None:
    if environ.get("SPARK_REMOTE"):
        reason = "SPARK_REMOTE is set ({})".format(environ["SPARK_REMOTE"])
    elif "SPARK_CONNECT_MODE_ENABLED" in environ:
        reason = "SPARK_CONNECT_MODE_ENABLED is set"
    elif environ.get("SPARK_API_MODE", "").lower() == "connect":
        reason = "SPARK_API_MODE is connect"
    else:
        return
    raise ClassicSessionRequired(_connect_message(reason))


def _check_conf_not_connect(conf: Mapping[str, str]) -> None:
    if conf.get("spark.remote"):
        raise ClassicSessionRequired(_connect_message(
            "spark.remote is set ({})".format(conf["spark.remote"])))
    if conf.get("spark.api.mode", "").lower() == "connect":
        raise ClassicSessionRequired(_connect_message("spark.api.mode is connect"))


def local_parallelism(master: str, cores: int) -> Optional[int]:
    """The number of task threads of a local master (``None`` for any other master)."""
    match = _LOCAL_MASTER.match(master.strip())
    if match is None:
        return None
    threads = match.group(1)
    if threads is None:
        return 1
    return cores if threads == "*" else max(int(threads), 1)


def startup_defaults(conf: Mapping[str, str], submit_args: Optional[str] = None,
                     cores: Optional[int] = None) -> Dict[str, str]:
    """The settings to add to what Spark was launched with, when starting the base session.

    :param conf: The launched JVM's Spark configuration (``spark-submit`` options,
                 ``PYSPARK_SUBMIT_ARGS``, ``spark-defaults.conf``).
    :param submit_args: When PySpark's launcher started the JVM from this process, the value of
                        ``PYSPARK_SUBMIT_ARGS`` (``""`` if unset); ``None`` under
                        ``spark-submit``.
    :param cores: The machine's cores (default: :func:`os.cpu_count`).
    :return: Only keys that Spark's configuration leaves unset (or at a launcher placeholder).
    """
    defaults: Dict[str, str] = {}
    master = conf.get(_MASTER)
    if not master:
        master = defaults[_MASTER] = "local[*]"
    launcher_named = conf.get(_APP_NAME) == LAUNCHER_PLACEHOLDER_NAME
    if not conf.get(_APP_NAME) or launcher_named:
        defaults[_APP_NAME] = LOCAL_APP_NAME
    threads = local_parallelism(master, cores or os.cpu_count() or 1)
    if threads is not None and SHUFFLE_PARTITIONS not in conf:
        defaults[SHUFFLE_PARTITIONS] = str(threads)
    shell_default = submit_args is not None and _CONSOLE_PROGRESS not in submit_args
    if _CONSOLE_PROGRESS not in conf or shell_default:
        defaults[_CONSOLE_PROGRESS] = "false"
    return defaults


def _launched_conf() -> Dict[str, str]:
    """The Spark configuration of the JVM this process is attached to, launching it if needed.

    Launching goes through PySpark's gateway launcher, which runs ``spark-submit`` with
    ``PYSPARK_SUBMIT_ARGS``; under ``spark-submit`` the JVM is already there. Its ``spark.*``
    system properties (command line, ``spark-defaults.conf``) are what ``SparkConf()`` loads.
    """
    from pyspark import SparkConf, SparkContext

    SparkContext._ensure_initialized()
    context = SparkContext._active_spark_context
    conf = context.getConf() if context is not None else SparkConf()
    return {str(key): str(value) for key, value in conf.getAll()}


def _start() -> "SparkSession":
    from pyspark.sql import SparkSession

    _check_environment_not_connect(os.environ)
    # spark-submit hands its JVM to the Python driver through this variable; without it,
    # PySpark's launcher starts the JVM here, as a "shell" with the shell's defaults.
    submitted = "PYSPARK_GATEWAY_PORT" in os.environ
    conf = _launched_conf()
    _check_conf_not_connect(conf)
    builder = SparkSession.builder
    submit_args = None if submitted else os.environ.get("PYSPARK_SUBMIT_ARGS", "")
    defaults = startup_defaults(conf, submit_args)
    for key, value in defaults.items():
        builder = builder.config(key, value)
    master = conf.get(_MASTER) or defaults.get(_MASTER, "")
    if not submitted and master.startswith("local") and "spark.pyspark.python" not in conf:
        # Python functions run in workers of this machine: the job's own interpreter (and its
        # packages), as PyFlink's local workers do, not whichever python3 is first on PATH.
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    return builder.getOrCreate()


def base_session() -> "SparkSession":
    """The active Spark session, or one started as Spark was configured (see the module)."""
    global _started
    from pyspark.sql import SparkSession

    from pyflink_compat._logging import quiet_py4j

    # py4j's INFO lines (callback server, connections) stay out of the job's output, as in PyFlink.
    quiet_py4j()
    with _lock:
        active = SparkSession.getActiveSession()
        # PySpark makes any session that creates a DataFrame the active one, so an
        # environment's own session may be it: its base is what was active before.
        active = getattr(active, _BASE, None) or active
        if active is not None:
            _check_not_connect_session(active)
            return active
        if _started is not None and _started.sparkContext._jsc is not None:
            return _started
        _started = _start()
        return _started


#: The attribute naming, on a session made here, the base session it was made from.
_BASE = "_pyflink_compat_base"


def new_session() -> "SparkSession":
    """A fresh session sharing the base session's ``SparkContext``, with its own conf."""
    base = base_session()
    session = base.newSession()
    setattr(session, _BASE, base)
    return session


@contextmanager
def active_session_kept() -> Iterator[None]:
    """Run a block whose DataFrames are made by another session (a micro-batch's, in a sink's
    writer) without leaving that session the active one.

    PySpark makes every session that creates a DataFrame the active session of the whole Python
    process; a writer running in a query's thread would otherwise hand the query's own session
    to whatever the job's process does next (the next environment, or the user's
    ``getActiveSession()``).
    """
    from pyspark.sql import SparkSession

    before = SparkSession._activeSession
    try:
        yield
    finally:
        SparkSession._activeSession = before


def python_session(j_session: "JavaObject") -> "SparkSession":
    """The Python :class:`~pyspark.sql.SparkSession` for a JVM ``SparkSession``."""
    from pyspark.sql import SparkSession

    base = base_session()
    session = SparkSession(base.sparkContext, j_session)
    if session is not base:
        setattr(session, _BASE, base)
    return session
