"""Files written to break the porting tool (``tricky/``): each is reported exactly as
``tricky/expected.json`` records, statement by statement (line: ``outcome: PyFlink APIs``), or
refused with a clear message and left as it is; a second run of a ported file changes nothing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pyflink_compat.cli import main
from pyflink_compat.porting.command import PortError, port_text

TRICKY = Path(__file__).resolve().parent / "tricky"
EXPECTED = json.loads((TRICKY / "expected.json").read_text())


def test_every_tricky_file_has_its_expected_outcome_recorded():
    assert sorted(EXPECTED) == sorted(p.name for p in TRICKY.glob("*.py"))
    assert len(EXPECTED) >= 10


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_tricky_file_is_reported_statement_by_statement_or_refused_clearly(name, tmp_path, capsys):
    text = (TRICKY / name).read_text()
    expected = EXPECTED[name]
    if "refused" in expected:
        with pytest.raises(PortError) as refused:
            port_text(text, name)
        assert str(refused.value).startswith(expected["refused"])
        copy = tmp_path / name
        shutil.copy(TRICKY / name, copy)
        assert main(["port", str(copy), "--write"]) == 1
        assert "refused" in capsys.readouterr().out
        assert copy.read_text() == text and not (tmp_path / (name + ".orig")).exists()
        return
    ported, report = port_text(text, name)
    assert {str(f.line): "{}: {}".format(f.outcome.value, ", ".join(f.apis)) for f in report.findings} == expected
    compile(ported, name, "exec")
    assert "from pyflink." not in ported and "import pyflink." not in ported
    assert port_text(ported, name)[0] == ported
