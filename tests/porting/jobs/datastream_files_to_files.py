"""A DataStream job: the lines of text files, read with Flink's line ends and charsets, written
as part files."""
from pyflink.common import Encoder, WatermarkStrategy
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import FileSink, FileSource, OutputFileConfig, StreamFormat

env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.BATCH)
env.set_parallelism(1)
notes = env.from_source(FileSource.for_record_stream_format(StreamFormat.text_line_format(), "in/notes").build(),
                        WatermarkStrategy.no_watermarks(), "notes")
notes.sink_to(FileSink.for_row_format("out/notes", Encoder.simple_string_encoder()).build())
raw = env.read_text_file("in/notes/mixed.txt")
raw.sink_to(FileSink.for_row_format("out/raw", Encoder.simple_string_encoder())
            .with_output_file_config(OutputFileConfig.builder().with_part_prefix("raw").with_part_suffix(".txt").build())
            .build())
latin = env.read_text_file("in/latin/cafe.txt", "ISO-8859-1")
latin.sink_to(FileSink.for_row_format("out/latin", Encoder.simple_string_encoder()).build())
env.execute("files to files")
