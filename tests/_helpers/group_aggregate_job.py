"""An updating SQL job: ``SELECT k, COUNT(*), SUM(v) FROM src GROUP BY k`` over an unbounded
directory of CSV files (``k,v`` lines), printed with its row kinds, checkpointed every 200 ms;
the same query with ``SUM(v) + 0`` (an expression over an aggregate: Spark's own aggregation,
its changes per micro-batch) is printed too, each line after ``having> ``.

Run as a program (``python tests/_helpers/group_aggregate_job.py IN OUT CP group``, the
arguments of :class:`~tests.integration.drivers.killable.KillableDriver`; ``OUT`` is unused:
the print sink writes to the driver's standard output) it is the driver that the restart
tests start and kill.
"""

from __future__ import annotations

import os
import sys
from typing import List


def main(argv: List[str]) -> int:
    input_dir, _out, checkpoint_dir = argv[1:4]
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master("local[2]").appName("pyflink_compat-group-driver")
             .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "2")
             .config("spark.ui.showConsoleProgress", "false")
             .config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")

    from pyflink_compat.common import Configuration
    from pyflink_compat.datastream import (ExternalizedCheckpointRetention, FileSystemCheckpointStorage,
                                           StreamExecutionEnvironment)
    from pyflink_compat.table import StreamTableEnvironment

    configuration = Configuration().set_string("restart-strategy.type", "none")
    env = StreamExecutionEnvironment.get_execution_environment(configuration)
    env.enable_checkpointing(200)
    config = env.get_checkpoint_config()
    config.set_checkpoint_storage(FileSystemCheckpointStorage("file://" + os.path.abspath(checkpoint_dir)))
    config.set_externalized_checkpoint_retention(ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION)
    t_env = StreamTableEnvironment.create(env)
    t_env.execute_sql("CREATE TABLE src (k STRING, v INT) WITH ('connector' = 'filesystem', "
                      "'path' = '{}', 'format' = 'csv', 'source.monitor-interval' = '1s')"
                      .format(os.path.abspath(input_dir)))
    t_env.execute_sql("CREATE TABLE totals (k STRING, c BIGINT, s INT) WITH ('connector' = 'print')")
    t_env.execute_sql("CREATE TABLE having_totals (k STRING, c BIGINT, s INT) WITH ("
                      "'connector' = 'print', 'print-identifier' = 'having')")
    statements = t_env.create_statement_set()
    statements.add_insert_sql("INSERT INTO totals SELECT k, COUNT(*), SUM(v) FROM src GROUP BY k")
    statements.add_insert_sql("INSERT INTO having_totals SELECT k, COUNT(*), SUM(v) + 0 FROM src "
                              "GROUP BY k")
    print("STARTING", flush=True)
    statements.execute().wait()
    print("FINISHED", flush=True)
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
