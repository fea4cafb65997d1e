"""Flink SQL on Spark: the Flink dialect, its types and its semantics."""
