"""The input and output files of the porting test jobs (``jobs/``), read the same way under
PyFlink and under Spark: a job runs in a working directory of its own and writes under
``out/``."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Dict, List, Union

JOBS = Path(__file__).resolve().parent / "jobs"

#: The input files the jobs read, by path under the working directory: text (written as
#: UTF-8) or bytes. The notes mix Flink's line ends (``\r\n``, a lone ``\r``, ``\n``, none at
#: the end), which its text line format and ``read_text_file`` split differently; files
#: named ``.x`` or ``_x`` are not read.
INPUTS: Dict[str, Union[str, bytes]] = {
    "in/people/people-0.csv": "1,ann,31\n2,bob,12\n3,cyd,18\n4,dan,17\n5,eve,64\n",
    "in/notes/mixed.txt": "alpha\r\nbeta\rgamma\ndelta",
    "in/notes/more/b.txt": "one\ntwo\n\nthree\n",
    "in/notes/.hidden.txt": "hidden\n",
    "in/notes/_skipped.txt": "skipped\n",
    "in/latin/cafe.txt": "café crème\n".encode("latin-1"),
}


def job_names() -> List[str]:
    return sorted(p.stem for p in JOBS.glob("*.py") if not p.name.startswith("_"))


def write_inputs(directory: str) -> None:
    for path, text in INPUTS.items():
        target = Path(directory) / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)


def _normal(line: str) -> str:
    try:
        return json.dumps(json.loads(line), sort_keys=True)
    except ValueError:
        return line


def read_outputs(directory: str) -> Dict[str, List[str]]:
    """Every sink directory under ``out/`` with the sorted lines of its finished files (names
    starting with ``.`` or ``_`` are in-progress files or bookkeeping, and skipped)."""
    found: Dict[str, List[str]] = {}
    root = Path(directory) / "out"
    if not root.is_dir():
        return found
    for sink in sorted(p for p in root.iterdir() if p.is_dir()):
        lines: List[str] = []
        for base, directories, names in os.walk(sink):
            directories[:] = [d for d in directories if not d.startswith((".", "_"))]
            for name in names:
                if not name.startswith((".", "_")) and not name.endswith(".crc"):
                    text = (Path(base) / name).read_bytes().decode("utf-8")
                    # lines end at "\n" only: a "\r" a sink wrote stays in its line
                    lines += [_normal(line) for line in text.split("\n") if line.strip()]
        found[sink.name] = sorted(lines)
    return found
