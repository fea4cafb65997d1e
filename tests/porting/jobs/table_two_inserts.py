"""A Table API job with two INSERTs: people read from CSV files, the adults and the minors
written to two sinks, the first INSERT's result waited for after the second ran."""
from pyflink.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.execute_sql("""
    CREATE TABLE people (id INT, name STRING, age INT)
    WITH ('connector' = 'filesystem', 'path' = 'in/people', 'format' = 'csv')""")
t_env.execute_sql("""
    CREATE TABLE adults (name STRING, age INT)
    WITH ('connector' = 'filesystem', 'path' = 'out/adults', 'format' = 'csv')""")
t_env.execute_sql("""
    CREATE TABLE minors (id INT, name STRING)
    WITH ('connector' = 'filesystem', 'path' = 'out/minors', 'format' = 'json')""")
adults = t_env.execute_sql("INSERT INTO adults SELECT name, age FROM people WHERE age >= 18")
t_env.execute_sql("INSERT INTO minors SELECT id, UPPER(name) FROM people WHERE age < 18").wait()
adults.wait()
