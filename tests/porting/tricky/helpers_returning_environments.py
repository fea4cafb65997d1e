"""The environment is made by one helper, configured by another and used in a third."""
from pyflink.datastream import StreamExecutionEnvironment


def initialize_env():
    env = StreamExecutionEnvironment.get_execution_environment()
    return env


def configure(env):
    env.set_parallelism(1)
    return env


def pipeline(env):
    ds = env.from_collection([1, 2, 3])
    ds.map(lambda x: x * 2).print()


def main():
    env = configure(initialize_env())
    pipeline(env)
    env.execute("helpers")
