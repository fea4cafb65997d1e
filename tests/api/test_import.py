"""Importing the API starts nothing."""

from __future__ import annotations

import subprocess
import sys

_PROBE = """
import sys
import pyflink_compat.datastream, pyflink_compat.common
print(sorted(m for m in ('pyspark', 'py4j', 'py4j.java_gateway') if m in sys.modules))
from pyflink_compat.datastream import CheckpointingMode, StreamExecutionEnvironment
from pyflink_compat.datastream import checkpoint_config
from pyflink_compat.java_gateway import get_gateway
print('pyspark' in sys.modules)
"""


def test_importing_the_api_loads_neither_pyspark_nor_py4j_nor_a_jvm():
    out = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True,
                         timeout=120)
    lines = out.stdout.splitlines()
    assert lines[0] == "[]"
    # even after importing the classes, pyspark (and so the JVM) stays unloaded until used
    assert lines[1] == "False"
    assert "SparkContext" not in out.stderr


def test_re_exports_are_the_defining_modules_objects():
    import pyflink_compat.datastream as datastream
    from pyflink_compat.datastream import checkpoint_config, stream_execution_environment

    assert datastream.CheckpointConfig is checkpoint_config.CheckpointConfig
    assert datastream.StreamExecutionEnvironment is stream_execution_environment.StreamExecutionEnvironment
    assert set(datastream.__all__) <= set(dir(datastream))


_CHECKPOINTS_PROBE = """
import sys
import pyflink_compat.spark.supervisor  # a job's runtime, on its way to the first query
print(sorted(m for m in sys.modules if m.startswith('pyflink_compat.checkpoints.')))
from pyflink_compat import checkpoints
from pyflink_compat.checkpoints import inspection, verify
print(verify is inspection.verify, checkpoints.verify is inspection.verify)
"""


def test_the_checkpoints_package_loads_its_modules_on_first_use_and_keeps_its_names():
    out = subprocess.run([sys.executable, "-c", _CHECKPOINTS_PROBE], capture_output=True, text=True,
                         check=True, timeout=120)
    loaded, same = out.stdout.splitlines()
    # the runtime needs the file helpers and restores, not inspection or state reading
    for module in ("inspection", "state_reader"):
        assert "pyflink_compat.checkpoints." + module not in loaded
    assert same == "True True"
