"""INSERTs run together through a statement set."""
from pyflink.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
stmt_set = t_env.create_statement_set()
stmt_set.add_insert_sql("INSERT INTO a SELECT * FROM s")
stmt_set.add_insert_sql("INSERT INTO b SELECT * FROM s")
stmt_set.execute().wait()
