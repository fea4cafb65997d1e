"""The porting assistant behind ``pyflink-compat port``.

It reads a PyFlink job with LibCST, so that formatting and comments survive, and:

* rewrites its imports to pyflink_compat (:mod:`~pyflink_compat.porting.imports`);
* follows what each name is (:mod:`~pyflink_compat.porting.resolver`) and sorts every statement
  that calls PyFlink into ported, stored only, or pipeline
  (:mod:`~pyflink_compat.porting.classifier`);
* writes the PySpark for sources, sinks and SQL whose configuration is static in the code
  (:mod:`~pyflink_compat.porting.pipeline`, :mod:`~pyflink_compat.porting.connectors`,
  :mod:`~pyflink_compat.porting.sql`), and marks the rest with the PySpark way;
* reports it all per file and per run (:mod:`~pyflink_compat.porting.report`).

The command itself is :mod:`~pyflink_compat.porting.command`. Nothing here is imported by the
API packages: a job never loads LibCST.
"""
