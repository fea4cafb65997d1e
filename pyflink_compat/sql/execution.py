"""Running a table environment's statements: DDL on its catalog, queries and inserts as jobs of
its :class:`~pyflink_compat.datastream.StreamExecutionEnvironment`.

Every sink of a job is registered with the environment's ``add_sink`` (bounded when all of its
sources are) and the job started with ``execute_async``, so that checkpointing, restarts,
savepoints and the job registry apply to table jobs as to any other. A query's result is
collected on the driver, micro-batch by micro-batch, as Flink's changelog records.
"""

from __future__ import annotations

import threading
import warnings
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Optional, Protocol, Sequence, Tuple

import attrs

from pyflink_compat.missing import NotSupportedError
from pyflink_compat.sql.catalog import Catalog, View
from pyflink_compat.sql.planner import PlannedQuery, Planner
from pyflink_compat.sql.validation import validate_query
from pyflink_compat.sql.statements import (
    CreateTable, CreateView, Describe, Drop, Insert, Query, ResetOption, SetOption, Statement,
    UnsupportedStatement, parse_statements)

if TYPE_CHECKING:
    from pyspark.sql import DataFrame

    from pyflink_compat.common.job_client import JobClient
    from pyflink_compat.datastream import StreamExecutionEnvironment
    from pyflink_compat.table.table_config import TableConfig

__all__ = ["InsertJob", "ResultCollector", "StatementOutcome", "TableRuntime"]


@attrs.frozen
class StatementOutcome:
    """What running a statement gave, for the API's ``TableResult``: nothing but "OK" (DDL,
    ``SET``), the job of an insert and its sinks, or the job of a query with its rows' collector.
    """

    client: Optional["JobClient"] = None
    sinks: Tuple[str, ...] = ()
    collector: Optional["ResultCollector"] = None
    schema: Any = None
    bounded: bool = False
    streaming: bool = True
    #: A query's Flink column types, by name, where known.
    flink_types: Dict[str, str] = attrs.field(factory=dict)
    #: A query's time attributes and window bounds, by name (see
    #: :func:`~pyflink_compat.sql.time_attributes.shown_columns`).
    time_attributes: Dict[str, Any] = attrs.field(factory=dict)
    #: The rows of a statement answered without a job (``DESCRIBE``).
    rows: Optional[List[Tuple[Any, ...]]] = None


class ResultCollector(object):
    """Gathers a query's records on the driver as its micro-batches complete."""

    def __init__(self, updating: bool, key_positions: Sequence[int], kind_position: Optional[int] = None):
        from pyflink_compat.connectors.print_sink import changelog_rows

        self._records = changelog_rows(updating, key_positions, kind_position)
        self.rows: List[Tuple[str, Tuple[Any, ...]]] = []
        self.condition = threading.Condition()

    def __call__(self, batch: "DataFrame", batch_id: int) -> None:
        rows = [tuple(row) for row in batch.collect()]
        records = self._records(rows)
        with self.condition:
            self.rows.extend(records)
            self.condition.notify_all()


@attrs.define
class InsertJob:
    """One ``INSERT``: its sink table and the rows written into it."""

    sink: CreateTable
    frame: "DataFrame"
    planned: PlannedQuery
    text: str


def _refuse_updates_into(sink: CreateTable, planned: PlannedQuery, catalog: Catalog,
                         streaming: bool) -> None:
    # in batch mode Flink's sinks receive the final, insert-only rows
    if planned.updating and streaming:
        from pyflink_compat.connectors.registry import refuse_updates_into

        refuse_updates_into(sink, catalog.full_name(sink.name), planned.node)


class RuntimeOwner(Protocol):
    """What a table or statement set needs of the table environment that made it: the runtime
    that plans and runs its statements (the Table API's classes name this, not the environment's
    class, which makes them)."""

    @property
    def _runtime(self) -> "TableRuntime":
        ...


class TableRuntime(object):
    """What a table environment runs its statements with.

    :param environment: The environment whose jobs run the statements.
    :param config: The table environment's config (``SET`` / ``RESET`` write into it).
    """

    def __init__(self, environment: "StreamExecutionEnvironment", config: "TableConfig",
                 streaming: bool = True):
        self.environment = environment
        self.config = config
        # Batch mode gives final rows only (+I), as Flink's batch planner does.
        self.streaming = streaming
        self.catalog = Catalog()
        self.planner = Planner(lambda: environment.spark_session, self.catalog)
        self.planner.streaming = streaming
        self.planner.mini_batch = self._mini_batch

    def _mini_batch(self) -> bool:
        """Whether the job turned on Flink's mini-batch aggregation."""
        from pyflink_compat.sql.group_aggregation import MINI_BATCH_KEY

        return str(self.config.get(MINI_BATCH_KEY, "false")).strip().lower() == "true"

    def new_anonymous_name(self) -> str:
        """A fresh name for a table without one (PyFlink's ``UnnamedTable$<n>``)."""
        self._anonymous = getattr(self, "_anonymous", -1) + 1
        return "UnnamedTable${}".format(self._anonymous)

    # -- statements ---------------------------------------------------------------------
    def parse_one(self, sql: str) -> Statement:
        try:
            statements = parse_statements(sql)
        except UnsupportedStatement as error:
            raise NotSupportedError("TableEnvironment.execute_sql", str(error)) from None
        if len(statements) != 1:
            raise ValueError("Only single statement is supported now, but got: {}".format(sql))
        return statements[0]

    def execute_sql(self, sql: str) -> StatementOutcome:
        statement = self.parse_one(sql)
        if isinstance(statement, CreateTable):
            if self.catalog.get(statement.name) is not None:
                if statement.if_not_exists:
                    return StatementOutcome()
                raise _exists("Table", self.catalog.full_name(statement.name), statement.temporary)
            self.catalog.put(statement.name, statement)
            return StatementOutcome()
        if isinstance(statement, CreateView):
            if self.catalog.get(statement.name) is not None:
                if statement.if_not_exists:
                    return StatementOutcome()
                raise _exists("View", self.catalog.full_name(statement.name), statement.temporary)
            validate_query(self, statement.query, sql, "executeSql", view=True)
            self.catalog.put(statement.name, View(statement.query, statement.text))
            return StatementOutcome()
        if isinstance(statement, Drop):
            if not self.catalog.remove(statement.name) and not statement.if_exists:
                raise _validation(
                "{} with identifier '{}' does not exist.".format(
                                     "Temporary table" if statement.temporary else "Table",
                                     self.catalog.full_name(statement.name)), "o0.executeSql")
            return StatementOutcome()
        if isinstance(statement, SetOption):
            if statement.key is None:
                raise NotSupportedError("SET without a key", "Read options with get_config().")
            self.config.set(statement.key, statement.value or "")
            return StatementOutcome()
        if isinstance(statement, ResetOption):
            if statement.key is not None:
                self.config.get_configuration().remove_config(statement.key) \
                    if hasattr(self.config.get_configuration(), "remove_config") else None
            return StatementOutcome()
        if isinstance(statement, Insert):
            validate_query(self, statement.query, sql, "executeSql", insert=True)
            return self.execute_inserts([self.plan_insert(statement)])
        if isinstance(statement, Query):
            validate_query(self, statement.query, sql, "executeSql")
            return self.execute_query(self.planner.plan_query(statement.query, statement.text,
                                                              row_kinds=True))
        if isinstance(statement, Describe):
            from pyflink_compat.sql.description import describe

            return StatementOutcome(rows=describe(self, statement.name))
        raise NotSupportedError("TableEnvironment.execute_sql", "Unsupported statement: " + sql)

    # -- inserts ------------------------------------------------------------------------
    def plan_insert(self, statement: Insert) -> InsertJob:
        sink = self.catalog.get(statement.target)
        if not isinstance(sink, CreateTable):
            from pyflink_compat.util.exceptions import TableException

            raise TableException(
                "org.apache.flink.table.api.TableException: Cannot find table '{}' in any of the "
                "catalogs [default_catalog], nor as a temporary table.".format(".".join(
                    "`{}`".format(part) for part in self.catalog.full_name(statement.target).split("."))))
        if statement.overwrite:
            raise NotSupportedError("INSERT OVERWRITE (in: {})".format(statement.text),
                                    "Streaming jobs append; write with INSERT INTO.")
        # a print table prints each change of a changelog with its kind
        planned = self.planner.plan_query(statement.query, statement.text,
                                          row_kinds=sink.options.get("connector") == "print")
        _refuse_updates_into(sink, planned, self.catalog, self.streaming)
        frame = self.planner.cast_to_sink(planned, sink, statement.columns, statement.text)
        return InsertJob(sink=sink, frame=frame, planned=planned, text=statement.text)

    def plan_table_insert(self, table_path: str, planned: PlannedQuery, text: str) -> InsertJob:
        sink = self.catalog.get(table_path)
        if not isinstance(sink, CreateTable):
            raise _validation(
                "Object '{}' not found".format(table_path), "o0.executeInsert")
        _refuse_updates_into(sink, planned, self.catalog, self.streaming)
        frame = self.planner.cast_to_sink(planned, sink, (), text)
        return InsertJob(sink=sink, frame=frame, planned=planned, text=text)

    def _writer(self, job: InsertJob) -> Any:
        from pyflink_compat.connectors.registry import connector_module

        connector = job.sink.options.get("connector", "")
        module = connector_module(connector, job.sink.text)
        if not hasattr(module, "sink"):
            raise NotSupportedError(
                "Writing connector '{}' (in: {})".format(connector, job.text),
                "The '{}' connector is a source only, as in Flink.".format(connector))
        if self.streaming or not job.planned.updating:
            return module.sink(job.sink, job.frame, job.planned.updating, job.planned.keys)
        if hasattr(module, "batch_writer"):
            # the bounded input is one micro-batch: its rows are the final ones, written once
            sink = job.sink

            def write_final_rows(frame: "DataFrame", batch_id: int) -> None:
                module.batch_writer(sink, frame).save()

            module.sink_options(sink)  # its options reviewed before any start
            return job.frame.writeStream.foreachBatch(write_final_rows).outputMode("update")
        if job.sink.options.get("connector") not in ("print", "pyflink_compat-legacy-csv-table-sink", "jdbc"):
            raise NotSupportedError(
                "An aggregating INSERT in batch mode into connector '{}' (in: {})".format(connector, job.text),
                "Run it in streaming mode into a print or Kafka table, or write the final rows with "
                "PySpark's batch writer (spark.read... .write).")
        # the bounded input is one micro-batch: its rows are the final ones, written as +I
        return module.sink(job.sink, job.frame, False, job.planned.keys).outputMode("update")

    def execute_inserts(self, jobs: List[InsertJob]) -> StatementOutcome:
        """Start one job writing every insert of ``jobs`` (a statement set, or one insert)."""
        writers = [self._writer(job) for job in jobs]  # every option checked before any start
        used: Dict[str, int] = {}
        names = []
        for job, writer in zip(jobs, writers):
            base = self.catalog.key(job.sink.name).replace("/", "_")
            used[base] = used.get(base, 0) + 1
            name = base if used[base] == 1 else "{}_{}".format(base, used[base] - 1)
            self.environment.add_sink(writer, name=name, bounded=job.planned.bounded)
            _mark_keyed_state(self.environment, job.planned)
            names.append(self.catalog.full_name(job.sink.name))
        job_name = "insert-into_" + ",".join(names)
        client = self.environment.execute_async(job_name)
        return StatementOutcome(client, tuple(names))

    # -- queries ------------------------------------------------------------------------
    def execute_query(self, planned: PlannedQuery) -> StatementOutcome:
        names = planned.frame.columns
        collector = ResultCollector(planned.updating and self.streaming,
                                    [names.index(k) for k in planned.keys if k in names],
                                    names.index(planned.row_kinds) if planned.row_kinds else None)
        writer = planned.frame.writeStream.foreachBatch(collector).outputMode(
            "update" if planned.updating else "append")
        self.environment.add_sink(writer, name="collect", bounded=planned.bounded)
        _mark_keyed_state(self.environment, planned)
        client = self.environment.execute_async("collect")
        from pyflink_compat.sql.time_attributes import shown_columns

        schema = planned.result_frame.schema
        return StatementOutcome(client, (), collector, schema, planned.bounded, self.streaming,
                                planned.flink_types, shown_columns(self.catalog, planned.source_query,
                                                                   schema.fieldNames()))


def _mark_keyed_state(environment: "StreamExecutionEnvironment", planned: PlannedQuery) -> None:
    """Have the sink just added run in the state store of keyed functions when its query reads
    a stream that has them (``from_data_stream``)."""
    if planned.keyed_state:
        environment._sinks[-1] = attrs.evolve(environment._sinks[-1], keyed_state=True)


def _exists(kind: str, name: str, temporary: bool) -> Exception:
    return _validation(
                "Could not execute CreateTable in path `{}`".format(name.replace(".", "`.`"))
                      if kind == "Table" else
                      "Could not execute CreateView in path `{}`".format(name.replace(".", "`.`")),
                      "o0.executeSql")


def _validation(message: str, target: str) -> Exception:
    """Flink's ``ValidationException`` (a JVM error in PyFlink too), with Flink's text."""
    from pyflink_compat.util.exceptions import java_error

    return java_error("java.lang.RuntimeException",
                      "org.apache.flink.table.api.ValidationException: " + message, target)


def rows_of(collector: ResultCollector, client: "JobClient", wait: Callable[[], None]
            ) -> Iterator[Tuple[str, Tuple[Any, ...]]]:
    """The collector's records as they arrive, until the job ends."""
    position = 0
    while True:
        with collector.condition:
            while position >= len(collector.rows) and not client._run.status.is_terminal_state():
                collector.condition.wait(0.2)
            pending = collector.rows[position:]
            position = len(collector.rows)
        for record in pending:
            yield record
        if not pending and client._run.status.is_terminal_state():
            wait()
            with collector.condition:
                if position >= len(collector.rows):
                    return


def warn_dropped(message: str) -> None:
    """Warn about something of a statement that has no effect on Spark."""
    warnings.warn(message, UserWarning, stacklevel=3)


__all__ += ["rows_of", "warn_dropped"]
