"""PyFlink's ``pyflink.datastream.connectors.jdbc``: a sink running one SQL statement per record
through the database's JDBC driver.

``JdbcSink.sink(sql, type_info, connection_options, execution_options)`` writes each record (a
``Row`` of ``type_info``'s fields) as the parameters of ``sql`` (``INSERT``, ``UPDATE``, an
upsert: any statement with ``?`` for the fields). Each micro-batch's records, in arrival
order, are sent from the Spark driver in JDBC batches of ``batch_size`` and committed at the end
of the micro-batch; a failing batch is tried again ``max_retries`` times, as Flink's sink does.
A micro-batch run again after a failure writes its records again (Flink's JDBC sink writes
at least once too). ``batch_interval_ms`` has no effect: a micro-batch is one flush.

The driver's jar must be on Spark's class path (``spark.jars`` / ``--jars``, or the driver's
class path).
"""

from __future__ import annotations

from typing import Any, Dict, Optional

from pyflink_compat.common.typeinfo import RowTypeInfo
from pyflink_compat.datastream.functions import SinkFunction

__all__ = ['JdbcSink', 'JdbcConnectionOptions', 'JdbcExecutionOptions']


class JdbcSink(SinkFunction):
    """A sink running a SQL statement per record (see the module's description).

    :param j_jdbc_sink: The sink's description: its statement, field types and options.
    """

    def __init__(self, j_jdbc_sink: Dict[str, Any]):
        super(JdbcSink, self).__init__(sink_func=j_jdbc_sink)

    @staticmethod
    def sink(sql: str, type_info: RowTypeInfo, jdbc_connection_options: 'JdbcConnectionOptions',
             jdbc_execution_options: 'JdbcExecutionOptions' = None) -> 'JdbcSink':
        """A sink running ``sql`` with each record's fields as its parameters.

        :param sql: The statement, with one ``?`` per field of ``type_info``.
        :param type_info: The records' type: a row type.
        :param jdbc_connection_options: Where the database is.
        :param jdbc_execution_options: The batch size and retries (Flink's defaults when
            omitted).
        """
        if not isinstance(type_info, RowTypeInfo):
            raise TypeError("The records of a JdbcSink are rows: give a Types.ROW(...) or "
                            "Types.ROW_NAMED(...) type_info.")
        options = jdbc_execution_options if jdbc_execution_options is not None \
            else JdbcExecutionOptions.defaults()
        return JdbcSink({"sql": sql, "type_info": type_info,
                         "connection": jdbc_connection_options._j_jdbc_connection_options,
                         "execution": options._j_jdbc_execution_options})


class JdbcConnectionOptions(object):
    """Where a JDBC sink's database is: its URL, driver class and credentials.

    :param j_jdbc_connection_options: The options, by name.
    """

    def __init__(self, j_jdbc_connection_options: Dict[str, Optional[str]]):
        self._j_jdbc_connection_options = j_jdbc_connection_options

    def get_db_url(self) -> str:
        return self._j_jdbc_connection_options["url"]  # type: ignore[return-value]

    def get_driver_name(self) -> str:
        return self._j_jdbc_connection_options["driver"]  # type: ignore[return-value]

    def get_user_name(self) -> str:
        return self._j_jdbc_connection_options["user"]  # type: ignore[return-value]

    def get_password(self) -> str:
        return self._j_jdbc_connection_options["password"]  # type: ignore[return-value]

    class JdbcConnectionOptionsBuilder(object):
        """Builds :class:`JdbcConnectionOptions`."""

        def __init__(self) -> None:
            self._j_options_builder: Dict[str, Optional[str]] = {
                "url": None, "driver": None, "user": None, "password": None}

        def with_url(self, url: str) -> 'JdbcConnectionOptions.JdbcConnectionOptionsBuilder':
            self._j_options_builder["url"] = url
            return self

        def with_driver_name(self, driver_name: str) \
                -> 'JdbcConnectionOptions.JdbcConnectionOptionsBuilder':
            self._j_options_builder["driver"] = driver_name
            return self

        def with_user_name(self, user_name: str) \
                -> 'JdbcConnectionOptions.JdbcConnectionOptionsBuilder':
            self._j_options_builder["user"] = user_name
            return self

        def with_password(self, password: str) \
                -> 'JdbcConnectionOptions.JdbcConnectionOptionsBuilder':
            self._j_options_builder["password"] = password
            return self

        def build(self) -> 'JdbcConnectionOptions':
            if not self._j_options_builder["url"]:
                raise ValueError("jdbc url is empty")  # Flink's check (a NullPointerException there)
            return JdbcConnectionOptions(j_jdbc_connection_options=dict(self._j_options_builder))


class JdbcExecutionOptions(object):
    """How a JDBC sink sends its records: the batch size, the interval and the retries.

    :param j_jdbc_execution_options: The options, by name.
    """

    def __init__(self, j_jdbc_execution_options: Dict[str, int]):
        self._j_jdbc_execution_options = j_jdbc_execution_options

    def get_batch_interval_ms(self) -> int:
        return self._j_jdbc_execution_options["batch_interval_ms"]

    def get_batch_size(self) -> int:
        return self._j_jdbc_execution_options["batch_size"]

    def get_max_retries(self) -> int:
        return self._j_jdbc_execution_options["max_retries"]

    @staticmethod
    def defaults() -> 'JdbcExecutionOptions':
        """Flink's defaults: batches of 5000 records, no interval, 3 retries."""
        return JdbcExecutionOptions.builder().build()

    @staticmethod
    def builder() -> 'JdbcExecutionOptions.Builder':
        return JdbcExecutionOptions.Builder()

    class Builder(object):
        """Builds :class:`JdbcExecutionOptions`."""

        def __init__(self) -> None:
            self._j_builder = {"batch_interval_ms": 0, "batch_size": 5000, "max_retries": 3}

        def with_batch_size(self, size: int) -> 'JdbcExecutionOptions.Builder':
            self._j_builder["batch_size"] = size
            return self

        def with_batch_interval_ms(self, interval_ms: int) -> 'JdbcExecutionOptions.Builder':
            self._j_builder["batch_interval_ms"] = interval_ms
            return self

        def with_max_retries(self, max_retries: int) -> 'JdbcExecutionOptions.Builder':
            self._j_builder["max_retries"] = max_retries
            return self

        def build(self) -> 'JdbcExecutionOptions':
            return JdbcExecutionOptions(j_jdbc_execution_options=dict(self._j_builder))


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
