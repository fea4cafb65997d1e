"""A PyFlink name rebound to a value of the job's own."""
import json

from pyflink.datastream import StreamExecutionEnvironment


class Recorder:
    def execute(self, name):
        return json.dumps({"job": name})

    def set_parallelism(self, n):
        return n


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env = Recorder()
env.set_parallelism(2)
env.execute("recorded, not run")
