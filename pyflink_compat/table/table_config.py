"""The options of a table environment, and how they reach its StreamExecutionEnvironment."""
import datetime
from typing import TYPE_CHECKING, Any, Dict, Optional, cast

from pyflink_compat.common.configuration import Configuration
from pyflink_compat.missing import not_supported
from pyflink_compat.settings.registry import CONF_PREFIX
from pyflink_compat.settings.values import (
    NANOS_PER_MINUTE, format_duration, from_millis, read_duration, timedelta_millis, to_millis)
from pyflink_compat.table._table_options import flink_text, table_option
from pyflink_compat.util.exceptions import call_java, illegal_argument, null_pointer
from pyflink_compat.util.java_args import java_attribute, java_call_args
from pyflink_compat.util.java_limits import INT_MAX, INT_MIN

if TYPE_CHECKING:
    from pyflink_compat.datastream import StreamExecutionEnvironment

__all__ = ['TableConfig']

_TARGET = "TableConfig."
_TIME_ZONE = "table.local-time-zone"
_STATE_TTL = "table.exec.state.ttl"
_CODE_LENGTH = "table.generated-code.max-length"
_PYTHON_EXECUTABLE = "python.executable"
_MIN_RETENTION_GAP_MS = to_millis(5 * NANOS_PER_MINUTE)
_INVALID_ZONE = (
    "Invalid time zone. The value should be a Time Zone Database (TZDB) ID such as "
    "'America/Los_Angeles' to include daylight saving time. Fixed offsets are supported using "
    "'GMT-03:00' or 'GMT+03:00'. Or use 'UTC' without time zone and daylight saving time.")


def _jvm() -> Any:
    from pyflink_compat.java_gateway import get_gateway

    return get_gateway().jvm


def _checked_zone(zone: str, target: str) -> str:
    """``zone`` if Flink accepts it: a zone id that ``java.util.TimeZone`` and
    ``java.time.ZoneId`` read the same way."""
    jvm = _jvm()
    try:
        valid = bool(jvm.java.util.TimeZone.getTimeZone(zone).toZoneId().equals(
            jvm.java.time.ZoneId.of(zone)))
    except Exception:  # an id ZoneId cannot read is invalid, as in Flink
        valid = False
    if not valid:
        # Flink raises its ValidationException, a class the Spark JVM does not have.
        raise illegal_argument(_INVALID_ZONE, target)
    return zone


class TableConfig(object):
    """The options of a :class:`~pyflink_compat.table.TableEnvironment`, such as
    ``execution.checkpointing.interval`` or ``table.local-time-zone``.

    A table environment created from a
    :class:`~pyflink_compat.datastream.StreamExecutionEnvironment` (or with one of its own)
    reads options it does not hold from that environment (:meth:`get`). Its own options reach
    the environment when the environment starts or plans a job: they are applied with the
    environment's :meth:`~pyflink_compat.datastream.StreamExecutionEnvironment.configure`, as
    Flink's planner does when it builds a table pipeline, so checkpoint, state backend and
    restart options are validated and honoured by the environment, and win over the values it
    had (as in Flink, where a table pipeline configures its environment). Until then the
    environment's getters read its own settings, as in PyFlink. Options the environment does not
    read have the Spark meaning declared in the table package's ``TABLE_OPTIONS``
    (``table.local-time-zone`` sets the Spark session time zone at once), or none.

    :param j_table_config: Options to start from, as a
        :class:`~pyflink_compat.common.Configuration` (in PyFlink, the JVM object); none when
        omitted.
    """

    def __init__(self, j_table_config=None):
        if j_table_config is None:
            j_table_config = Configuration()
        self._j_table_config = j_table_config
        self._environment: Optional['StreamExecutionEnvironment'] = None

    @property
    def _configuration(self) -> Configuration:
        configuration: Configuration = self._j_table_config
        return configuration

    # -- options ------------------------------------------------------------------------------
    def get(self, key: str, default_value: str) -> str:
        """The value of ``key`` as text: this config's own, else the environment's.

        :param key: The option key.
        :param default_value: What to return when neither has the option.
        :return: The value, or ``default_value``.
        """
        # Checks the arguments as py4j and Flink do, whichever side holds the option.
        own = self._configuration.get_string(key, default_value)
        if self._configuration.contains_key(key):
            return own
        text = self._environment_option(key)
        return own if text is None else text

    def _environment_option(self, key: Any) -> Optional[str]:
        if self._environment is None or not isinstance(key, str):
            return None
        text = cast(Any, self._environment)._store.text(CONF_PREFIX + key)
        if text is None and key == "parallelism.default":
            # A local Flink environment always holds its parallelism (the processors by default).
            return str(cast(Any, self._environment).get_parallelism())
        return None if text is None else flink_text(text)

    def set(self, key: str, value: str) -> 'TableConfig':
        """Set ``key`` to the text ``value``; it is parsed when it is used (a job started by the
        environment applies it, and fails if the environment rejects it).

        :param key: The option key.
        :param value: The value.
        :return: This config.
        """
        target = _TARGET + "set"
        java_call_args("set", target, [(key, "String"), (value, "String")])
        if key is None:
            raise null_pointer("Key must not be null.", target)
        if value is None:
            raise null_pointer("Value must not be null.", target)
        self._configuration.set_string(key, value)
        self._apply_spark_options(strict=False)
        return self

    def get_configuration(self) -> Configuration:
        """This config's own options; changing them changes the config.

        :return: A :class:`~pyflink_compat.common.Configuration` over them.
        """
        return Configuration(j_configuration=self._configuration._j_configuration)

    def add_configuration(self, configuration: Configuration):
        """Copy every option of ``configuration`` into this config, replacing existing ones.

        :param configuration: A :class:`~pyflink_compat.common.Configuration`.
        """
        j_configuration = java_attribute(configuration, "_j_configuration")
        self._configuration._j_configuration.putAll(j_configuration)
        self._apply_spark_options(strict=False)

    def to_map(self) -> dict:
        """Every option in force: the environment's, overridden by this config's own.

        :return: A dict of option texts.
        """
        entries: Dict[str, str] = {}
        if self._environment is not None:
            for key, text in cast(Any, self._environment)._store.raw().items():
                if not key.startswith("object."):
                    entries[key] = flink_text(text)
        entries.update(self._configuration.to_dict())
        return entries

    # -- time zone ------------------------------------------------------------------------------
    def get_local_timezone(self) -> str:
        """The time zone of ``TIMESTAMP_LTZ`` values: the ``table.local-time-zone`` option, or
        the JVM's zone when it is ``default`` (the default).

        :return: A zone id such as ``America/Los_Angeles`` or ``GMT-08:00``.
        """
        target = _TARGET + "getLocalTimeZone"
        zone = self.get(_TIME_ZONE, "default")
        jvm = _jvm()
        if zone == "default":
            return str(jvm.java.time.ZoneId.systemDefault().getId())
        return str(jvm.java.time.ZoneId.of(_checked_zone(zone, target)).getId())

    def set_local_timezone(self, timezone_id: str):
        """Set the time zone of ``TIMESTAMP_LTZ`` values, and of the environment's Spark session
        (``spark.sql.session.timeZone``).

        :param timezone_id: A zone id: a region such as ``America/Los_Angeles``, ``UTC``, or a
            fixed offset such as ``GMT-08:00`` (``+08:00`` is stored as ``GMT+08:00``).
            Abbreviations such as ``PST`` are rejected.
        """
        if timezone_id is None or not isinstance(timezone_id, str):
            raise Exception("TableConfig.timezone should be a string!")
        jvm = _jvm()
        j_zone = call_java("z:java.time.ZoneId.of", jvm.java.time.ZoneId.of, timezone_id)
        if j_zone.getClass().getName() == "java.time.ZoneOffset":
            j_zone = jvm.java.time.ZoneId.ofOffset("GMT", j_zone)
        zone = _checked_zone(str(j_zone.toString()), _TARGET + "setLocalTimeZone")
        self._configuration.set_string(_TIME_ZONE, zone)
        self._apply_spark_options(strict=False)

    # -- generated code -------------------------------------------------------------------------
    def get_max_generated_code_length(self) -> int:
        """The size above which Flink splits generated code (stored only: no Spark effect).

        :return: 4000 unless set.
        """
        text = self.get(_CODE_LENGTH, None)  # type: ignore[arg-type]
        if text is None:
            return 4000
        try:
            value = int(text.strip())
        except ValueError:
            value = None
        if value is None or not INT_MIN <= value <= INT_MAX:
            raise illegal_argument("Could not parse value '{}' for key '{}'.".format(
                text, _CODE_LENGTH), _TARGET + "getMaxGeneratedCodeLength")
        return value

    def set_max_generated_code_length(self, max_generated_code_length: int):
        """Set the size above which Flink splits generated code (stored only).

        :param max_generated_code_length: A Java ``int``.
        """
        value = max_generated_code_length
        if value is None or not isinstance(value, int):
            raise Exception("TableConfig.max_generated_code_length should be a int value!")
        java_call_args("setMaxGeneratedCodeLength", _TARGET + "setMaxGeneratedCodeLength",
                       [(value, "int")])
        self._configuration.set_string(_CODE_LENGTH, str(value))

    # -- idle state retention -------------------------------------------------------------------
    def set_idle_state_retention_time(self, min_time: datetime.timedelta,
                                      max_time: datetime.timedelta):
        """Keep idle state for at least ``min_time`` (stored as ``table.exec.state.ttl``;
        ``max_time`` is only checked, as in Flink). Stored only: Spark has no idle state
        retention for SQL state.

        .. note:: Deprecated in PyFlink: use :meth:`set_idle_state_retention`.

        :param min_time: The retention; zero keeps state forever.
        :param max_time: At least 5 minutes more than ``min_time``, unless both are zero.
        """
        min_ms, max_ms = timedelta_millis(min_time), timedelta_millis(max_time)
        if not (min_ms == 0 and max_ms == 0) and max_ms - min_ms < _MIN_RETENTION_GAP_MS:
            raise illegal_argument(
                "Difference between minTime: {} ms and maxTime: {} ms should be at least 5 "
                "minutes.".format(min_ms, max_ms), _TARGET + "setIdleStateRetentionTime")
        self._configuration.set_string(_STATE_TTL, format_duration(from_millis(min_ms)))

    def set_idle_state_retention(self, duration: datetime.timedelta):
        """Keep idle state for ``duration`` (the ``table.exec.state.ttl`` option). Stored only:
        Spark has no idle state retention for SQL state.

        :param duration: The retention; zero keeps state forever.
        """
        self._configuration.set_string(_STATE_TTL, format_duration(from_millis(timedelta_millis(duration))))

    def _retention_ms(self) -> int:
        text = self.get(_STATE_TTL, None)  # type: ignore[arg-type]
        if text is None:
            return 0
        try:
            return to_millis(read_duration(text))
        except ValueError:
            raise illegal_argument("Could not parse value '{}' for key '{}'.".format(
                text, _STATE_TTL), _TARGET + "getIdleStateRetention") from None

    def get_min_idle_state_retention_time(self) -> int:
        """The idle state retention in milliseconds.

        :return: 0 unless set.
        """
        return self._retention_ms()

    def get_max_idle_state_retention_time(self) -> int:
        """One and a half times the idle state retention, in milliseconds.

        :return: 0 unless set.
        """
        millis = self._retention_ms() * 3
        return millis // 2 if millis >= 0 else -(-millis // 2)  # Java's division

    def get_idle_state_retention(self) -> datetime.timedelta:
        """The idle state retention.

        :return: Zero unless set.
        """
        return datetime.timedelta(milliseconds=self._retention_ms())

    # -- SQL dialect and Python -----------------------------------------------------------------
    def get_sql_dialect(self):
        """Not supported: Spark parses its own SQL dialect."""
        raise not_supported("TableConfig.get_sql_dialect")

    def set_sql_dialect(self, sql_dialect):
        """Not supported: Spark parses its own SQL dialect."""
        raise not_supported("TableConfig.set_sql_dialect")

    def set_python_executable(self, python_exec: str):
        """Set the ``python.executable`` option (stored only: PySpark's workers use
        ``spark.pyspark.python``, given when the application starts).

        :param python_exec: The path of a Python interpreter.
        """
        self.set(_PYTHON_EXECUTABLE, python_exec)

    def get_python_executable(self) -> str:
        """The ``python.executable`` option of this config.

        :return: The path, or ``None``.
        """
        return self._configuration.get_string(_PYTHON_EXECUTABLE, None)  # type: ignore[arg-type]

    @staticmethod
    def get_default() -> 'TableConfig':
        """A config with no options.

        :return: A new :class:`~pyflink_compat.table.TableConfig`.
        """
        return TableConfig()

    # -- the environment ------------------------------------------------------------------------
    def _bind(self, environment: 'StreamExecutionEnvironment') -> None:
        """Read missing options from ``environment`` and apply this config to it."""
        self._environment = environment
        self._apply_spark_options(strict=False)

    def _apply_to_environment(self) -> None:
        """Apply every option to the environment, before it starts or plans a job.

        Options go through the environment's ``configure()`` (it raises for a value it rejects,
        and then changes nothing), then the Spark session keys of :data:`TABLE_OPTIONS`.
        """
        if self._environment is None:
            return
        self._environment.configure(Configuration(other=self._configuration))
        self._apply_spark_options(strict=True)

    def _apply_spark_options(self, strict: bool) -> None:
        """Write the Spark session keys of this config's options.

        :param strict: Raise for an option Flink would reject; otherwise skip it (it fails when
            it is read, or when a job starts).
        """
        if self._environment is None:
            return
        conf = self._environment.spark_session.conf
        for key, text in self._configuration.to_dict().items():
            option = table_option(key)
            if option is None or option.spark_key is None:
                continue
            if key == _TIME_ZONE and text != "default":
                try:
                    _checked_zone(text, _TARGET + "getLocalTimeZone")
                except Exception:
                    if strict:
                        raise
                    continue
            value = text if option.to_spark is None else option.to_spark(text)
            if value is None:
                conf.unset(option.spark_key)
            else:
                conf.set(option.spark_key, value)


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
