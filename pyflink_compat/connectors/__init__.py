"""Flink table connectors on Spark: each maps a ``CREATE TABLE ... WITH (...)`` table to a
Spark streaming source or sink with Flink's defaults.

:mod:`~pyflink_compat.connectors.registry` finds the module of a table's ``'connector'``; every
option a table gives is mapped, dropped with a
:class:`~pyflink_compat.connectors.options.ConnectorOptionWarning`, or refused with a
:class:`~pyflink_compat.missing.NotSupportedError` naming the option and the statement
(:mod:`~pyflink_compat.connectors.options`).
"""
