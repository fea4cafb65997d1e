"""Values shared by the APIs: configurations, durations and job handles.

Names are imported on first use, so that importing this package is cheap.
"""
from typing import TYPE_CHECKING

from pyflink_compat._lazy import lazy_exports
from pyflink_compat._reexports import with_reexports

__all__ = ['Configuration', 'ConfigOption', 'ConfigOptions', 'ExecutionConfig',
           'TypeInformation', 'TypeSerializer', 'Types', 'SerializationSchema',
           'DeserializationSchema', 'SimpleStringSchema', 'Encoder', 'CompletableFuture',
           'ExecutionMode', 'InputDependencyConstraint', 'JobClient', 'JobExecutionResult',
           'JobID', 'JobStatus', 'RestartStrategies', 'RestartStrategyConfiguration', 'Row',
           'RowKind', 'WatermarkStrategy', 'Duration', 'Instant', 'Time',
           'AssignerWithPeriodicWatermarksWrapper']

_EXPORTS = {
    'Configuration': 'configuration',
    'Duration': 'time',
    'JobClient': 'job_client',
    'JobExecutionResult': 'job_execution_result',
    'JobID': 'job_id',
    'JobStatus': 'job_status',
    'CompletableFuture': 'completable_future',
    'ExecutionConfig': 'execution_config',
    'ExecutionMode': 'execution_mode',
    'InputDependencyConstraint': 'input_dependency_constraint',
    'RestartStrategies': 'restart_strategy',
    'RestartStrategyConfiguration': 'restart_strategy',
    'Time': 'time',
    # Placeholders (pyflink_compat.missing.declared): they import, and using one raises.
    'AssignerWithPeriodicWatermarksWrapper': 'watermark_strategy',
    'ConfigOption': 'config_options',
    'ConfigOptions': 'config_options',
    'DeserializationSchema': 'serialization',
    'Encoder': 'serialization',
    'Instant': 'time',
    'Row': 'types',
    'RowKind': 'types',
    'SerializationSchema': 'serialization',
    'SimpleStringSchema': 'serialization',
    'TypeInformation': 'typeinfo',
    'TypeSerializer': 'serializer',
    'Types': 'typeinfo',
    'WatermarkStrategy': 'watermark_strategy',
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())
__getattr__ = with_reexports(__name__, __getattr__)

if TYPE_CHECKING:
    from pyflink_compat.common.configuration import Configuration
    from pyflink_compat.common.completable_future import CompletableFuture
    from pyflink_compat.common.job_client import JobClient
    from pyflink_compat.common.job_execution_result import JobExecutionResult
    from pyflink_compat.common.job_id import JobID
    from pyflink_compat.common.job_status import JobStatus
    from pyflink_compat.common.time import Duration
