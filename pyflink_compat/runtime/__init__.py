"""How DataStream jobs run on Spark: the graph a job builds (:mod:`.graph`), its records as
Spark holds them (:mod:`.records`), the Spark plan built from the graph (:mod:`.plan`) and the
adapter running keyed functions in ``transformWithState`` (:mod:`.keyed`).

Only :mod:`.graph` and :mod:`.records` are imported by the API classes; the others import
pandas, pyarrow and pyspark and are loaded when a job's plan is built.
"""
