"""A Table API job: people read from CSV files, the adults written as CSV files."""
from pyflink.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.execute_sql("""
    CREATE TABLE people (id INT, name STRING, age INT)
    WITH ('connector' = 'filesystem', 'path' = 'in/people', 'format' = 'csv')""")
t_env.execute_sql("""
    CREATE TABLE adults (name STRING, age INT)
    WITH ('connector' = 'filesystem', 'path' = 'out/adults', 'format' = 'csv')""")
t_env.execute_sql("INSERT INTO adults SELECT UPPER(name), age FROM people WHERE age >= 18").wait()
