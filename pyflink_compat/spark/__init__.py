"""The Spark side of the bridge: everything that knows Spark's classes and conf keys.

The API modules speak Flink; only this package translates Flink settings into Spark
mechanisms (session conf keys, triggers, checkpoint locations, query supervision).
"""
