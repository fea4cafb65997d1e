"""A DataStream job: words from a collection written as text files, numbers printed."""
from pyflink.common import Encoder, Types
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import FileSink

env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.BATCH)
env.set_parallelism(1)
words = env.from_collection(["apple", "bread", "cheese", "apple"], type_info=Types.STRING())
words.sink_to(FileSink.for_row_format("out/words", Encoder.simple_string_encoder()).build())
numbers = env.from_collection([(1, "one"), (2, "two")],
                              type_info=Types.ROW_NAMED(["id", "name"], [Types.INT(), Types.STRING()]))
numbers.print()
env.execute("collection to files")
