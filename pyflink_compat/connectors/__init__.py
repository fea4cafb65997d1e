"""Sinks that write a job's records out of Spark on the driver."""
