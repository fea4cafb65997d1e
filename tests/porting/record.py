"""Record what the porting test jobs write under live PyFlink 1.20.5.

Run from the repository root, in the PyFlink environment::

    python -m tests.porting.record     # (re)write pyflink-1.20.5-port-records.json

Each job of ``tests/porting/jobs`` runs unchanged (PyFlink code) in a new working directory
holding its input files; the lines of every sink directory it writes are recorded.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from importlib import metadata
from pathlib import Path
from typing import Any, Dict

from tests.porting.outputs import JOBS, job_names, read_outputs, write_inputs

PYFLINK_VERSION = "1.20.5"
RECORDING = Path(__file__).resolve().parent / "pyflink-{}-port-records.json".format(PYFLINK_VERSION)


def record() -> Dict[str, Any]:
    outputs = {}
    for name in job_names():
        with tempfile.TemporaryDirectory(prefix="port-record-") as work:
            write_inputs(work)
            # PyFlink's Python workers are started as ``python`` from the PATH
            path = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")
            subprocess.run([sys.executable, str(JOBS / (name + ".py"))], cwd=work, check=True,
                           timeout=600, stdout=subprocess.DEVNULL, env=dict(os.environ, PATH=path))
            outputs[name] = read_outputs(work)
    return {"pyflink_version": metadata.version("apache-flink"), "outputs": outputs}


def main() -> int:
    doc = record()
    if doc["pyflink_version"] != PYFLINK_VERSION:
        print("expected apache-flink {}, found {}".format(PYFLINK_VERSION, doc["pyflink_version"]), file=sys.stderr)
        return 2
    RECORDING.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    print("wrote {}: {} jobs".format(RECORDING.name, len(doc["outputs"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
