"""The result of running a statement: "OK" for DDL, the job of an ``INSERT``, or the rows of a
query as they arrive."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, Iterator, List, Optional, Tuple

from pyflink_compat.missing.declared import Declared
from pyflink_compat.table.result_kind import ResultKind

if TYPE_CHECKING:
    from pyspark.sql.types import StructType

    from pyflink_compat.common.job_client import JobClient
    from pyflink_compat.sql.execution import ResultCollector, StatementOutcome
    from pyflink_compat.table.table_schema import TableSchema

__all__ = ['TableResult', 'CloseableIterator']


class CloseableIterator(object):
    """The rows of a query result, in the order they arrive; ``close()`` cancels the job.

    Each row is a tuple of the field values; :attr:`kinds` gives the row kind (``+I``, ``-U``,
    ``+U``) of each row returned so far.
    """

    def __init__(self, records: Iterator[Tuple[str, Tuple[Any, ...]]], client: Optional['JobClient']):
        self._records = records
        self._client = client
        self.kinds: List[str] = []

    def __iter__(self) -> 'CloseableIterator':
        return self

    def __next__(self) -> Any:
        kind, row = next(self._records)
        self.kinds.append(kind)
        return _row(kind, row)

    def next(self) -> Any:
        return self.__next__()

    def close(self) -> None:
        if self._client is not None and not self._client._run.status.is_terminal_state():
            self._client.cancel().result()

    def __enter__(self) -> 'CloseableIterator':
        return self

    def __exit__(self, exc_type: Any, exc_val: Any, exc_tb: Any) -> None:
        self.close()


def _row(kind: str, values: Tuple[Any, ...]) -> Any:
    """A result row: PyFlink's ``Row`` when it is available, else the tuple of values."""
    from pyflink_compat.common import types

    row_class = getattr(types, "Row", None)
    if row_class is None or issubclass(row_class, Declared):
        return values
    row = row_class(*values)
    row_kind = getattr(types, "RowKind", None)
    if row_kind is not None and not issubclass(row_kind, Declared) and hasattr(row, "set_row_kind"):
        kinds = {"+I": "INSERT", "-U": "UPDATE_BEFORE", "+U": "UPDATE_AFTER", "-D": "DELETE"}
        row.set_row_kind(getattr(row_kind, kinds[kind]))
    return row


class TableResult(object):
    """The result of :meth:`~pyflink_compat.table.TableEnvironment.execute_sql` (and of
    ``execute_insert``, ``execute`` and statement sets).

    :param j_table_result: The result's state (in PyFlink, the JVM result).
    """

    def __init__(self, j_table_result: Any):
        self._j_table_result = j_table_result

    # -- made from what the runtime gave ------------------------------------------------------
    @staticmethod
    def _of(outcome: 'StatementOutcome') -> 'TableResult':
        """The result of a statement the runtime ran."""
        if outcome.rows is not None:
            return TableResult({"kind": ResultKind.SUCCESS_WITH_CONTENT, "client": None,
                                "rows": list(outcome.rows)})
        if outcome.client is None:
            return TableResult._ok()
        if outcome.collector is None:
            return TableResult._insert(outcome.client, list(outcome.sinks))
        result = TableResult._query(outcome.client, outcome.collector, outcome.schema, outcome.bounded,
                                    outcome.streaming)
        result._j_table_result["flink_types"] = dict(outcome.flink_types)
        result._j_table_result["time_attributes"] = dict(outcome.time_attributes)
        return result

    @staticmethod
    def _ok() -> 'TableResult':
        return TableResult({"kind": ResultKind.SUCCESS, "client": None})

    @staticmethod
    def _insert(client: 'JobClient', sinks: List[str]) -> 'TableResult':
        return TableResult({"kind": ResultKind.SUCCESS_WITH_CONTENT, "client": client, "sinks": sinks})

    @staticmethod
    def _query(client: 'JobClient', collector: 'ResultCollector', schema: 'StructType',
               bounded: bool, streaming: bool = True) -> 'TableResult':
        return TableResult({"kind": ResultKind.SUCCESS_WITH_CONTENT, "client": client,
                            "collector": collector, "schema": schema, "bounded": bounded,
                            "streaming": streaming})

    # -- PyFlink's methods ------------------------------------------------------------------
    def get_job_client(self) -> Optional['JobClient']:
        """The :class:`~pyflink_compat.common.JobClient` of the job the statement started, or
        ``None`` (DDL)."""
        client: Optional['JobClient'] = self._j_table_result["client"]
        return client

    def wait(self, timeout_ms: int = None) -> None:
        """Wait (at most ``timeout_ms`` milliseconds) until an ``INSERT``'s job ended, or a
        query's first row is there; return at once for other statements.

        :raises JobExecutionError: When the job failed.
        """
        client = self.get_job_client()
        if client is None:
            return
        timeout = timeout_ms / 1000.0 if timeout_ms else None
        collector = self._j_table_result.get("collector")
        if collector is not None:
            with collector.condition:
                collector.condition.wait_for(
                    lambda: collector.rows or client._run.status.is_terminal_state(), timeout)
            return
        if client._run.wait(timeout):
            client.get_job_execution_result().result()

    def get_table_schema(self) -> 'TableSchema':
        """The schema of the result: a query's columns, one ``BIGINT`` column per table an
        ``INSERT`` writes (named by its full name), and one ``result`` column of ``STRING``
        for other statements. A query's time attributes are marked (``*ROWTIME*``)."""
        from pyflink_compat.table.table_schema import TableSchema, schema_of_struct
        from pyflink_compat.table.types import DataTypes

        result = self._j_table_result
        if "rows" in result:
            from pyflink_compat.sql.description import COLUMNS

            return TableSchema([n for n, _ in COLUMNS],
                               [DataTypes.BOOLEAN() if t == "BOOLEAN" else DataTypes.STRING()
                                for _, t in COLUMNS])
        if result["client"] is None:
            return TableSchema(["result"], [DataTypes.STRING()])
        if "collector" not in result:
            return TableSchema(list(result["sinks"]), [DataTypes.BIGINT() for _ in result["sinks"]])
        from pyflink_compat.sql.data_types import parse_data_type

        schema = schema_of_struct(result["schema"], {
            name: parse_data_type(text) for name, text in result.get("flink_types", {}).items()})
        schema._show_time_attributes(result.get("time_attributes", {}))
        return schema

    def get_result_kind(self) -> int:
        """:data:`ResultKind.SUCCESS` for DDL, else :data:`ResultKind.SUCCESS_WITH_CONTENT`."""
        kind: int = self._j_table_result["kind"]
        return kind

    def collect(self) -> CloseableIterator:
        """The result's rows as they arrive (the job's end ends the iteration)."""
        from pyflink_compat.sql.execution import rows_of

        client = self.get_job_client()
        collector = self._j_table_result.get("collector")
        if "rows" in self._j_table_result:
            return CloseableIterator(iter([("+I", tuple(r)) for r in self._j_table_result["rows"]]), None)
        if collector is None or client is None:
            rows: List[Tuple[str, Tuple[Any, ...]]] = [("+I", ("OK",))] if client is None else \
                [("+I", tuple(-1 for _ in self._j_table_result["sinks"]))]
            return CloseableIterator(iter(rows), None)
        return CloseableIterator(rows_of(collector, client, self._wait_job), client)

    def _wait_job(self) -> None:
        client = self.get_job_client()
        if client is not None:
            client._run.wait()
            client.get_job_execution_result().result()

    def print(self) -> None:
        """Print the result as PyFlink does: a query's rows as its tableau (with their kinds as
        they arrive in streaming mode), then the row count; ``OK`` for DDL; ``-1`` for an
        ``INSERT`` (its row count is not known while the job runs)."""
        from pyflink_compat.sql.execution import rows_of
        from pyflink_compat.sql.tableau import Tableau

        client = self.get_job_client()
        collector = self._j_table_result.get("collector")
        if "rows" in self._j_table_result:
            from pyflink_compat.sql.description import COLUMNS
            from pyflink_compat.sql.tableau import fitted_lines

            for line in fitted_lines([n for n, _ in COLUMNS], self._j_table_result["rows"]):
                print(line)
            return
        if client is None:
            # PyFlink prints a DDL statement's result as the bare word
            print("OK")
            return
        if collector is None:
            # and an INSERT's as its affected-row count, unknown (-1) while the job runs
            print(", ".join("-1" for _ in self._j_table_result["sinks"]))
            return
        schema = self._j_table_result["schema"]
        streaming = self._j_table_result.get("streaming", True)
        tableau = Tableau(schema.fieldNames(), [f.dataType for f in schema.fields], with_kinds=streaming,
                          precisions=[f.metadata.get("flink_precision", f.metadata.get(
                              "flink_text_precision")) for f in schema.fields])
        records: Iterator[Tuple[str, Tuple[Any, ...]]] = rows_of(collector, client, self._wait_job)
        if not streaming:
            # a batch result is printed once complete; an empty one as "Empty set" alone
            records = iter(list(records))
            if not collector.rows:
                print("Empty set")
                return
        for line in tableau.header():
            print(line)
        for kind, values in records:
            print(tableau.row(kind, values))
            sys.stdout.flush()
        for line in tableau.footer():
            print(line)


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
