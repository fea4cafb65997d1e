"""The PySpark the porting tool writes runs on local Spark and writes what PyFlink 1.20.5 writes.

Each job of ``jobs/`` is PyFlink code; its outputs under live PyFlink are recorded in
``pyflink-1.20.5-port-records.json`` (``python -m tests.porting.record``). Here the job is
ported, nothing is left to a person, and the ported file runs on the local Spark session and
writes the same lines.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Dict, List

import pytest

from pyflink_compat.porting.command import port_text
from pyflink_compat.porting.report import Outcome
from tests.porting.outputs import JOBS, job_names, read_outputs, write_inputs

RECORDING = Path(__file__).resolve().parent / "pyflink-1.20.5-port-records.json"


def _recorded(name: str) -> Dict[str, List[str]]:
    return json.loads(RECORDING.read_text())["outputs"][name]


def _ported(name: str, tmp_path: Path, to_pyspark: bool) -> str:
    # the jobs name their files relative to the working directory; Spark's JVM resolves a
    # relative path against its own, so the test hands the tool the absolute paths
    source = (JOBS / (name + ".py")).read_text()
    for quote in "'\"":
        for top in ("in/", "out/"):
            source = source.replace(quote + top, quote + str(tmp_path) + "/" + top)
    ported, report = port_text(source, name, to_pyspark=to_pyspark)
    assert report.left == 0
    if to_pyspark:
        # with --to-pyspark, sources, sinks and SQL are written as PySpark
        assert report.count(Outcome.REWRITTEN) > 0
    return ported


def _outputs(ported: str, name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Dict[str, List[str]]:
    write_inputs(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    exec(compile(ported, name + ".py", "exec"), {"__name__": "__main__"})
    return read_outputs(str(tmp_path))


@pytest.mark.parametrize("name", job_names())
def test_the_ported_job_writes_what_pyflink_writes(name, tmp_path, monkeypatch):
    assert _outputs(_ported(name, tmp_path, True), name, tmp_path, monkeypatch) == _recorded(name)


def test_file_sources_and_sinks_are_written_from_the_runtimes_own_reader_and_writer(tmp_path, monkeypatch):
    # one mapping of FileSource, read_text_file and FileSink: --to-pyspark writes the
    # runtime's file reader and part-file writer, so the written job and the job run on the
    # DataStream runtime both give PyFlink's lines (Flink's line ends: read_text_file keeps a
    # lone '\r' in its line where the text line format splits there; the files' charset; hidden
    # files skipped; part files named by the output file config)
    name = "datastream_files_to_files"
    recorded = _recorded(name)
    assert recorded["raw"] == ["alpha", "beta\rgamma", "delta"] and recorded["latin"] == ["café crème"]
    native = _ported(name, tmp_path / "native", True)
    assert "text_lines(" in native and "FilePartWriter(" in native and "readStream" not in native
    assert _outputs(native, name, tmp_path / "native", monkeypatch) == recorded
    assert sorted(p.name[:4] for p in (tmp_path / "native" / "out" / "raw").rglob("raw-*.txt"))
    on_runtime = _ported(name, tmp_path / "runtime", False)
    assert "text_lines(" not in on_runtime and "FileSink.for_row_format(" in on_runtime
    assert _outputs(on_runtime, name, tmp_path / "runtime", monkeypatch) == recorded
