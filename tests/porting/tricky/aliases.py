"""Aliases of modules and classes."""
import pyflink.table as pt
from pyflink.datastream import StreamExecutionEnvironment as SEE
from pyflink.common import Types as T

environment = SEE.get_execution_environment()
environment.set_parallelism(2)
table_env = pt.StreamTableEnvironment.create(environment)
types = T.ROW([T.INT(), T.STRING()])
same = environment
same.enable_checkpointing(1000)
