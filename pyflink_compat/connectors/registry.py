"""Which module runs a table's ``'connector'``."""

from __future__ import annotations

import importlib
from types import ModuleType

from pyflink_compat.missing import NotSupportedError

__all__ = ["CONNECTORS", "connector_module"]

#: ``'connector'`` value → module of :mod:`pyflink_compat.connectors` that maps it.
CONNECTORS = {
    "blackhole": "blackhole",
    "datagen": "datagen",
    "filesystem": "filesystem",
    "kafka": "kafka",
    "print": "print_sink",
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
