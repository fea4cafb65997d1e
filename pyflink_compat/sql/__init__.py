"""Flink SQL on Spark: the Flink dialect, its statements, and their translation."""
