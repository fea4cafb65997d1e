"""Which module runs a table's ``'connector'``."""

from __future__ import annotations

import importlib
from types import ModuleType

from typing import TYPE_CHECKING

from pyflink_compat.missing import NotSupportedError

if TYPE_CHECKING:
    from pyflink_compat.sql.statements import CreateTable

__all__ = ["CONNECTORS", "connector_module", "refuse_updates_into"]

#: ``'connector'`` value → module of :mod:`pyflink_compat.connectors` that maps it.
CONNECTORS = {
    "blackhole": "blackhole",
    "datagen": "datagen",
    "filesystem": "filesystem",
    "jdbc": "jdbc",
    "kafka": "kafka",
    "print": "print_sink",
    "upsert-kafka": "upsert_kafka",
}


def connector_module(name: str, statement: str) -> ModuleType:
    """The module of connector ``name``.

    :raises NotSupportedError: For a connector Spark does not run here, naming it and the
        statement that declared the table.
    """
    module = CONNECTORS.get(name)
    if name == "pyflink_compat-legacy-csv-table-sink":  # a registered CsvTableSink
        module = "csv_table_sink"
    if module is None:
        raise NotSupportedError(
            "Connector '{}' (in: {})".format(name, " ".join(statement.split())[:300]),
            "Read or write this table with PySpark instead "
            "(spark.readStream.format(...) / DataFrame.writeStream.format(...)); the connectors "
            "that run are: {}.".format(", ".join(sorted(CONNECTORS))))
    return importlib.import_module("pyflink_compat.connectors." + module)


def refuse_updates_into(sink: "CreateTable", full_name: str, node: str) -> None:
    """Refuse, with Flink's message, an updating query into ``sink`` when its connector writes
    only appended rows (its module's ``accepts_updates`` says so)."""
    module = connector_module(sink.options.get("connector", ""), sink.text)
    accepts = getattr(module, "accepts_updates", None)
    if accepts is not None and not accepts(sink):
        from pyflink_compat.connectors import filesystem
        from pyflink_compat.util.exceptions import TableException

        raise TableException("org.apache.flink.table.api.TableException: "
                             + filesystem.updating_refusal(full_name, node))
