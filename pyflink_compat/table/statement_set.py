"""A set of inserts that runs as one job."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, List

from pyflink_compat.missing import NotSupportedError

if TYPE_CHECKING:
    from pyflink_compat.sql.execution import RuntimeOwner
    from pyflink_compat.table.table_result import TableResult

__all__ = ['StatementSet']


class StatementSet(object):
    """Inserts added with :meth:`add_insert_sql` and :meth:`add_insert`, run together by
    :meth:`execute` as one job (one Spark streaming query per insert, under one supervisor).

    :param _j_statement_set: The inserts added so far (in PyFlink, the JVM statement set).
    :param t_env: The table environment.
    """

    def __init__(self, _j_statement_set: Any, t_env: 'RuntimeOwner'):
        self._j_statement_set: List[Any] = _j_statement_set
        self._t_env = t_env

    def add_insert_sql(self, stmt: str) -> 'StatementSet':
        """Add an ``INSERT INTO ... SELECT ...`` statement.

        :return: This statement set.
        """
        from pyflink_compat.sql.statements import Insert

        runtime = self._t_env._runtime
        statement = runtime.parse_one(stmt)
        if not isinstance(statement, Insert):
            from pyflink_compat.util.exceptions import TableException

            raise TableException("org.apache.flink.table.api.TableException: Only insert statement "
                                 "is supported now.")
        from pyflink_compat.sql.validation import validate_query

        validate_query(runtime, statement.query, stmt, "addInsertSql", insert=True)
        self._j_statement_set.append(runtime.plan_insert(statement))
        return self

    def add_insert(self, target_path_or_descriptor: Any, table: Any,
                   overwrite: bool = False) -> 'StatementSet':
        """Add an insert of ``table``'s rows into the table registered as
        ``target_path_or_descriptor``.

        :return: This statement set.
        """
        if not isinstance(target_path_or_descriptor, str):
            raise NotSupportedError("StatementSet.add_insert with a TableDescriptor",
                                    "Declare the sink with CREATE TABLE and insert by its name.")
        if overwrite:
            raise NotSupportedError("StatementSet.add_insert(overwrite=True)",
                                    "Streaming jobs append; insert without overwrite.")
        from pyflink_compat.sql.statements import CreateTable

        runtime = self._t_env._runtime
        sink = runtime.catalog.get(target_path_or_descriptor)
        # a print table prints each change of a changelog with its kind
        planned = table._plan(row_kinds=isinstance(sink, CreateTable) and sink.options.get("connector") == "print")
        self._j_statement_set.append(
            runtime.plan_table_insert(target_path_or_descriptor, planned, str(table)))
        return self

    def attach_as_datastream(self) -> None:
        raise NotSupportedError("StatementSet.attach_as_datastream",
                                "Call execute(): the inserts run as one job.")

    def explain(self, *extra_details: Any) -> str:
        """The Spark plans of the inserts."""
        return "\n".join(job.frame._jdf.queryExecution().toString() for job in self._j_statement_set)

    def execute(self) -> 'TableResult':
        """Run every insert added as one job.

        :return: The :class:`~pyflink_compat.table.TableResult` of that job.
        """
        jobs = list(self._j_statement_set)
        if not jobs:
            from pyflink_compat.util.exceptions import TableException

            raise TableException("org.apache.flink.table.api.TableException: No operators defined "
                                 "in streaming topology. Cannot generate StreamGraph.")
        self._j_statement_set.clear()
        from pyflink_compat.table.table_result import TableResult

        return TableResult._of(self._t_env._runtime.execute_inserts(jobs))


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
