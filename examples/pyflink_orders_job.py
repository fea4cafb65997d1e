"""The orders job of ``ported_job.py`` as it would be written for PyFlink 1.20.5: the input of
the "Port a job in five minutes" guide (``pyflink-compat port examples/pyflink_orders_job.py``)."""

from pyflink.common import Configuration
from pyflink.datastream import CheckpointingMode, ExternalizedCheckpointCleanup, StreamExecutionEnvironment
from pyflink.table import StreamTableEnvironment

config = Configuration()
config.set_string("restart-strategy.type", "fixed-delay")
config.set_string("restart-strategy.fixed-delay.attempts", "3")
config.set_string("execution.checkpointing.dir", "file:///tmp/orders/checkpoints")
env = StreamExecutionEnvironment.get_execution_environment(config)
env.enable_checkpointing(1000)
env.get_checkpoint_config().set_checkpointing_mode(CheckpointingMode.EXACTLY_ONCE)
env.get_checkpoint_config().set_checkpoint_timeout(60000)
env.get_checkpoint_config().set_min_pause_between_checkpoints(500)
env.get_checkpoint_config().enable_externalized_checkpoints(
    ExternalizedCheckpointCleanup.RETAIN_ON_CANCELLATION)
t_env = StreamTableEnvironment.create(env)

# the orders, as JSON files
t_env.execute_sql("""
    CREATE TABLE orders (order_id BIGINT, product STRING, amount BIGINT)
    WITH ('connector' = 'filesystem', 'path' = '/tmp/orders/in', 'format' = 'json')""")
# every order copied to Parquet files, and the revenue per product printed
t_env.execute_sql("""
    CREATE TABLE archive (order_id BIGINT, product STRING, amount BIGINT)
    WITH ('connector' = 'filesystem', 'path' = '/tmp/orders/archive', 'format' = 'parquet')""")
t_env.execute_sql("CREATE TABLE revenue (product STRING, revenue BIGINT) WITH ('connector' = 'print')")
t_env.execute_sql("INSERT INTO archive SELECT order_id, product, amount FROM orders").wait()
t_env.execute_sql("INSERT INTO revenue SELECT product, SUM(amount) FROM orders GROUP BY product").wait()
