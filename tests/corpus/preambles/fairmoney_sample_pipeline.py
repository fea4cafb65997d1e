# Corpus preamble fairmoney_sample_pipeline: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/fairmoney/pyflink-features-pipelines/blob/70bf2d28a54513561916b848ba23252e5949002e/development/sample_pipeline.py
# Repository: fairmoney/pyflink-features-pipelines; path: development/sample_pipeline.py; commit: 70bf2d28a54513561916b848ba23252e5949002e
# License: not stated in the repository
# Cut: the imports, then the environment statements of main() lifted to module level, up to
#      the first source statement.
# Adaptations: imports of the job's own modules and of third-party packages other than PyFlink
#              left out (pfp); the job lists a local ./jars directory, so two lines added
#              first create it under the harness temp dir (the working directory) with one
#              empty jar file.
# ruff: noqa
import os

from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.kinesis import FlinkKinesisConsumer
from pyflink.datastream.formats.avro import AvroRowDeserializationSchema

os.makedirs("jars")  # corpus adaptation: the local jar directory the job expects
open(os.path.join("jars", "flink-sql-connector-kinesis.jar"), "w").close()  # corpus adaptation

stream_env = StreamExecutionEnvironment.get_execution_environment()
extra_jar_paths = [f"file://{os.getcwd()}/jars/{f}" for f in os.listdir("jars")]
stream_env.add_jars(*extra_jar_paths)
stream_env.add_classpaths(*extra_jar_paths)
