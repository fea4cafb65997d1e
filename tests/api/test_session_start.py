"""How the session behind the API is found or started: Spark's launch configuration decides,
the package only fills in what is unset, and Spark Connect is refused clearly."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from pyflink_compat.spark.session import (
    LOCAL_APP_NAME,
    ClassicSessionRequired,
    _check_conf_not_connect,
    _check_environment_not_connect,
    base_session,
    local_parallelism,
    startup_defaults,
)

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# -- the defaults, as a table ------------------------------------------------------------------
LAUNCHED_PLAIN = {"spark.master": "local[*]", "spark.app.name": "pyspark-shell",
                  "spark.ui.showConsoleProgress": "true"}


@pytest.mark.parametrize("conf, submit_args, expected", [
    # python job.py: PySpark's launcher supplies local[*] and its placeholder name
    (LAUNCHED_PLAIN, "", {"spark.app.name": LOCAL_APP_NAME, "spark.sql.shuffle.partitions": "8",
                          "spark.ui.showConsoleProgress": "false"}),
    # PYSPARK_SUBMIT_ARGS="--master local[1] --conf spark.sql.shuffle.partitions=7 pyspark-shell"
    (dict(LAUNCHED_PLAIN, **{"spark.master": "local[1]", "spark.sql.shuffle.partitions": "7"}),
     "--master local[1] --conf spark.sql.shuffle.partitions=7 pyspark-shell",
     {"spark.app.name": LOCAL_APP_NAME, "spark.ui.showConsoleProgress": "false"}),
    # ... asking for the progress bar keeps it
    (LAUNCHED_PLAIN, "--conf spark.ui.showConsoleProgress=true pyspark-shell",
     {"spark.app.name": LOCAL_APP_NAME, "spark.sql.shuffle.partitions": "8"}),
    # spark-defaults.conf naming the application
    (dict(LAUNCHED_PLAIN, **{"spark.master": "local[3]", "spark.app.name": "orders"}), "",
     {"spark.sql.shuffle.partitions": "3", "spark.ui.showConsoleProgress": "false"}),
    # spark-submit --master spark://... --conf spark.sql.shuffle.partitions=400 job.py
    ({"spark.master": "spark://host:7077", "spark.app.name": "job.py",
      "spark.sql.shuffle.partitions": "400"}, None, {"spark.ui.showConsoleProgress": "false"}),
    # spark-submit to a cluster without partitions: Spark's own default stands
    ({"spark.master": "yarn", "spark.app.name": "job.py"}, None,
     {"spark.ui.showConsoleProgress": "false"}),
    # spark-submit --master local[2] job.py
    ({"spark.master": "local[2]", "spark.app.name": "job.py"}, None,
     {"spark.sql.shuffle.partitions": "2", "spark.ui.showConsoleProgress": "false"}),
    # nothing at all
    ({}, None, {"spark.master": "local[*]", "spark.app.name": LOCAL_APP_NAME,
                "spark.sql.shuffle.partitions": "8", "spark.ui.showConsoleProgress": "false"}),
])
def test_defaults_fill_only_what_the_launch_configuration_leaves_unset(conf, submit_args, expected):
    assert startup_defaults(conf, submit_args, cores=8) == expected


@pytest.mark.parametrize("master, threads", [
    ("local", 1), ("local[*]", 8), ("local[3]", 3), ("local[2,4]", 2), ("local[*, 3]", 8),
    ("spark://127.0.0.1:7077", None), ("yarn", None), ("k8s://https://h:443", None),
    ("local-cluster[2,1,1024]", None),
])
def test_local_masters_count_their_threads_and_cluster_masters_are_left_to_spark(master, threads):
    assert local_parallelism(master, cores=8) == threads


# -- Spark Connect -----------------------------------------------------------------------------
@pytest.mark.parametrize("environ", [
    {"SPARK_REMOTE": "sc://localhost:15002"},
    {"SPARK_CONNECT_MODE_ENABLED": "1"},
    {"SPARK_API_MODE": "connect"},
])
def test_a_connect_environment_is_refused_with_the_classic_way(environ):
    with pytest.raises(ClassicSessionRequired) as raised:
        _check_environment_not_connect(environ)
    message = str(raised.value)
    assert "classic Spark session" in message
    assert "Unset SPARK_REMOTE" in message
    assert "SparkSession.builder.master(" in message


@pytest.mark.parametrize("conf", [{"spark.remote": "sc://h:15002"}, {"spark.api.mode": "connect"}])
def test_a_connect_configuration_is_refused(conf):
    with pytest.raises(ClassicSessionRequired, match="classic Spark session"):
        _check_conf_not_connect(conf)


def test_a_classic_configuration_and_environment_pass():
    _check_environment_not_connect({"SPARK_API_MODE": "classic", "SPARK_HOME": "/opt/spark"})
    _check_conf_not_connect({"spark.api.mode": "classic", "spark.master": "local[2]"})


def test_the_active_session_is_used_as_it_is(spark):
    assert base_session() is spark


def test_an_environments_session_that_created_a_data_frame_does_not_replace_the_active_one(spark):
    from pyflink_compat.datastream import StreamExecutionEnvironment

    own = StreamExecutionEnvironment.get_execution_environment().spark_session
    assert own is not spark
    own.createDataFrame([(1,)], "a int")  # PySpark makes it the active session
    assert base_session() is spark


# -- real launches, each in a process of its own -----------------------------------------------
PROBE = """
from pyflink_compat.datastream import StreamExecutionEnvironment
env = StreamExecutionEnvironment.get_execution_environment()
session = env.spark_session
print("SESSION", session.sparkContext.master, session.sparkContext.appName,
      session.conf.get("spark.sql.shuffle.partitions"))
session.stop()
"""


def _launch(tmp_path, **environ):
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYSPARK_SUBMIT_ARGS", "SPARK_CONF_DIR", "SPARK_REMOTE", "MASTER",
                        "PYSPARK_GATEWAY_PORT", "PYSPARK_GATEWAY_SECRET")}
    env.update(PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable,
               PYTHONPATH=os.pathsep.join(p for p in (REPO, os.environ.get("PYTHONPATH")) if p),
               SPARK_LOCAL_DIRS=str(tmp_path), **environ)
    done = subprocess.run([sys.executable, "-c", PROBE], env=env, cwd=str(tmp_path),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
    output = done.stdout.decode(errors="replace")
    lines = [line.split()[1:] for line in output.splitlines() if line.startswith("SESSION ")]
    return done.returncode, lines[0] if lines else None, output


@pytest.mark.slow
def test_pyspark_submit_args_decide_the_master_and_the_shuffle_partitions(tmp_path):
    code, session, output = _launch(tmp_path, PYSPARK_SUBMIT_ARGS=(
        "--master local[1] --conf spark.sql.shuffle.partitions=7 pyspark-shell"))
    assert code == 0, output
    assert session == ["local[1]", LOCAL_APP_NAME, "7"]


@pytest.mark.slow
def test_spark_defaults_decide_the_master_the_name_and_the_shuffle_partitions(tmp_path):
    conf_dir = tmp_path / "conf"
    conf_dir.mkdir()
    (conf_dir / "spark-defaults.conf").write_text(
        "spark.master local[1]\nspark.app.name from-defaults\nspark.sql.shuffle.partitions 5\n")
    code, session, output = _launch(tmp_path, SPARK_CONF_DIR=str(conf_dir))
    assert code == 0, output
    assert session == ["local[1]", "from-defaults", "5"]


@pytest.mark.slow
def test_a_local_master_without_partitions_gets_one_per_thread(tmp_path):
    code, session, output = _launch(tmp_path, PYSPARK_SUBMIT_ARGS="--master local[3] pyspark-shell")
    assert code == 0, output
    assert session == ["local[3]", LOCAL_APP_NAME, "3"]


def test_spark_remote_makes_the_environment_fail_before_any_spark_starts(tmp_path):
    code, session, output = _launch(tmp_path, SPARK_REMOTE="sc://127.0.0.1:1")
    assert code != 0
    assert session is None
    assert "ClassicSessionRequired" in output
    assert "SPARK_REMOTE is set (sc://127.0.0.1:1)" in output
