"""A name bound in one function, and a method of the same name elsewhere."""
from pyflink.datastream import StreamExecutionEnvironment


def build():
    env = StreamExecutionEnvironment.get_execution_environment()
    return env


class Dummy:
    def execute(self, name):
        return name


def run(env=Dummy()):
    env.execute("not flink")


def shadow():
    StreamExecutionEnvironment = Dummy
    StreamExecutionEnvironment().execute("not flink either")
