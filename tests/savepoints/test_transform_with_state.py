"""A transformWithState query (Spark 4), whose operator metadata names its state schema file by
absolute path, restored from a savepoint into a new location after the original moved away.

The stateful processor is a small Java class (``java/RunningCount.java``) compiled here
against PySpark's jars, so the test needs ``javac``; PySpark's own transformWithState needs
pandas and pyarrow, which the test environments do not have. The query runs in a process of
its own (``tws_job.py``) because its Spark session needs the class on its class path.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from typing import Any

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def spark_major() -> int:
    import pyspark

    return int(pyspark.__version__.split(".")[0])


@pytest.mark.skipif("spark_major() < 4", reason="transformWithState exists from Spark 4.0 on")
@pytest.mark.skipif("shutil.which('javac') is None", reason="compiling the test's stateful processor needs javac")
def test_a_transform_with_state_savepoint_restores_elsewhere_and_continues_exactly_once(tmp_path: Any) -> None:
    import pyspark

    jars = os.path.join(os.path.dirname(pyspark.__file__), "jars")
    classes = tmp_path / "classes"
    subprocess.run(["javac", "-nowarn", "-d", str(classes), "-cp", os.path.join(jars, "*"),
                    os.path.join(HERE, "java", "RunningCount.java")], check=True, capture_output=True, timeout=300)
    jar = str(tmp_path / "running-count.jar")
    shutil.make_archive(jar[:-len(".jar")], "zip", str(classes))
    os.rename(jar[:-len(".jar")] + ".zip", jar)
    work = tmp_path / "work"
    work.mkdir()
    env = dict(os.environ)
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    done = subprocess.run([sys.executable, "-m", "tests.savepoints.tws_job", jar, str(work)], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    # input: "aab" in batch 0, "ac" in batch 1, then "abd" after the restore
    assert result["original"] == ["a=2", "a=3", "b=1", "c=1"]
    assert result["restored_batch"] == 1
    assert result["restored"] == ["a=4", "b=2", "d=1"]
    meta = json.loads(result["restored_metadata"].splitlines()[1])
    (schema_path,) = meta["stateStoreInfo"][0]["stateSchemaFilePaths"]
    assert schema_path.startswith("file:" + str(work / "restored") + "/state/0/_stateSchema/default/0_")
    assert meta["operatorInfo"]["operatorName"] == "transformWithStateExec"
    assert result["savepoint_intact"] is True
    # its state reads back through the state data source, by its one state variable
    (operator,) = result["state"]["operators"]
    assert operator["state_variables"] == [{"name": "count", "type": "ValueState", "ttl": False}]
    assert result["state"]["state_var"] == "count"
    assert result["state"]["rows"] == [["a", 4], ["b", 2], ["c", 1], ["d", 1]]
    assert not (work / "restored" / "state" / "0" / "_metadata" / "v2" / ".0.crc").exists()
