"""Every deliberate difference from PyFlink 1.20.5, in one place.

Each entry names the parity observations it allows (glob patterns over
``<scenario>/<step>``), says why, and is listed in the documentation. Nothing else may differ.
"""

from __future__ import annotations

from typing import Tuple

import attrs

__all__ = ["Divergence", "DIVERGENCES", "RUNTIME_DIVERGENCES"]


@attrs.frozen
class Divergence:
    """One deliberate difference from PyFlink 1.20.5.

    :param id: A short stable name.
    :param summary: What differs, in one sentence.
    :param reason: Why pyflink_compat differs (PyFlink's behaviour is a bug or unsafe).
    :param steps: The parity observations it allows, as ``fnmatch`` patterns.
    """

    id: str
    summary: str
    reason: str
    steps: Tuple[str, ...] = ()


_CONFIGURE_KEYS_REJECTED = (
    # values configure() rejects (PyFlink raises too, but keeps the value)
    "interval.iso_PT2S", "interval.minus_1", "interval.abc", "interval.fraction",
    "interval.empty", "interval.9_ms", "interval.zero", "interval.overflow",
    "mode.dashes", "mode.bogus", "mode.ordinal", "timeout.5_ms", "timeout.abc", "min_pause.abc",
    "max_concurrent.0", "max_concurrent.abc", "max_concurrent.too_big", "tolerable.minus_1",
    "tolerable.abc", "retention.bogus", "unaligned.enabled_yes", "unaligned.enabled_1",
    "unaligned.forced_bogus", "alignment.abc",
    # values PyFlink only parses when they are read, so its configure() accepts them
    "dir.bad_sizes", "retained.abc", "retained.legacy_abc", "changelog.bogus",
)

DIVERGENCES: Tuple[Divergence, ...] = (
    Divergence(
        id="retention-setter-works",
        summary="CheckpointConfig.set_externalized_checkpoint_retention() stores the mode.",
        reason="In PyFlink 1.20.5 every call raises Py4JError because the wrapper looks the "
        "Java enum up under a class path that no longer exists; the method is documented "
        "and its getter works. Its argument is therefore checked like that of the other "
        "enum setters (None or a str fails on its missing 'name').",
        steps=(
            "set_externalized_checkpoint_retention/set.*",
            "set_externalized_checkpoint_retention/keyword",
            "deprecation_warnings/set_externalized_checkpoint_retention",
        ),
    ),
    Divergence(
        id="rejected-call-changes-nothing",
        summary="A call that raises leaves every setting as it was.",
        reason="PyFlink's enable_checkpointing(interval, mode) switches the mode before the "
        "interval is rejected, leaving a half-applied configuration.",
        steps=(
            "enable_checkpointing_partial/mode_after",
            "enable_checkpointing_partial/after.state",
            "enable_checkpointing_partial/after_without_mode.state",
        ),
    ),
    Divergence(
        id="configure-is-atomic",
        summary="configure() and get_execution_environment(conf) check every value of every "
        "option they read first, and store nothing when one cannot be parsed or is out of "
        "range; this includes options PyFlink only parses when they are read (for example "
        "state.changelog.enabled, execution.checkpointing.data-inline-threshold, "
        "execution.checkpointing.write-buffer-size, state.checkpoints.num-retained), where "
        "PyFlink's configure() does not raise. The same holds for a value set in the "
        "environment's own configuration (Configuration(j_configuration="
        "get_j_env_configuration(env._j_stream_execution_environment))): it is checked when "
        "it is set, where PyFlink stores any value there and raises when it is read.",
        reason="PyFlink stores the bad value anyway, so that every later getter of that option "
        "raises, or returns the out-of-range value, and a job would only fail once it reads "
        "the option; pyflink_compat reports the bad value where it is given and keeps the "
        "previous settings.",
        steps=tuple("configure_keys/{}.*".format(case) for case in _CONFIGURE_KEYS_REJECTED) + (
            "configure_poisoned/interval",
            "configure_poisoned/interval_again",
            "configure_poisoned/config_interval",
            "configure_poisoned/enabled",
            "configure_poisoned/mode_after",
            "configure_poisoned/mixed_after",
        ),
    ),
    Divergence(
        id="informative-str",
        summary="str() of FileSystemCheckpointStorage and of state backends describes the "
        "object instead of printing a Java identity hash or a Java class.",
        reason="PyFlink prints Object.toString() (non-deterministic), and for a HashMap "
        "backend read back from the environment the Java Class object (an upstream bug).",
        steps=(
            "filesystem_storage_defaults/str",
            "filesystem_storage_paths/*.str",
            "filesystem_storage_sizes/*.str",
            "storage_round_trip/get_fs.str",
            "storage_str/fs.str*",
            "hashmap_backend/str",
            "hashmap_backend/none_arg.str",
            "env_state_backend_round_trip/hashmap.get.str",
            "env_state_backend_round_trip/hashmap.str_equal",
        ),
    ),
    Divergence(
        id="table-time-zone-error-class",
        summary="A time zone TableConfig rejects raises a java.lang.IllegalArgumentException "
        "(a ValueError too) with Flink's message, where PyFlink raises "
        "org.apache.flink.table.api.ValidationException.",
        reason="Flink's ValidationException is not a class of the Spark JVM behind "
        "pyflink_compat; the message and the moment of the error are PyFlink's.",
        steps=(
            "table_config_timezone/set.UT",
            "table_config_timezone/set.UTC-5",
            "table_config_timezone/set.UTC+8",
            "table_config_timezone/by_key.*.get",
        ),
    ),
    Divergence(
        id="table-config-no-python-worker-address",
        summary="A table environment's TableConfig starts without the "
        "python.loopback-server.address option that PyFlink's sets.",
        reason="PyFlink starts a server for its Python UDF workers when it creates a table "
        "environment and records its address there; Python code of a pyflink_compat job runs "
        "in PySpark's workers, so there is no such server.",
        steps=("table_env_creation/config.keys.raw",),
    ),
    Divergence(
        id="table-pipeline-not-supported",
        summary="The Table API's pipeline methods (execute_sql, sql_query, from_path, "
        "from_data_stream, list_catalogs...) raise NotSupportedError naming the PySpark way.",
        reason="pyflink_compat reproduces how a Table API job is configured; its pipeline runs "
        "on Spark and is written with PySpark from the environment's Spark session, which has "
        "its own catalog.",
        steps=("table_pipeline_methods/*",),
    ),
    Divergence(
        id="environment-configuration-holds-what-was-set",
        summary="The environment's own configuration (Configuration(j_configuration="
        "get_j_env_configuration(env._j_stream_execution_environment))) starts empty, where "
        "PyFlink's already holds execution.attached, execution.target, parallelism.default and "
        "python.loopback-server.address.",
        reason="PyFlink's entries describe its own local Flink cluster and the server of its "
        "Python workers; a pyflink_compat job runs in the Spark session it was given, whose "
        "master and parallelism come from Spark, so the configuration holds only the options the "
        "job set.",
        steps=("env_own_configuration/keys",),
    ),
    Divergence(
        id="set-runtime-mode-returns-environment",
        summary="StreamExecutionEnvironment.set_runtime_mode() returns the environment itself.",
        reason="PyFlink returns the py4j JavaObject of its Java environment, an object a Python "
        "job can do nothing with but call Flink's Java API; there is no Flink Java environment "
        "here, and returning the environment keeps chained calls working as with the other "
        "setters.",
        steps=("env_runtime_mode/*.returns_env_type",),
    ),
)


#: Differences in what a running job computes or shows (Table API, SQL, DataStream), as opposed to
#: the API calls the parity battery observes: each is observed by a test of a running job or by
#: the SQL battery (``tests/table``, ``tests/sql``, ``tests/datastream``) and listed in the docs.
RUNTIME_DIVERGENCES: Tuple[Divergence, ...] = (
    Divergence(
        id="table-csv-source-read-when-registered",
        summary="A legacy CsvTableSource's files are read when register_table_source registers "
        "it, where Flink reads them when a job runs; a file changed in between gives the rows it "
        "held at registration.",
        reason="The legacy source is a bounded table of the files as they are; reading them once "
        "with Spark's CSV reader under Flink's CSV rules keeps their declared types and Flink's "
        "parsing, which a streaming file source would not.",
        steps=("table/csv-table-source",),
    ),
    Divergence(
        id="updates-per-micro-batch",
        summary="A grouped aggregate without window that is not made of group keys and COUNT, "
        "SUM, AVG, MIN and MAX calls (with a HAVING of such calls or without) over an "
        "append-only input (one with an expression over an aggregate, a Python aggregate "
        "function, an aggregate of an aggregate, SELECT DISTINCT; and every one on pyspark "
        "3.5, which has no transformWithState), emits, per "
        "micro-batch, one +I for each new key and one -U/+U pair for each changed key, where "
        "Flink emits them per input record; the final table is the same. Where the changes are "
        "per record, the keys of one micro-batch follow one another key by key instead of in "
        "arrival order. Where the changes are per micro-batch, a job restarted in a new process "
        "(from its checkpoint after a failure, or from a savepoint) writes the first change of a "
        "key it had written before as +I of the new row, without the -U of the old one.",
        reason="Spark's streaming aggregation updates its state once per micro-batch and gives "
        "only the last value of each key (as Flink's own mini-batch aggregation does); the "
        "per-record group aggregation computes the built-in aggregates of group keys only, and "
        "Spark hands a stateful operator the rows of a micro-batch key by key. Spark's "
        "aggregation gives no row kinds: its sinks derive them from the rows of each key they "
        "wrote in the process, which a new process has not seen (the per-record aggregation "
        "keeps each key's last row in its state and emits the kinds itself).",
        steps=("table/updating-changelog",),
    ),
    Divergence(
        id="kafka-group-offsets-start",
        summary="A Kafka table with scan.startup.mode 'group-offsets' (Flink's default) starts at "
        "properties.auto.offset.reset ('earliest' when not given) instead of the group's "
        "committed offsets; later starts resume from the query's checkpoint.",
        reason="Spark's Kafka source neither reads nor commits consumer group offsets: it keeps "
        "its positions in its checkpoint. Starting where Flink starts for a group without "
        "committed offsets is the closest start; a warning says so at planning time.",
        steps=("table/kafka-group-offsets",),
    ),
    Divergence(
        id="table-file-sink-spark-metadata",
        summary="A filesystem table written by a job holds Spark's part files (part-<n>-<uuid>.csv) "
        "and a _spark_metadata directory, where Flink writes part-<uuid>-<subtask>-<n> files; "
        "the lines written are the same.",
        reason="Spark's file sink commits each micro-batch's files through its metadata log, "
        "which is what makes the sink exactly-once; readers skip names starting with '_'.",
        steps=("table/filesystem-part-files",),
    ),
    Divergence(
        id="sql-integer-overflow-fails",
        summary="INT and BIGINT arithmetic that overflows fails the query on Spark 4 (ANSI mode), "
        "where Flink wraps around as Java does (2147483647 + 1 is -2147483648); Spark 3.5 wraps "
        "as Flink does. TINYINT and SMALLINT arithmetic and narrowing integer casts wrap on both.",
        reason="Emulating the wrap-around on every INT and BIGINT operation would make each one "
        "a wider computation and a modulo; an overflow is a bug in the job either way.",
        steps=("sql-battery/arithmetic:2147483647 + 1",),
    ),
    Divergence(
        id="sql-decimal-remainder-computes",
        summary="The % operator with a DECIMAL operand computes MOD; Flink 1.20.5's planner "
        "fails on it with an internal error (\"Conversion to relational algebra failed to "
        "preserve datatypes\") while MOD() with the same operands works.",
        reason="Flink's failure is a planner bug, and the parsed query holds the same remainder "
        "for % and MOD().",
        steps=("sql-battery/arithmetic:7.0 % 2", "sql-battery/arithmetic:CAST(10 AS DECIMAL(10, 2)) % 3"),
    ),
    Divergence(
        id="sql-pyflink-collect-conversions",
        summary="Collected values are the SQL values: a TIMESTAMP keeps its microseconds, a "
        "TIMESTAMP_LTZ and an array with a NULL element are given, and a missing array element "
        "or map key is None. PyFlink 1.20.5's collect() cuts timestamps to milliseconds and "
        "fails to convert TIMESTAMP_LTZ values and arrays holding NULL; and Flink types an "
        "element of a literal array (a value of a literal map) NOT NULL, so a missing one is "
        "collected as -1 while IS NULL on it is false and its CAST to STRING is NULL.",
        reason="These are faults of PyFlink's conversion of collected rows to Python and of "
        "Flink's typing of literal collections, not values a job means to compute.",
        steps=(
            "sql-battery/temporal:TIMESTAMP '2024-01-01 10:00:00.123456'",
            "sql-battery/temporal:TO_TIMESTAMP_LTZ(0, 3)",
            "sql-battery/temporal:TO_TIMESTAMP_LTZ(1704442150, 0)",
            "sql-battery/collection:ARRAY[1, CAST(NULL AS INT)]",
            "sql-battery/collection:ARRAY[1, 2, 3][4]",
            "sql-battery/collection:MAP['a', 1]['z']",
        ),
    ),
    Divergence(
        id="sql-floating-point-sums",
        summary="SUM and AVG of a FLOAT column are computed in 64-bit precision and rounded to "
        "FLOAT once, where Flink adds the values in 32-bit precision one at a time (ten rows of "
        "0.1: Flink 1.0000001, here 1.0); a DOUBLE sum may differ in its last digit (502.57 where "
        "Flink gives 502.57000000000005), as Spark adds the partial sums of its partitions.",
        reason="Spark's SUM adds in double over partial aggregates; rounding to FLOAT after every "
        "value in arrival order would need a group's values in arrival order in the state.",
        steps=("table/float-sum",),
    ),
    Divergence(
        id="sql-spark-text-functions",
        summary="Two built-in functions follow Spark's rules: DATE_FORMAT "
        "refuses week-based pattern letters (w, W, u, e, c; the query fails), and JSON_ARRAY of "
        "values of different types fails on Spark 4 and gives every element as text on Spark 3.5 (a "
        "Spark array holds one element type).",
        reason="Spark has no function with Flink's behaviour for these, and computing them "
        "row by row in Python would be far slower than the rest of the query.",
        steps=(
            "sql-battery/temporal:DATE_FORMAT(TIMESTAMP '2024-01-05 08:09:10', 'D w')",
            "sql-battery/json:JSON_ARRAY(1, 'a')",
        ),
    ),
    Divergence(
        id="sql-parser-reads-spark-forms",
        summary="The Flink SQL parser reads some forms as Spark SQL: CAST to CHAR(n) and "
        "VARCHAR(n) gives STRING (no padding or cutting), LENGTH() is accepted as CHAR_LENGTH(), "
        "and ROW(...) values and JSON_VALUE's RETURNING and ON EMPTY clauses are not read.",
        reason="Not deliberate: these wait for the Flink dialect to read them as Flink does; "
        "the translation handles each once the parser keeps it apart.",
        steps=(
            "sql-battery/cast:CAST('abc' AS CHAR(5))",
            "sql-battery/cast:CAST('abcdef' AS CHAR(3))",
            "sql-battery/cast:CAST('abcdef' AS VARCHAR(3))",
            "sql-battery/string:LENGTH('abc')",
            "sql-battery/collection:ROW(1, 'a')",
            "sql-battery/json:JSON_VALUE('{\"a\": 1.5}', '$.a' RETURNING DOUBLE)",
            "sql-battery/json:JSON_VALUE('{\"a\": 1}', '$.a' RETURNING INT)",
            "sql-battery/json:JSON_VALUE('{\"a\": 1}', '$.b' DEFAULT 'd' ON EMPTY)",
        ),
    ),
    Divergence(
        id="datastream-processing-time-timers-fire-with-their-key",
        summary="A processing-time timer of a KeyedProcessFunction fires when its key is next "
        "handled (a record or an event-time timer of that key) at or after the timer's time, "
        "not when the clock reaches it.",
        reason="Spark's transformWithState runs a query in one time mode; DataStream jobs run in "
        "event time, so that event-time timers and Flink's final watermark work, and Spark has no "
        "processing-time timers in that mode. Processing-time timers are kept in the key's state "
        "and checked whenever the key is handled.",
    ),
    Divergence(
        id="datastream-processing-time-windows-fire-with-their-key",
        summary="A processing-time window (TumblingProcessingTimeWindows, "
        "SlidingProcessingTimeWindows, ProcessingTimeSessionWindows) fires when its key is next "
        "handled after the window's end, at a micro-batch, not when the clock reaches its end "
        "(and a ContinuousProcessingTimeTrigger fires when the key is next handled after each "
        "interval); "
        "windows still open when a bounded input ends never fire, as in Flink.",
        reason="The window fires at a processing-time timer, and processing-time timers fire "
        "with their key (datastream-processing-time-timers-fire-with-their-key).",
    ),
    Divergence(
        id="datastream-broadcast-records-first-in-a-micro-batch",
        summary="A stream connected with a broadcast stream: within a micro-batch every broadcast "
        "record is handled (process_broadcast_element) before the other input's records "
        "(process_element), so those see the broadcast state of the whole micro-batch, where "
        "Flink interleaves the two inputs as their records arrive.",
        reason="The broadcast state of a state partition is the state of a reserved key of that "
        "partition, and Spark's transformWithState hands a partition's keys to the processor in "
        "key order, the reserved keys first.",
    ),
    Divergence(
        id="datastream-keyed-state-in-rocksdb",
        summary="A job with a keyed function (reduce, sum..., KeyedProcessFunction) keeps its "
        "state in Spark's RocksDB state store even under the hashmap state backend.",
        reason="Spark's transformWithState, which runs Flink's keyed functions with their state "
        "and timers, refuses any other state store.",
    ),
    Divergence(
        id="datastream-print-without-subtask-prefix",
        summary="print() writes each record's line without the 'N> ' subtask prefix PyFlink adds "
        "at parallelism above 1.",
        reason="The lines are written on the driver, in arrival order, for every micro-batch; "
        "there are no subtasks whose number could prefix them.",
    ),
    Divergence(
        id="datastream-open-per-micro-batch",
        summary="A DataStream function's open() and close() run for each micro-batch of each "
        "partition, not once per parallel instance for the job's life.",
        reason="Spark runs Python functions in its workers batch by batch; a function object is "
        "unpickled afresh for each task, so state kept in attributes between records of "
        "different micro-batches is lost (keyed state is the way to keep it, as in Flink).",
    ),
    Divergence(
        id="datastream-file-sink-rolls-per-micro-batch",
        summary="A DataStream FileSink finishes its part files at the end of every micro-batch "
        "(and at the rolling policy's part size), where Flink's default rolling policy keeps a "
        "part file open until its rollover or inactivity interval or a checkpoint; the lines "
        "written are the same, in more files. If the driver dies while a micro-batch's files "
        "are written, the restored job writes that micro-batch again under new file names.",
        reason="The sink writes each micro-batch's records when Spark commits the micro-batch; "
        "keeping a file open across micro-batches would make records visible before their "
        "micro-batch is committed, or lose them when it is not. The files of one run are named "
        "by the run, so that a second run never overwrites the first one's files.",
        steps=("datastream/file-sink-part-files",),
    ),
    Divergence(
        id="datastream-kafka-group-offsets-start",
        summary="A KafkaSource started from committed_offsets(...), or a FlinkKafkaConsumer left "
        "at its default group offsets, starts at the offset reset strategy ('latest' for "
        "FlinkKafkaConsumer without auto.offset.reset, 'earliest' when the strategy is NONE) "
        "instead of the group's committed offsets.",
        reason="Spark's Kafka source neither reads nor commits consumer group offsets; it keeps "
        "its positions in the query's checkpoint (the mapping of Kafka tables, which warns).",
        steps=("datastream/kafka-group-offsets",),
    ),
    Divergence(
        id="window-lateness-per-micro-batch",
        summary="A row behind the watermark of rows read before it in the same micro-batch is "
        "still counted in its window (a group window, or an over window's frame and output), "
        "where Flink may drop it as late: Flink advances its "
        "watermark while it reads (every 200 ms by default), Spark once per micro-batch.",
        reason="Spark computes the watermark from a whole micro-batch and applies it to the next "
        "one; a bounded input read in one micro-batch has no late rows. The rows Flink drops "
        "as late depend on its timing too.",
        steps=("table/window-lateness",),
    ),
    Divergence(
        id="table-bounded-query-final-rows",
        summary="A sort with a fetch (Top-N), an outer join, a join without an equality, an "
        "aggregate of an aggregate or an EXCEPT / INTERSECT (ALL) of bounded tables emits its "
        "final rows once (+I), where Flink's streaming planner emits rows as its input arrives "
        "and deletes or updates those that a later row replaces (-D, -U/+U); the final table "
        "is the same.",
        reason="Spark's streaming queries have no sort, no EXCEPT or INTERSECT and no outer "
        "join without watermarks and time bounds: such a query over bounded tables runs as a "
        "batch query over the whole "
        "input, which has no intermediate rows. Flink's intermediate rows depend on the order "
        "in which its sources' rows arrive.",
        steps=("table/bounded-query-final-rows",),
    ),
    Divergence(
        id="table-explain-spark-plan",
        summary="Table.explain() and TableEnvironment.explain_sql() give Spark's logical plans "
        "of the query, where PyFlink gives Flink's plans (abstract syntax tree, optimized "
        "physical and execution plans); the details asked for (ExplainDetail) change nothing.",
        reason="The query runs as a Spark query: Flink's optimizer never sees it, and the plan "
        "that runs is Spark's.",
        steps=("table/explain-plan",),
    ),
    Divergence(
        id="datastream-tagged-values-always-side-outputs",
        summary="A value a process function yields as (OutputTag, value) always goes to that side "
        "output, and is dropped when nothing reads it; PyFlink passes the (tag, value) tuple on as "
        "an ordinary record when no side output of that operator is read.",
        reason="Whether PyFlink's operator has side outputs is fixed when the job graph is built, "
        "after the operator's stream may already have been planned here; an OutputTag object in "
        "the main stream (printed with its memory address) is never what a job means.",
    ),
    Divergence(
        id="datastream-connected-inputs-first-input-first",
        summary="A connected stream's function (CoMapFunction, CoFlatMapFunction, "
        "CoProcessFunction, KeyedCoProcessFunction) handles, for each key and micro-batch, the "
        "records of the first input before those of the second, each input in its own order; "
        "Flink interleaves the two inputs as their records arrive, so that a record of the "
        "second input may come first.",
        reason="Flink's order between two inputs depends on when each input's network buffers "
        "reach the operator: runs of the same PyFlink 1.20.5 job over two from_collection "
        "sources, at parallelism 1 and 2, keyed or not, give the first input first, the second "
        "first, or the two alternating. Only the order within each input is Flink's in every "
        "run, and that order is kept; between inputs one fixed order is taken, so that a job "
        "gives the same records on every run.",
    ),
    Divergence(
        id="table-schema-expression-as-written",
        summary="A declared table's schema (str() of get_schema()) shows a computed column's or "
        "watermark's expression with its names back-quoted, its keywords in upper case and "
        "Flink's spacing, but in the form it was written where Flink's SQL parser rewrites it: "
        "TRIM(b) (Flink: TRIM(BOTH ' ' FROM `b`)), a simple CASE (Flink: the searched CASE, "
        "ELSE NULL), NOT (a > 1) (Flink drops the parentheses).",
        reason="The text is read from the statement's tokens, not from an unparsed Calcite tree; "
        "the column's values and type are Flink's.",
        steps=("table/schema-expression-text",),
    ),
    Divergence(
        id="changelog-collection-net-rows",
        summary="A query over a table read with from_changelog_stream from a collection that "
        "joins, sorts, calls Python functions or aggregates other than by COUNT, SUM, AVG, MIN "
        "and MAX calls (or a projection or filter of it inserted into a sink other than print) "
        "reads the rows its changes leave (each +I): it gives the changes of those rows in one "
        "micro-batch, where Flink gives one change per record (+I, -U, +U, -D); the final table "
        "is the same. Printing the table, collecting it, its changelog or retract stream, a "
        "projection or filter of it, or an aggregation of it by such calls, with group keys or "
        "without, with HAVING or without (whose -U and -D rows retract, an emptied group giving "
        "-D) gives each change with its kind, as Flink does. An aggregation of an aggregation of "
        "it is refused.",
        reason="Spark's streaming tables are insert-only: a row cannot be retracted from an "
        "aggregation's input, so the changelog is applied on the driver before such a query "
        "reads it.",
        steps=("table/changelog-collection",),
    ),
    Divergence(
        id="csv-empty-field-with-null-literal",
        summary="A csv table with a 'csv.null-literal' other than '' reads an empty field as NULL, "
        "where Flink reads it as '' in a STRING column, false in a BOOLEAN one, and fails the job "
        "(or gives NULL with 'csv.ignore-parse-errors') in a number, date or timestamp column.",
        reason="Spark's csv reader gives the null literal and an empty field the same NULL, so the "
        "two cannot be told apart once read; without a null literal (or with '') every empty "
        "field is read as Flink reads it.",
        steps=("table/csv-empty-field-with-null-literal",),
    ),
    Divergence(
        id="csv-malformed-row-text",
        summary="A csv row of fewer or more fields than the table's, or a number field that is "
        "no number, fails the job (without 'csv.ignore-parse-errors') with Spark's malformed-record "
        "text, where Flink's reads 'Row length mismatch. 3 fields expected but was 2.', 'Too many "
        "entries: expected at most 3 ...' or 'Fail to deserialize at field: b.'.",
        reason="Spark's csv reader fails such a row itself, and only parses the columns the query "
        "reads, as Flink's does; giving Flink's text would take reading every row in Spark's "
        "lenient mode with its raw line, which parses every column of every row.",
        steps=("table/csv-malformed-row-text",),
    ),
    Divergence(
        id="sql-validation-place-and-text",
        summary="A statement set refuses an insert whose query column Flink does not cast to its "
        "sink column at add_insert_sql, where Flink refuses it at execute; a column missing from a "
        "subquery (or a query of more than one table) is refused with Spark's text, not Flink's; the "
        "'Query schema' of a refused insert shows a column declared NOT NULL without NOT NULL.",
        reason="The insert is planned, its sink types checked, when it is added; the column check "
        "follows plain queries of one declared table and leaves the others to Spark's analysis, "
        "which refuses them before anything runs too; the query's types come from its translation, "
        "which does not carry a declared NOT NULL through a projection.",
        steps=("table/validation-refused-at-add", "table/validation-refused-otherwise",
               "table/validation-query-schema-nullability"),
    ),
    Divergence(
        id="stop-interrupts-running-batch",
        summary="A stop-with-savepoint that comes while a micro-batch runs interrupts it: the "
        "savepoint holds the batch before it, and the job restored from it handles the "
        "interrupted batch's records again, so a side effect or sink write the interrupted "
        "batch had made happens twice (a sink that replaces a batch by its id, writing to the "
        "same place, ends with each record once). Flink drains the records in flight before "
        "the savepoint and handles each once.",
        reason="Spark stops a streaming query by cancelling its running batch; a batch is in a "
        "checkpoint only once it is committed, and a savepoint must hold a committed batch, so "
        "waiting for the batch instead could hold the stop for as long as the batch runs.",
        steps=("savepoints/stop-interrupts-running-batch",),
    ),
    Divergence(
        id="jdbc-read-when-planned",
        summary="A jdbc table is read once, when the query that reads it is planned: a lookup "
        "join (JOIN ... FOR SYSTEM_TIME AS OF) joins the rows the table held then, where Flink "
        "looks each key up in the database as each record comes; a scan sees the rows of the "
        "planning time, where Flink's bounded scan reads them when the job runs.",
        reason="Spark has no lookup source: its JDBC reader is a batch read, which is streamed "
        "here as a bounded table, and a stream-static join against it is the lookup join Spark "
        "runs.",
        steps=("table/jdbc-read-when-planned",),
    ),
    Divergence(
        id="upsert-kafka-changes-key-by-key",
        summary="The changes of an upsert-kafka table that one micro-batch reads come key by key: "
        "each key's changes in its records' order, but a key's changes all before or all after "
        "another's, where Flink (at parallelism 1) gives them in the topic's order; an "
        "aggregation of several keys' changes then passes through other intermediate results "
        "(its final row, and each key's changes, are Flink's).",
        reason="Spark keeps a key's row in transformWithState, which hands each key's records of "
        "a micro-batch to it together; Flink's changelog normalization is keyed too, so at a "
        "parallelism above 1 its order between keys is not the topic's either.",
        steps=("table/upsert-kafka-changes-key-by-key",),
    ),
)
