"""The pure-rule tests run without a JVM: the test run starts Spark only for tests that need it."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

from tests._helpers.spark_session import WITHOUT_SPARK

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: Runs pytest on the given files, then tells whether a py4j gateway (and so a JVM) was launched.
_RUN_AND_REPORT = textwrap.dedent("""
    import sys
    import pytest
    status = pytest.main(["-p", "no:cacheprovider", "-q", *sys.argv[1:]])
    from pyspark import SparkContext
    print("JVM gateway launched:", SparkContext._gateway is not None)
    sys.exit(status)
""")


def test_the_pure_rule_tests_start_no_jvm():
    modules = sorted(os.path.join("tests", m) for m in WITHOUT_SPARK if m != "api/test_without_spark.py")
    done = subprocess.run([sys.executable, "-c", _RUN_AND_REPORT, *modules], cwd=os.path.dirname(TESTS),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "JVM gateway launched: False" in done.stdout, done.stdout

