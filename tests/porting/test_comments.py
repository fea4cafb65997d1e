"""The author's comments and blank lines survive every rewrite of the porting tool."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import List

import pytest

from pyflink_compat.porting.classifier import MARK
from pyflink_compat.porting.command import port_text
from pyflink_compat.porting.report import Outcome

CORPUS = Path(__file__).resolve().parent / "corpus"


def comment_lines(text: str) -> List[str]:
    return [line.strip() for line in text.splitlines()
            if line.strip().startswith("#") and not line.strip().startswith((MARK, "#   "))]


def test_twelve_lines_of_notes_above_a_rewritten_source_stay_with_the_blank_line_before_them():
    notes = "\n".join("    # note {} about the source".format(n) for n in range(12))
    job = textwrap.dedent('''\
        from pyflink.common import WatermarkStrategy
        from pyflink.datastream import StreamExecutionEnvironment
        from pyflink.datastream.connectors.file_system import FileSource, StreamFormat

        def main():
            env = StreamExecutionEnvironment.get_execution_environment()

        {notes}
            ds = env.from_source(FileSource.for_record_stream_format(
                StreamFormat.text_line_format(), "/data/in").build(), WatermarkStrategy.no_watermarks(), "src")
            # the print
            ds.print()
            env.execute()
        ''').replace("{notes}", notes)
    ported, report = port_text(job, "job.py", to_pyspark=True)
    assert [f.outcome for f in report.findings if f.line == 20] == [Outcome.REWRITTEN]
    lines = ported.splitlines()
    start = lines.index("    # note 0 about the source")
    assert lines[start - 1] == ""
    assert lines[start:start + 12] == notes.splitlines()
    assert lines[start + 12] == "    from pyflink_compat.sources import text_lines"
    assert lines[start + 13].startswith("    ds = text_lines(env.spark_session, ")
    assert "    # the print" in lines


@pytest.mark.parametrize("name", sorted(p.name for p in CORPUS.glob("*.py")))
def test_every_comment_of_a_corpus_job_is_in_its_port_in_order(name):
    original = (CORPUS / name).read_text()
    ported, report = port_text(original, name)
    assert report.error is None
    kept = iter(comment_lines(ported))
    assert all(comment in kept for comment in comment_lines(original))


def test_comments_indented_between_two_blocks_are_kept_and_the_move_is_noted():
    job = textwrap.dedent('''\
        from pyflink.datastream import StreamExecutionEnvironment

        if __name__ == "__main__":
            StreamExecutionEnvironment.get_execution_environment()
          # output:
          #   ('a', 1)
        ''')
    ported, report = port_text(job, "job.py")
    assert ported.endswith("# output:\n#   ('a', 1)\n")
    assert any("re-indented" in note and "5, 6" in note for note in report.notes)
