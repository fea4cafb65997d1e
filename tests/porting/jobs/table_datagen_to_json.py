"""A Table API job: generated numbers, filtered by SQL, written as JSON files."""
from pyflink.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.execute_sql("""
    CREATE TABLE numbers (
        id BIGINT,
        name STRING
    ) WITH (
        'connector' = 'datagen',
        'number-of-rows' = '20',
        'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '20',
        'fields.name.kind' = 'sequence', 'fields.name.start' = '100', 'fields.name.end' = '119'
    )""")
t_env.execute_sql("""
    CREATE TABLE evens (id BIGINT, name STRING, doubled BIGINT)
    WITH ('connector' = 'filesystem', 'path' = 'out/evens', 'format' = 'json')""")
t_env.execute_sql("INSERT INTO evens SELECT id, name, id * 2 FROM numbers WHERE MOD(id, 2) = 0").wait()
