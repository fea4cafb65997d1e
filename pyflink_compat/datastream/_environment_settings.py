"""The job-wide settings of a :class:`~pyflink_compat.datastream.StreamExecutionEnvironment`
next to checkpointing: parallelism, runtime mode, restart strategy, dependencies and the
settings Spark has no use for. They are kept in the environment's settings store like the
checkpoint settings; :mod:`pyflink_compat.settings.registry` says what each becomes in Spark.
"""
import os
import warnings
from typing import Any, Dict, List, Optional

from pyflink_compat.common.execution_config import _RESTART_DEPRECATION, ExecutionConfig
from pyflink_compat.common._execution_options import SessionOptions
from pyflink_compat.common.restart_strategy import RestartStrategyConfiguration
from pyflink_compat.datastream.execution_mode import RuntimeExecutionMode
from pyflink_compat.datastream.time_characteristic import TimeCharacteristic
from pyflink_compat.missing import not_supported
from pyflink_compat.settings import values
from pyflink_compat.settings.registry import SETTINGS_BY_NAME, Setting
from pyflink_compat.util.exceptions import illegal_argument, jvm_name_missing, method_not_found
from pyflink_compat.util.java_args import JavaMethod
from pyflink_compat.util.shared_methods import install_methods

__all__ = ["EnvironmentSettingsMixin", "MAX_MAX_PARALLELISM"]

_OWNER = "StreamExecutionEnvironment"
_TARGET = _OWNER + "."
#: The largest maximum parallelism Flink accepts (its number of key groups).
MAX_MAX_PARALLELISM = 32768
_TIME_CHARACTERISTIC_CLASS = "org.apache.flink.streaming.api.TimeCharacteristic"
_AUTO_WATERMARK_DEFAULT = 200
_FILE_DELIMITER = ","
_PARAM_DELIMITER = "#"
_LIST_DELIMITER = ";"

#: The default local parallelism, as Flink's static one: the machine's processors.
_default_local_parallelism: List[int] = [os.cpu_count() or 1]


def _s(name: str) -> Setting:
    return SETTINGS_BY_NAME[name]


class EnvironmentSettingsMixin(object):
    """The job-wide setting methods of the environment.

    :meth:`install` copies them into the environment's class, whose only base stays
    ``object``, as in PyFlink.
    """

    @classmethod
    def install(cls, target: Any) -> Any:
        """Class decorator: give ``target`` every method defined here."""
        return install_methods(cls, target)

    _store: Any
    _j_stream_execution_environment: Any

    # -- ExecutionConfig ------------------------------------------------------------------
    def get_config(self) -> ExecutionConfig:
        """The execution settings of this environment.

        :return: A new :class:`~pyflink_compat.common.ExecutionConfig` over the environment's
                 settings (changes made through it are the environment's).
        """
        store = SessionOptions(self._store._j_conf, lambda: _default_local_parallelism[0],
                                 settings=self._store)
        return ExecutionConfig(store)

    # -- parallelism ----------------------------------------------------------------------
    def set_parallelism(self, parallelism: int) -> Any:
        """Set the default parallelism of the job's operators (``parallelism.default``).

        On Spark it is ``spark.sql.shuffle.partitions`` of the environment's session, which
        is also the number of state partitions of a new checkpoint. A query resuming from a
        checkpoint keeps the number it was written with (the job warns when they differ).

        :param parallelism: At least 1, or -1 for the default.
        :return: This environment.

        >>> env.set_parallelism(4).get_parallelism()
        4
        >>> env.spark_session.conf.get("spark.sql.shuffle.partitions")
        '4'
        >>> env.set_parallelism(0)
        Traceback (most recent call last):
        pyflink_compat.util.exceptions.JavaIllegalArgumentError: An error occurred while calling ...
        : java.lang.IllegalArgumentException: Parallelism must be at least one, or ...
        """
        self.get_config().set_parallelism(parallelism)
        return self

    def get_parallelism(self) -> int:
        """The default parallelism: the one set, else the default local parallelism."""
        return self.get_config().get_parallelism()

    def set_max_parallelism(self, max_parallelism: int) -> Any:
        """Set the maximum parallelism (``pipeline.max-parallelism``; stored, no Spark effect:
        Spark's number of state partitions is the parallelism of a query's first run).

        :param max_parallelism: Between 1 and 32768.
        :return: This environment.
        """
        method = JavaMethod(_OWNER, "setMaxParallelism", ("int",))
        value = method.arg(max_parallelism)
        if not 0 < value <= MAX_MAX_PARALLELISM:
            raise illegal_argument(
                "maxParallelism is out of bounds 0 < maxParallelism <= {}. Found: {}".format(
                    MAX_MAX_PARALLELISM, value), method.target)
        self._store.put({_s("max_parallelism"): value}, method.target)
        return self

    def get_max_parallelism(self) -> int:
        """The maximum parallelism, -1 when not set."""
        return int(self._store.get(_s("max_parallelism"), _TARGET + "getMaxParallelism"))

    def get_default_local_parallelism(self) -> int:
        """The parallelism of environments that have none set (the processors, by default)."""
        return _default_local_parallelism[0]

    def set_default_local_parallelism(self, parallelism: int) -> None:
        """Set the parallelism of environments that have none set (shared, as in Flink).

        :param parallelism: The parallelism.
        """
        method = JavaMethod(_OWNER, "setDefaultLocalParallelism", ("int",))
        _default_local_parallelism[0] = method.arg(parallelism)

    # -- runtime mode -----------------------------------------------------------------------
    def set_runtime_mode(self, execution_mode: RuntimeExecutionMode) -> Any:
        """Set how the job runs (``execution.runtime-mode``).

        ``BATCH``: every query processes the input available when it starts and finishes
        (Spark's available-now trigger), and the job ends ``FINISHED``. ``STREAMING``: the
        queries run until cancelled. ``AUTOMATIC``: ``BATCH`` when Spark can tell that every
        source of every sink is bounded (file sources), else ``STREAMING``; the job plan says
        which was chosen.

        :param execution_mode: A :class:`~pyflink_compat.datastream.RuntimeExecutionMode`.
        :return: This environment (PyFlink returns its Java environment).
        """
        name = execution_mode._to_j_execution_mode()
        self._store.put({_s("runtime_mode"): name}, _TARGET + "setRuntimeMode")
        return self

    # -- buffer timeout and chaining -------------------------------------------------------
    def set_buffer_timeout(self, timeout_millis: int) -> Any:
        """Set how long records may wait in a network buffer (stored, no Spark effect).

        :param timeout_millis: Milliseconds, 0 to flush after every record, -1 to flush only
                               full buffers.
        :return: This environment.
        """
        method = JavaMethod(_OWNER, "setBufferTimeout", ("long",))
        millis = method.arg(timeout_millis)
        if millis < -1:
            raise illegal_argument("Timeout of buffer must be non-negative or -1", method.target)
        if millis == -1:
            changes: Dict[Setting, Any] = {_s("buffer_timeout_enabled"): False}
        else:
            changes = {_s("buffer_timeout_enabled"): None,
                       _s("buffer_timeout"): values.from_millis(millis)}
        self._store.put(changes, method.target)
        return self

    def get_buffer_timeout(self) -> int:
        """The buffer timeout in milliseconds, -1 when buffers are flushed only when full."""
        target = _TARGET + "getBufferTimeout"
        if not self._store.get(_s("buffer_timeout_enabled"), target):
            return -1
        return values.to_millis(self._store.get(_s("buffer_timeout"), target))

    def disable_operator_chaining(self) -> Any:
        """Disable operator chaining (stored, no Spark effect: Spark fuses operators itself).

        :return: This environment.
        """
        self._store.put({_s("operator_chaining"): False}, _TARGET + "disableOperatorChaining")
        return self

    def is_chaining_enabled(self) -> bool:
        """Whether operator chaining is enabled."""
        return bool(self._store.get(_s("operator_chaining"), _TARGET + "isChainingEnabled"))

    def is_chaining_of_operators_with_different_max_parallelism_enabled(self) -> bool:
        """Whether operators of different maximum parallelism may be chained (always true)."""
        return True

    # -- restart strategy -------------------------------------------------------------------
    def set_restart_strategy(self, restart_strategy_configuration: RestartStrategyConfiguration):
        """Set the restart strategy (the ``restart-strategy.*`` options), which decides how
        the job's queries restart from their checkpoints after a failure.

        :param restart_strategy_configuration: A configuration from
            :class:`~pyflink_compat.common.RestartStrategies`.

        .. note:: Deprecated since version 1.19 (it warns, as in PyFlink): configure the
                  ``restart-strategy.*`` options instead.
        """
        warnings.warn(_RESTART_DEPRECATION, DeprecationWarning, stacklevel=2)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # warned above, once
            self.get_config().set_restart_strategy(restart_strategy_configuration)

    def get_restart_strategy(self) -> RestartStrategyConfiguration:
        """The restart strategy configuration set through the API (the fall-back one when none
        was, or after ``restart-strategy.type`` was configured)."""
        return self.get_config().get_restart_strategy()

    # -- time characteristic ----------------------------------------------------------------
    def set_stream_time_characteristic(self, characteristic: TimeCharacteristic) -> None:
        """Set the time characteristic (stored, no Spark effect: event time is the column
        named in ``DataFrame.withWatermark``). As in Flink, ``ProcessingTime`` sets the
        automatic watermark interval to 0, the other two set it to 200 ms when it was 0.

        :param characteristic: A :class:`~pyflink_compat.datastream.TimeCharacteristic`.
        """
        name = characteristic.name
        if name not in TimeCharacteristic.__members__:
            raise jvm_name_missing("{}.{}".format(_TIME_CHARACTERISTIC_CLASS, name))
        config = self.get_config()
        if name == "ProcessingTime":
            config.set_auto_watermark_interval(0)
        elif config.get_auto_watermark_interval() == 0:
            config.set_auto_watermark_interval(_AUTO_WATERMARK_DEFAULT)
        self._store.put({_s("time_characteristic"): name},
                        _TARGET + "setStreamTimeCharacteristic")

    def get_stream_time_characteristic(self) -> TimeCharacteristic:
        """The time characteristic (``EventTime`` unless set)."""
        name = self._store.get(_s("time_characteristic"), _TARGET + "getStreamTimeCharacteristic")
        return TimeCharacteristic._from_j_time_characteristic(name)

    # -- dependencies -----------------------------------------------------------------------
    def _text(self, name: str) -> Optional[str]:
        text = self._store.get(_s(name), _TARGET + "getConfiguration")
        return None if text is None else str(text)

    def add_python_file(self, file_path: str) -> None:
        """Add a Python file (or package directory) to the job's Python path; on Spark it is
        shipped with ``SparkContext.addPyFile`` when the job starts (``python.files``).

        :param file_path: The file.
        """
        if file_path is None:
            raise JavaMethod(_OWNER, "setString").null_pointer("Value must not be null.")
        current = self._text("python_files")
        text = file_path if current is None else _FILE_DELIMITER.join([file_path, current])
        self._store.put({_s("python_files"): text}, _TARGET + "addPythonFile")

    def set_python_requirements(self, requirements_file_path: str,
                                requirements_cache_dir: str = None) -> None:
        """Set the job's third-party Python requirements (``python.requirements``; stored, no
        Spark effect: install them into the executors' Python environment).

        :param requirements_file_path: The requirements file.
        :param requirements_cache_dir: A directory of the packages to install offline.
        """
        text = requirements_file_path
        if requirements_cache_dir is not None:
            text = _PARAM_DELIMITER.join([text, requirements_cache_dir])
        if text is None:
            raise JavaMethod(_OWNER, "setString").null_pointer("Value must not be null.")
        self._store.put({_s("python_requirements"): text}, _TARGET + "setPythonRequirements")

    def add_python_archive(self, archive_path: str, target_dir: str = None) -> None:
        """Add an archive extracted in the workers' working directory; on Spark it is shipped
        with ``SparkContext.addArchive`` when the job starts (``python.archives``).

        :param archive_path: The archive.
        :param target_dir: The directory it is extracted into (its file name by default).
        """
        if target_dir is not None:
            archive_path = _PARAM_DELIMITER.join([archive_path, target_dir])
        if archive_path is None:
            raise JavaMethod(_OWNER, "setString").null_pointer("Value must not be null.")
        current = self._text("python_archives")
        text = archive_path if current is None else _FILE_DELIMITER.join([current, archive_path])
        self._store.put({_s("python_archives"): text}, _TARGET + "addPythonArchive")

    def set_python_executable(self, python_exec: str) -> None:
        """Set the workers' Python interpreter (``python.executable``; stored, no Spark effect
        once Spark runs: set ``spark.pyspark.python`` when submitting the job).

        :param python_exec: The interpreter.
        """
        if not isinstance(python_exec, str):
            if python_exec is None:
                raise JavaMethod(_OWNER, "setString").null_pointer("Value must not be null.")
            raise method_not_found("setString", ["python.executable", python_exec],
                                   "Configuration.setString")
        self._store.put({_s("python_executable"): python_exec}, _TARGET + "setPythonExecutable")

    def _add_paths(self, name: str, paths: Any, target: str) -> None:
        for path in paths:
            if not isinstance(path, str):
                raise method_not_found("java.net.URL", [path], target, constructor=True)
        current = self._text(name)
        joined = ([] if not current else current.split(_LIST_DELIMITER)) + list(paths)
        self._store.put({_s(name): _LIST_DELIMITER.join(joined) if joined else None}, target)

    def add_jars(self, *jars_path: str) -> None:
        """Add jar files to the job (``pipeline.jars``; stored, and the job plan says how to
        give them to Spark: ``spark-submit --jars`` or ``spark.jars`` / ``spark.jars.packages``).

        :param jars_path: URLs of the jars (``file:///...``).
        """
        self._add_paths("jars", jars_path, _TARGET + "addJars")

    def add_classpaths(self, *classpaths: str) -> None:
        """Add URLs to the job's class path (``pipeline.classpaths``; stored, reported like
        :meth:`~pyflink_compat.datastream.StreamExecutionEnvironment.add_jars`).

        :param classpaths: The URLs.
        """
        self._add_paths("classpaths", classpaths, _TARGET + "addClasspaths")

    # -- types and serializers (Spark serializes rows itself) ------------------------------
    def add_default_kryo_serializer(self, type_class_name: str, serializer_class_name: str) -> None:
        """Register a default Kryo serializer (stored in the ExecutionConfig, no Spark effect).

        .. note:: Deprecated since version 1.19, as in PyFlink.
        """
        self.get_config().add_default_kryo_serializer(type_class_name, serializer_class_name)

    def register_type_with_kryo_serializer(self, type_class_name: str,
                                           serializer_class_name: str) -> None:
        """Register a Kryo serializer for a type (stored in the ExecutionConfig, no Spark
        effect).

        .. note:: Deprecated since version 1.19, as in PyFlink.
        """
        self.get_config().register_type_with_kryo_serializer(type_class_name, serializer_class_name)

    def register_type(self, type_class_name: str) -> None:
        """Register a type with the serialization stack (stored, no Spark effect).

        .. note:: Deprecated since version 1.19, as in PyFlink.
        """
        self.get_config().register_kryo_type(type_class_name)

    def register_slot_sharing_group(self, slot_sharing_group: Any) -> Any:
        """Not supported: Spark schedules tasks itself."""
        raise not_supported("StreamExecutionEnvironment.register_slot_sharing_group")

    # -- pipeline methods: build the pipeline with PySpark ---------------------------------
    def from_source(self, source: Any, watermark_strategy: Any, source_name: str,
                    type_info: Any = None) -> Any:
        """Not supported: read the source with ``spark.readStream``."""
        raise not_supported("StreamExecutionEnvironment.from_source")

    def add_source(self, source_func: Any, source_name: str = 'Custom Source',
                   type_info: Any = None) -> Any:
        """Not supported: read the source with ``spark.readStream``."""
        raise not_supported("StreamExecutionEnvironment.add_source")

    def from_collection(self, collection: Any, type_info: Any = None) -> Any:
        """Not supported: build the data with ``spark.createDataFrame``."""
        raise not_supported("StreamExecutionEnvironment.from_collection")

    def read_text_file(self, file_path: str, charset_name: str = "UTF-8") -> Any:
        """Not supported: read the files with ``spark.readStream.text``."""
        raise not_supported("StreamExecutionEnvironment.read_text_file")

    def create_input(self, input_format: Any, type_info: Any = None) -> Any:
        """Not supported: read the input with ``spark.readStream.format(...)``."""
        raise not_supported("StreamExecutionEnvironment.create_input")

    def get_execution_plan(self) -> str:
        """Not supported: see
        :meth:`~pyflink_compat.datastream.StreamExecutionEnvironment.get_job_plan`, or
        ``DataFrame.explain()``."""
        raise not_supported("StreamExecutionEnvironment.get_execution_plan")

    def register_cached_file(self, file_path: str, name: str, executable: bool = False) -> None:
        """Not supported: ship the file with ``SparkContext.addFile``."""
        raise not_supported("StreamExecutionEnvironment.register_cached_file")
