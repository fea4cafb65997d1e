"""The harness's own rules: what counts as a printed record, what a changelog leaves, how two
runs are compared."""

from __future__ import annotations

from pathlib import Path

from tests._helpers.differential import (
    Job, SinkRecords, changelog_table, differences, mapped_paths, output_lines, printed_lines)


def _job(compare: str = "append") -> Job:
    return Job(name="j", kind="table", file="jobs/j.py", source="-", commit="-", licence="-",
               compare=compare)


def test_printed_records_lose_the_subtask_prefix_and_blank_lines() -> None:
    assert printed_lines("1> +I[a, 1]\n\n12> (b,2)\nplain 3> text\n") == [
        "+I[a, 1]", "(b,2)", "plain 3> text"]


def test_a_changelog_leaves_the_rows_not_retracted() -> None:
    table, kinds = changelog_table(
        ["+I[a, 1]", "-U[a, 1]", "+U[a, 2]", "+I[b, 1]", "-D[b, 1]", "sink:+I[c, 1]"])
    assert table == {"a, 2": 1, "sink:c, 1": 1}
    assert kinds == ["+I", "+U", "-D", "-U"]


def test_changelog_jobs_agree_when_the_final_table_and_kinds_agree() -> None:
    per_record = SinkRecords(("+I[a, 1]", "+U[a, 2]", "+U[a, 3]", "-U[a, 1]", "-U[a, 2]"))
    per_batch = SinkRecords(("+I[a, 1]", "+U[a, 3]", "-U[a, 1]"))
    assert differences(_job("changelog"), per_record, per_batch) == []
    assert differences(_job("changelog"), per_record, SinkRecords(("+I[a, 3]",))) == [
        "row kinds: expected ['+I', '+U', '-U'], got ['+I']"]


def test_append_jobs_compare_every_record_with_its_count() -> None:
    assert differences(_job(), SinkRecords(("a", "a", "b")), SinkRecords(("a", "b"))) == [
        "printed: 1 missing ['a']"]
    assert differences(_job(), SinkRecords(("a",)), SinkRecords(("a",), error="boom")) == [
        "error: expected None, got 'boom'"]


def test_output_files_are_read_whole_without_hidden_and_marker_files(tmp_path: Path) -> None:
    out = tmp_path / "out" / "dt=1"
    out.mkdir(parents=True)
    (out / "part-0").write_text("b\na\n")
    (out / ".part-1.inprogress").write_text("x\n")
    (out / "_SUCCESS").write_text("")
    (out / ".part-0.crc").write_text("y\n")
    assert output_lines(tmp_path, ["out"]) == {"out": ("a", "b")}


def test_a_jobs_path_mapping_replaces_each_named_path_by_one_under_the_working_directory(
        tmp_path: Path) -> None:
    job = Job(name="j", kind="datastream", file="jobs/j.py", source="-", commit="-", licence="-",
              paths={"/opt/data/in": "in", "/opt/data/in_more": "more/in"})
    text = "read('/opt/data/in'); read('/opt/data/in_more'); read('/opt/other')"
    work = tmp_path.resolve()
    assert mapped_paths(job, text, tmp_path) == "read('%s'); read('%s'); read('/opt/other')" % (
        work / "in", work / "more" / "in")
