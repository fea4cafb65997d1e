"""The golden per-statement report of the porting corpus (``corpus-report.json``).

Each corpus file maps each reported line to ``outcome: PyFlink APIs``. Re-record after a
deliberate change of the tool, and read the diff: every changed line is a changed verdict::

    python -m tests.porting.golden_report
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Dict

CORPUS = Path(__file__).resolve().parent / "corpus"
GOLDEN = Path(__file__).resolve().parent / "corpus-report.json"


def report_of(name: str) -> Dict[str, str]:
    """The tool's verdict on every statement of corpus file ``name``."""
    from pyflink_compat.porting.command import port_text

    _, report = port_text((CORPUS / name).read_text(encoding="utf-8"), name)
    return {str(f.line): "{}: {}".format(f.outcome.value, ", ".join(f.apis)) for f in report.findings}


def load_golden() -> Dict[str, Dict[str, str]]:
    return json.loads(GOLDEN.read_text(encoding="utf-8"))


def main() -> None:
    doc = {p.name: report_of(p.name) for p in sorted(CORPUS.glob("*.py"))}
    GOLDEN.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print("wrote {}: {} files".format(GOLDEN.name, len(doc)))


if __name__ == "__main__":
    main()
