"""The settings a table environment is created with."""
import warnings

from pyflink_compat.common.configuration import Configuration
from pyflink_compat.util.exceptions import illegal_argument, null_pointer
from pyflink_compat.util.java_args import java_attribute, java_string

__all__ = ['EnvironmentSettings']

_RUNTIME_MODE = "execution.runtime-mode"
_CATALOG = "table.builtin-catalog-name"
_DATABASE = "table.builtin-database-name"
_BUILDER = "EnvironmentSettings$Builder."


class EnvironmentSettings(object):
    """What a :class:`~pyflink_compat.table.TableEnvironment` is created with: streaming or
    batch mode, the names of the initial catalog and database, and initial options.

    Build one with :meth:`new_instance`, or use the :meth:`in_streaming_mode` and
    :meth:`in_batch_mode` shortcuts::

        >>> settings = EnvironmentSettings.new_instance() \\
        ...     .in_streaming_mode() \\
        ...     .with_built_in_catalog_name("my_catalog") \\
        ...     .build()

    Every setting is an option of :meth:`get_configuration` (``execution.runtime-mode``,
    ``table.builtin-catalog-name``, ``table.builtin-database-name``), which the table
    environment's :class:`~pyflink_compat.table.TableConfig` starts from.

    :param j_environment_settings: The options of these settings, as a
        :class:`~pyflink_compat.common.Configuration` (in PyFlink, the JVM object).
    """

    class Builder(object):
        """Builds :class:`EnvironmentSettings`; each method returns the builder.

        As in PyFlink, the settings a builder built share its options: calling the builder
        again changes settings it built before.
        """

        def __init__(self):
            self._configuration = Configuration()

        def with_configuration(self, config: Configuration) -> 'EnvironmentSettings.Builder':
            """Add the options of ``config`` (copied: later changes to it are not seen).

            :param config: A :class:`~pyflink_compat.common.Configuration`.
            :return: This builder.
            """
            self._configuration.add_all(Configuration(j_configuration=java_attribute(
                config, "_j_configuration")))
            return self

        def in_batch_mode(self) -> 'EnvironmentSettings.Builder':
            """Work in batch mode (``execution.runtime-mode`` is ``BATCH``).

            :return: This builder.
            """
            self._configuration.set_string(_RUNTIME_MODE, "BATCH")
            return self

        def in_streaming_mode(self) -> 'EnvironmentSettings.Builder':
            """Work in streaming mode, the default (``execution.runtime-mode`` is
            ``STREAMING``).

            :return: This builder.
            """
            self._configuration.set_string(_RUNTIME_MODE, "STREAMING")
            return self

        def with_built_in_catalog_name(self, built_in_catalog_name: str) \
                -> 'EnvironmentSettings.Builder':
            """Name the initial catalog (``default_catalog`` unless set). Stored only: Spark's
            catalog is ``spark_catalog``.

            :param built_in_catalog_name: The name.
            :return: This builder.
            """
            return self._set_name(_CATALOG, built_in_catalog_name, "withBuiltInCatalogName")

        def with_built_in_database_name(self, built_in_database_name: str) \
                -> 'EnvironmentSettings.Builder':
            """Name the initial database of the initial catalog (``default_database`` unless
            set). Stored only: Spark's database is ``default``.

            :param built_in_database_name: The name.
            :return: This builder.
            """
            return self._set_name(_DATABASE, built_in_database_name, "withBuiltInDatabaseName")

        def _set_name(self, key: str, name: str, java_method: str) -> 'EnvironmentSettings.Builder':
            target = _BUILDER + java_method
            if name is None:
                raise null_pointer("Value must not be null.", target)
            self._configuration.set_string(key, java_string(name, java_method, target))
            return self

        def build(self) -> 'EnvironmentSettings':
            """The settings, over this builder's options.

            :return: New :class:`EnvironmentSettings`.
            """
            return EnvironmentSettings(self._configuration)

    def __init__(self, j_environment_settings):
        self._j_environment_settings = j_environment_settings

    @property
    def _configuration(self) -> Configuration:
        configuration: Configuration = self._j_environment_settings
        return configuration

    def get_built_in_catalog_name(self) -> str:
        """The name of the initial catalog.

        :return: ``default_catalog`` unless set.
        """
        return self._configuration.get_string(_CATALOG, "default_catalog")

    def get_built_in_database_name(self) -> str:
        """The name of the initial database.

        :return: ``default_database`` unless set.
        """
        return self._configuration.get_string(_DATABASE, "default_database")

    def is_streaming_mode(self) -> bool:
        """Whether the table environment works in streaming mode.

        :return: ``True`` unless ``execution.runtime-mode`` is ``BATCH`` or ``AUTOMATIC``.
        """
        text = self._configuration.get_string(_RUNTIME_MODE, "STREAMING")
        mode = text.strip().upper()
        if mode not in ("STREAMING", "BATCH", "AUTOMATIC"):
            raise illegal_argument("Could not parse value '{}' for key '{}'.".format(
                text, _RUNTIME_MODE), "EnvironmentSettings.isStreamingMode")
        return mode == "STREAMING"

    def to_configuration(self) -> Configuration:
        """The options of these settings.

        .. note:: Deprecated since 1.15 (it warns): use :meth:`get_configuration`.

        :return: A :class:`~pyflink_compat.common.Configuration` over them.
        """
        warnings.warn("Deprecated in 1.15.", DeprecationWarning, stacklevel=2)
        return self.get_configuration()

    def get_configuration(self) -> Configuration:
        """The options of these settings; changing them changes the settings.

        :return: A :class:`~pyflink_compat.common.Configuration` over them.
        """
        return Configuration(j_configuration=self._configuration._j_configuration)

    @staticmethod
    def new_instance() -> 'EnvironmentSettings.Builder':
        """A builder of settings.

        :return: A new :class:`EnvironmentSettings.Builder`.
        """
        return EnvironmentSettings.Builder()

    @staticmethod
    def from_configuration(config: Configuration) -> 'EnvironmentSettings':
        """Settings with a copy of the options of ``config``.

        .. note:: Deprecated since 1.15 (it warns): use
                  :meth:`EnvironmentSettings.Builder.with_configuration`.

        :param config: A :class:`~pyflink_compat.common.Configuration`.
        :return: New :class:`EnvironmentSettings`.
        """
        warnings.warn("Deprecated in 1.15.", DeprecationWarning, stacklevel=2)
        return EnvironmentSettings.new_instance().with_configuration(config).build()

    @staticmethod
    def in_streaming_mode() -> 'EnvironmentSettings':
        """Default settings in streaming mode.

        :return: New :class:`EnvironmentSettings`.
        """
        return EnvironmentSettings.new_instance().in_streaming_mode().build()

    @staticmethod
    def in_batch_mode() -> 'EnvironmentSettings':
        """Default settings in batch mode.

        :return: New :class:`EnvironmentSettings`.
        """
        return EnvironmentSettings.new_instance().in_batch_mode().build()


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
