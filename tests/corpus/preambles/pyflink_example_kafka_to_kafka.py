# Corpus preamble pyflink_example_kafka_to_kafka: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/bradodarb/pyflink-example/blob/175ae610e022ea701543cbe25b08f92d4fb60fc5/jobs/ds_app_kafka_kafka.py
# Repository: bradodarb/pyflink-example; path: jobs/ds_app_kafka_kafka.py; commit: 175ae610e022ea701543cbe25b08f92d4fb60fc5
# License: MIT, per the repository's LICENSE file
# Cut: the imports and the module-level LOCAL_DEBUG flag, then the environment statements of
#      run() lifted to module level, up to the first source statement.
# Adaptations: one line added before the flag is read sets LOCAL_DEBUG so that the local
#              branch (add_jars, add_classpaths) runs; __file__ is under the harness temp
#              dir, so the jar path points there (it is only recorded, never opened).
# ruff: noqa
import os
from os import path

from pyflink.common import SimpleStringSchema, WatermarkStrategy
from pyflink.datastream import (StreamExecutionEnvironment, RuntimeExecutionMode)
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaSource,
                                                 KafkaOffsetsInitializer, KafkaSink, KafkaRecordSerializationSchema)

os.environ["LOCAL_DEBUG"] = "true"  # corpus adaptation: take the local branch
LOCAL_DEBUG = os.getenv('LOCAL_DEBUG', False)

brokers = "localhost:9092"
env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.STREAMING)
env.set_parallelism(1)

# To enable local running/debugging, we manually add the project's shadow jar that has all the connectors built in
if LOCAL_DEBUG:
    jar_location = str(path.join(path.dirname(path.abspath(__file__)), "../lib/bin/pyflink-services-1.0.jar"))
    env.add_jars(f"file:///{jar_location}")
    env.add_classpaths(f"file:///{jar_location}")
