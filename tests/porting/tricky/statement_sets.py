"""INSERTs run together through a statement set."""
from pyflink.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.execute_sql("CREATE TABLE s (n INT) WITH ('connector' = 'datagen', 'number-of-rows' = '3')")
t_env.execute_sql("CREATE TABLE a (n INT) WITH ('connector' = 'print')")
t_env.execute_sql("CREATE TABLE b (n INT) WITH ('connector' = 'blackhole')")
stmt_set = t_env.create_statement_set()
stmt_set.add_insert_sql("INSERT INTO a SELECT * FROM s")
stmt_set.add_insert_sql("INSERT INTO b SELECT * FROM s")
stmt_set.execute().wait()
