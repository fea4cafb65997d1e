"""The cost of a savepoint: copied files (the default) against hard links, side by side.

One local Spark session builds a stateful query checkpoint per state store (HDFS-backed, and
RocksDB with changelog checkpointing) with ``keys`` keys over a few batches, then takes
savepoints of it alternately as copies and as hard links, and reports the median time of each,
their ratio, and the bytes a copy adds. Then a stateful job whose input arrives faster than its
checkpoints, with Flink's default of one retained checkpoint, is given ``triggers`` triggered
savepoints and a stop-with-savepoint through its ``JobClient``; each call's time is reported.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from typing import Any, Dict, List

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

HDFS = "org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider"
ROCKSDB = "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider"
CHANGELOG = "spark.sql.streaming.stateStore.rocksdb.changelogCheckpointing.enabled"


def _write(directory: str, name: str, keys: int, start: int) -> None:
    os.makedirs(directory, exist_ok=True)
    temp = os.path.join(directory, "." + name)
    with open(temp, "w") as out:
        for i in range(keys):
            out.write(json.dumps({"k": "key-{}".format(i), "v": start + i}) + "\n")
    os.replace(temp, os.path.join(directory, name))


def _checkpoint(spark: Any, work: str, provider: str, keys: int) -> str:
    """A stopped stateful query's checkpoint after three batches of ``keys`` keys each."""
    spark.conf.set("spark.sql.streaming.stateStore.providerClass", provider)
    spark.conf.set(CHANGELOG, "true")
    source = os.path.join(work, "in")
    location = os.path.join(work, "checkpoint")
    query = None
    for batch in range(3):
        _write(source, "f{}.json".format(batch), keys, batch * keys)
        if query is None:
            frame = spark.readStream.schema("k string, v long").json(source)
            query = (frame.groupBy("k").count().writeStream.outputMode("update").format("noop")
                     .option("checkpointLocation", location).start())
        query.processAllAvailable()
    query.stop()
    return location


def _bytes_of(directory: str) -> int:
    seen, total = set(), 0
    for root, _, names in os.walk(directory):
        for name in names:
            status = os.stat(os.path.join(root, name))
            if status.st_ino not in seen:
                seen.add(status.st_ino)
                total += status.st_size
    return total


def copy_against_links(spark: Any, rounds: int, keys: int) -> Dict[str, Any]:
    from pyflink_compat.checkpoints import write_savepoint

    results: Dict[str, Any] = {}
    for label, provider in (("hdfs", HDFS), ("rocksdb", ROCKSDB)):
        work = tempfile.mkdtemp(prefix="bench-savepoint-")
        try:
            location = _checkpoint(spark, work, provider, keys)
            samples: Dict[str, List[float]] = {"copy": [], "link": []}
            added: Dict[str, int] = {}
            for _ in range(rounds):
                for side in ("copy", "link"):
                    target = os.path.join(work, side)
                    started = time.perf_counter()
                    path = write_savepoint(location, target, "bench", link=side == "link")
                    samples[side].append((time.perf_counter() - started) * 1000)
                    # what the savepoint adds on disk beyond the files it shares
                    added[side] = _bytes_of(path) if side == "copy" else sum(
                        os.stat(os.path.join(r, n)).st_size for r, _, ns in os.walk(path) for n in ns
                        if os.stat(os.path.join(r, n)).st_nlink == 1)
                    shutil.rmtree(path)
            copy_ms, link_ms = statistics.median(samples["copy"]), statistics.median(samples["link"])
            results[label] = {"keys": keys, "copy_ms": copy_ms, "link_ms": link_ms,
                              "ratio": copy_ms / link_ms, "copy_bytes": added["copy"],
                              "link_bytes": added["link"], "checkpoint_bytes": _bytes_of(location),
                              "samples": samples}
            print("{:<8} {:>7} keys  copy {:>8.1f} ms  links {:>8.1f} ms  ratio {:>5.2f}  "
                  "bytes added: copy {:>10}  links {:>8}".format(
                      label, keys, copy_ms, link_ms, copy_ms / link_ms, added["copy"], added["link"]),
                  flush=True)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return results


def busy_job(triggers: int) -> Dict[str, Any]:
    """Triggered savepoints and a stop-with-savepoint of a job whose input outpaces it."""
    from pyflink_compat.common import Configuration
    from pyflink_compat.datastream import StreamExecutionEnvironment

    work = tempfile.mkdtemp(prefix="bench-busy-")
    source = os.path.join(work, "in")
    stop = threading.Event()

    def feed() -> None:
        n = 0
        while not stop.is_set():
            _write(source, "f{:05d}.json".format(n), 50, n * 50)
            n += 1
            time.sleep(0.05)

    _write(source, "seed.json", 50, -50)
    conf = Configuration()
    conf.set_string("execution.checkpointing.savepoint-dir", os.path.join(work, "sp"))
    env = StreamExecutionEnvironment.get_execution_environment(conf)
    env.enable_checkpointing(200)
    env.get_checkpoint_config().set_checkpoint_storage_dir("file://" + os.path.join(work, "cp"))
    frame = env.spark_session.readStream.schema("k string, v long").option("maxFilesPerTrigger", 1).json(source)
    env.add_sink(frame.groupBy("k").count().writeStream.outputMode("update").format("noop"), "counts")
    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    client = env.execute_async("busy")
    commits = os.path.join(work, "cp", "busy", "counts", "commits")
    while not (os.path.isdir(commits) and any(n.isdigit() for n in os.listdir(commits))):
        time.sleep(0.05)
    taken: List[float] = []
    try:
        for _ in range(triggers):
            started = time.perf_counter()
            client.trigger_savepoint().result(60)
            taken.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        client.stop_with_savepoint(False).result(60)
        stopped = (time.perf_counter() - started) * 1000
    finally:
        stop.set()
        env.close()
        shutil.rmtree(work, ignore_errors=True)
    result = {"triggers": triggers, "succeeded": len(taken), "trigger_median_ms": statistics.median(taken),
              "trigger_max_ms": max(taken), "stop_with_savepoint_ms": stopped}
    print("busy job: {} of {} triggered savepoints, median {:.0f} ms, max {:.0f} ms; stop-with-savepoint "
          "{:.0f} ms".format(len(taken), triggers, result["trigger_median_ms"], result["trigger_max_ms"], stopped),
          flush=True)
    return result


def run(rounds: int, full: bool) -> Dict[str, Any]:
    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master("local[2]").appName("bench-savepoints")
             .config("spark.sql.shuffle.partitions", "4").config("spark.ui.enabled", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    print("\nsavepoint cost: copies (default) against hard links, median of {} rounds".format(rounds))
    results: Dict[str, Any] = {"copy_against_links": {}}
    for keys in ((1000, 100_000) if full else (1000, 20_000)):
        results["copy_against_links"][str(keys)] = copy_against_links(spark, rounds, keys)
    results["busy_job"] = busy_job(20)
    return results
