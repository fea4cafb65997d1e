"""PyFlink's ``pyflink.datastream.data_stream``: the streams of a DataStream job.

Each operator call adds a node to the job's graph (:mod:`pyflink_compat.runtime.graph`);
a sink (``print``, ``execute_and_collect``) builds the Spark plan of its stream
(:mod:`pyflink_compat.runtime.plan`) and registers it with the environment, whose
``execute`` runs it under the checkpoint configuration. Operators that do not run on Spark
raise :class:`~pyflink_compat.missing.NotSupportedError` when called.
"""
from typing import Any, Callable, Iterator, Union

from pyflink_compat.common.typeinfo import PickledBytesTypeInfo, TupleTypeInfo, TypeInformation
from pyflink_compat.datastream.functions import (
    FilterFunction, FlatMapFunction, KeyedProcessFunction, KeySelector, MapFunction,
    ProcessFunction, ReduceFunction, ReduceFunctionWrapper)
from pyflink_compat.missing import not_supported
from pyflink_compat.missing.declared import Declared
from pyflink_compat.runtime.graph import CHAIN, KEY_BY, KEYED, UNION, Node

__all__ = ['CloseableIterator', 'DataStream', 'KeyedStream', 'ConnectedStreams', 'WindowedStream',
    'DataStreamSink', 'CloseableIterator', 'BroadcastStream', 'BroadcastConnectedStream']


def _checked(func: Any, kind: type, label: str) -> Any:
    if isinstance(func, kind):
        return func
    if callable(func):
        return func
    raise TypeError("The input must be a %s or a callable function" % label)


class DataStream(object):
    """A stream of records and the operators that transform it.

    :param j_data_stream: The node of the job's graph this stream reads.
    """

    def __init__(self, j_data_stream: Node):
        self._j_data_stream = j_data_stream

    # -- naming and settings (recorded; Spark plans the query itself) ----------------------
    def get_name(self) -> str:
        return self._j_data_stream.name

    def name(self, name: str) -> 'DataStream':
        self._j_data_stream.name = name
        return self

    def uid(self, uid: str) -> 'DataStream':
        self._j_data_stream.uid = uid
        return self

    def set_uid_hash(self, uid_hash: str) -> 'DataStream':
        self._j_data_stream.uid = uid_hash
        return self

    def set_parallelism(self, parallelism: int) -> 'DataStream':
        self._j_data_stream.parallelism = parallelism
        return self

    def set_max_parallelism(self, max_parallelism: int) -> 'DataStream':
        return self

    def get_type(self) -> TypeInformation:
        return self._j_data_stream.output_type or PickledBytesTypeInfo()

    def get_execution_environment(self) -> Any:
        return self._j_data_stream.env

    def get_execution_config(self) -> Any:
        return self._j_data_stream.env.get_config()

    def force_non_parallel(self) -> 'DataStream':
        self._j_data_stream.parallelism = 1
        return self

    def set_buffer_timeout(self, timeout_millis: int) -> 'DataStream':
        return self

    def start_new_chain(self) -> 'DataStream':
        return self

    def disable_chaining(self) -> 'DataStream':
        return self

    def slot_sharing_group(self, slot_sharing_group: Any) -> 'DataStream':
        return self

    def set_description(self, description: str) -> 'DataStream':
        return self

    # -- operators ------------------------------------------------------------------------
    def _then(self, kind: str, op: Any, output_type: Any = None) -> Node:
        return Node(self._j_data_stream.env, kind, (self._j_data_stream,), op, output_type)

    def map(self, func: Union[Callable, MapFunction], output_type: TypeInformation = None) \
            -> 'DataStream':
        """One output per record; without ``output_type`` outputs travel pickled."""
        func = _checked(func, MapFunction, "MapFunction")
        return DataStream(self._then(CHAIN, ("map", func), output_type))

    def flat_map(self, func: Union[Callable, FlatMapFunction],
                 output_type: TypeInformation = None) -> 'DataStream':
        """Any number of outputs per record."""
        func = _checked(func, FlatMapFunction, "FlatMapFunction")
        return DataStream(self._then(CHAIN, ("flat_map", func), output_type))

    def key_by(self, key_selector: Union[Callable, KeySelector],
               key_type: TypeInformation = None) -> 'KeyedStream':
        """Partition the records by the key ``key_selector`` gives them."""
        key_selector = _checked(key_selector, KeySelector, "KeySelector")
        node = self._then(KEY_BY, key_selector, self._j_data_stream.output_type)
        return KeyedStream(node, self._j_data_stream.output_type, self)

    def filter(self, func: Union[Callable, FilterFunction]) -> 'DataStream':
        """The records ``func`` answers true for."""
        func = _checked(func, FilterFunction, "FilterFunction")
        return DataStream(self._then(CHAIN, ("filter", func), self._j_data_stream.output_type))

    def window_all(self, window_assigner: Any) -> 'AllWindowedStream':
        raise not_supported("DataStream.window_all")

    def union(self, *streams: 'DataStream') -> 'DataStream':
        """The records of this stream and of ``streams``."""
        nodes = (self._values_node(),) + tuple(s._values_node() for s in streams)
        return DataStream(Node(self._j_data_stream.env, UNION, nodes, None,
                               self._j_data_stream.output_type))

    def _values_node(self) -> Node:
        return self._j_data_stream

    def connect(self, ds: Any) -> Any:
        """This stream and ``ds`` as two inputs of one co-function, or, for a
        :class:`BroadcastStream`, of a broadcast process function."""
        if isinstance(ds, BroadcastStream):
            return BroadcastConnectedStream(self, ds, ds.broadcast_state_descriptors)
        if not isinstance(ds, DataStream):
            raise not_supported("DataStream.connect")
        return ConnectedStreams(self, ds)

    def shuffle(self) -> 'DataStream':
        """The same records (Spark partitions them itself)."""
        return DataStream(self._j_data_stream)

    def project(self, *field_indexes: int) -> 'DataStream':
        """Tuples of the given fields of each tuple record."""
        if not isinstance(self.get_type(), TupleTypeInfo):
            raise Exception('Only Tuple DataStreams can be projected.')
        kinds = self.get_type().get_field_types()  # type: ignore[attr-defined]
        output = TupleTypeInfo([kinds[i] for i in field_indexes])
        return DataStream(self._then(CHAIN, ("project", tuple(field_indexes)), output))

    def rescale(self) -> 'DataStream':
        return DataStream(self._j_data_stream)

    def rebalance(self) -> 'DataStream':
        return DataStream(self._j_data_stream)

    def forward(self) -> 'DataStream':
        return DataStream(self._j_data_stream)

    def broadcast(self, broadcast_state_descriptor: Any = None, *other_state_descriptors: Any) -> Any:
        """With map state descriptors: a :class:`BroadcastStream` whose records reach every
        parallel instance of the function it is connected to, with broadcast states of those
        descriptors. Without, the records sent to every instance of the next operator (not
        supported: Spark partitions a stream's records, it does not copy them)."""
        from pyflink_compat.datastream.state import MapStateDescriptor

        if broadcast_state_descriptor is None:
            raise not_supported("DataStream.broadcast")
        descriptors = [broadcast_state_descriptor] + list(other_state_descriptors)
        for descriptor in descriptors:
            if not isinstance(descriptor, MapStateDescriptor):
                raise TypeError("broadcast_state_descriptor must be MapStateDescriptor")
        return BroadcastStream(self, descriptors)

    def process(self, func: ProcessFunction, output_type: TypeInformation = None) -> 'DataStream':
        """Any number of outputs per record, with the record's timestamp in the context."""
        if not isinstance(func, ProcessFunction):
            raise TypeError("The input must be a ProcessFunction!")
        return DataStream(self._then(CHAIN, ("process", func), output_type))

    def assign_timestamps_and_watermarks(self, watermark_strategy: Any) -> 'DataStream':
        """Give records their event-time timestamps and the stream its watermark."""
        return DataStream(self._then(CHAIN, ("timestamps", watermark_strategy),
                                     self._j_data_stream.output_type))

    def partition_custom(self, partitioner: Any, key_selector: Any) -> 'DataStream':
        raise not_supported("DataStream.partition_custom")

    def add_sink(self, sink_func: Any) -> 'DataStreamSink':
        """Write the records with a legacy sink function (``FlinkKafkaProducer``)."""
        return self._connector_sink(sink_func, "DataStream.add_sink")

    def sink_to(self, sink: Any) -> 'DataStreamSink':
        """Write the records with a sink (``FileSink``, ``KafkaSink``) when the job runs."""
        return self._connector_sink(sink, "DataStream.sink_to")

    def _connector_sink(self, sink: Any, api: str) -> 'DataStreamSink':
        from pyflink_compat.runtime.connector_io import sink_batch
        from pyflink_compat.runtime.plan import needs_keyed_state

        batch = sink_batch(sink, self._j_data_stream.output_type, api)
        env = self._j_data_stream.env
        env._add_datastream_sink(self._frame(), self._sink_function(batch), needs_keyed_state(self._j_data_stream))
        return DataStreamSink(batch)

    def get_side_output(self, output_tag: Any) -> 'DataStream':
        """The values this stream's process function yielded as ``(output_tag, value)``."""
        from pyflink_compat.runtime.graph import SIDE

        return DataStream(Node(self._j_data_stream.env, SIDE, (self._j_data_stream,), output_tag,
                               output_tag.type_info))

    def cache(self) -> 'CachedDataStream':
        raise not_supported("DataStream.cache")

    # -- sinks ----------------------------------------------------------------------------
    def _sink_function(self, function: Any) -> Any:
        """What a sink of this stream calls per micro-batch (a table's changelog wraps it)."""
        return function

    def _frame(self) -> Any:
        from pyflink_compat.runtime.plan import frame_of

        return frame_of(self._j_data_stream, self._j_data_stream.env.spark_session, sink=True)

    def execute_and_collect(self, job_execution_name: str = None, limit: int = None) \
            -> Union['CloseableIterator', list]:
        """Run a job of this stream alone and return its records (the first ``limit`` as a
        list when ``limit`` is given)."""
        from pyflink_compat.runtime.plan import needs_keyed_state
        from pyflink_compat.runtime.sinks import CollectBatch

        env = self._j_data_stream.env
        collector = CollectBatch(self._j_data_stream.output_type)
        pending, outputs = list(env._sinks), list(env._datastream_outputs)
        env._sinks.clear()
        env._datastream_outputs.clear()
        try:
            env._add_datastream_sink(self._frame(), self._sink_function(collector),
                                     needs_keyed_state(self._j_data_stream))
            env.execute(job_execution_name if job_execution_name is not None
                        else 'Flink Streaming Job')
        finally:
            env._sinks[:] = pending
            env._datastream_outputs[:] = outputs
        if limit is not None:
            return collector.values[:limit]
        return CloseableIterator(iter(collector.values), self._j_data_stream.output_type)

    def print(self, sink_identifier: str = None) -> 'DataStreamSink':
        """Write each record's text to standard output when the job runs."""
        from pyflink_compat.runtime.plan import needs_keyed_state
        from pyflink_compat.runtime.sinks import PrintBatch

        env = self._j_data_stream.env
        printer = PrintBatch(self._j_data_stream.output_type, sink_identifier)
        env._add_datastream_sink(self._frame(), self._sink_function(printer), needs_keyed_state(self._j_data_stream))
        return DataStreamSink(printer)


class DataStreamSink(object):
    """The end of a stream: a sink registered with the job.

    :param j_data_stream_sink: The sink's Spark writer.
    """

    def __init__(self, j_data_stream_sink: Any):
        self._j_data_stream_sink = j_data_stream_sink

    def name(self, name: str) -> 'DataStreamSink':
        return self

    def uid(self, uid: str) -> 'DataStreamSink':
        return self

    def set_uid_hash(self, uid_hash: str) -> 'DataStreamSink':
        return self

    def set_parallelism(self, parallelism: int) -> 'DataStreamSink':
        return self

    def set_description(self, description: str) -> 'DataStreamSink':
        return self

    def disable_chaining(self) -> 'DataStreamSink':
        return self

    def slot_sharing_group(self, slot_sharing_group: Any) -> 'DataStreamSink':
        return self


class KeyedStream(DataStream):
    """A stream partitioned by key: its functions see keyed state and timers.

    :param j_keyed_stream: The key_by node of the job's graph.
    :param original_data_type_info: The type of the records.
    :param origin_stream: The stream that was keyed.
    """

    def __init__(self, j_keyed_stream: Node, original_data_type_info: Any, origin_stream: DataStream):
        super(KeyedStream, self).__init__(j_data_stream=j_keyed_stream)
        self._original_data_type_info = original_data_type_info
        self._origin_stream = origin_stream

    def _keyed(self, function: KeyedProcessFunction, output_type: Any, api: str) -> DataStream:
        from pyflink_compat.runtime.plan import check_spark_supports

        check_spark_supports(api)
        if _is_running_reduce(function):
            function.final_only = _batch_mode(self._j_data_stream.env)  # type: ignore[attr-defined]
        event_time = self._j_data_stream.has_event_time() or not _is_running_reduce(function) \
            or function.final_only  # type: ignore[attr-defined]
        node = self._then(KEYED, (function, event_time), output_type)
        node.name = api
        return DataStream(node)

    def _keyed_record(self, kind: str, func: Any, output_type: Any) -> 'DataStream':
        # A rich function may open keyed state: it runs per key, as in Flink.
        from pyflink_compat.runtime.keyed_record import KeyedRecordFunction

        return self._keyed(KeyedRecordFunction(kind, func), output_type, "KeyedStream." + kind)

    def map(self, func: Union[Callable, MapFunction], output_type: TypeInformation = None) \
            -> 'DataStream':
        """One output per record (a function with its own ``open`` runs per key, with keyed
        state)."""
        from pyflink_compat.runtime.keyed_record import opens_state

        if isinstance(func, MapFunction) and opens_state(func):
            return self._keyed_record("map", func, output_type)
        return DataStream(DataStream.map(self, func, output_type)._j_data_stream)

    def flat_map(self, func: Union[Callable, FlatMapFunction],
                 output_type: TypeInformation = None) -> 'DataStream':
        from pyflink_compat.runtime.keyed_record import opens_state

        if isinstance(func, FlatMapFunction) and opens_state(func):
            return self._keyed_record("flat_map", func, output_type)
        return DataStream(DataStream.flat_map(self, func, output_type)._j_data_stream)

    def reduce(self, func: Union[Callable, ReduceFunction]) -> 'DataStream':
        """The running reduce of each key's records: one output per input record."""
        from pyflink_compat.runtime.builtin_functions import RunningReduce

        if not isinstance(func, ReduceFunction):
            if not callable(func):  # a plain callable of two values is wrapped, as in PyFlink
                raise TypeError("The input must be a ReduceFunction or a callable function!")
        function: Any = func if isinstance(func, ReduceFunction) else ReduceFunctionWrapper(func)
        return self._keyed(RunningReduce(function), self._original_data_type_info, "KeyedStream.reduce")

    def filter(self, func: Union[Callable, FilterFunction]) -> 'DataStream':
        from pyflink_compat.runtime.keyed_record import opens_state

        if isinstance(func, FilterFunction) and opens_state(func):
            return self._keyed_record("filter", func, self._original_data_type_info)
        return DataStream(DataStream.filter(self, func)._j_data_stream)

    def _accumulate(self, position: Union[int, str], kind: str) -> 'DataStream':
        from pyflink_compat.runtime.builtin_functions import RunningReduce, accumulating_reduce

        return self._keyed(RunningReduce(accumulating_reduce(position, kind)),
                           self._original_data_type_info, "KeyedStream." + kind)

    def sum(self, position_to_sum: Union[int, str] = 0) -> 'DataStream':
        return self._accumulate(position_to_sum, "sum")

    def min(self, position_to_min: Union[int, str] = 0) -> 'DataStream':
        return self._accumulate(position_to_min, "min")

    def max(self, position_to_max: Union[int, str] = 0) -> 'DataStream':
        return self._accumulate(position_to_max, "max")

    def min_by(self, position_to_min_by: Union[int, str] = 0) -> 'DataStream':
        return self._accumulate(position_to_min_by, "min_by")

    def max_by(self, position_to_max_by: Union[int, str] = 0) -> 'DataStream':
        return self._accumulate(position_to_max_by, "max_by")

    def add_sink(self, sink_func: Any) -> 'DataStreamSink':
        return DataStream.add_sink(self, sink_func)

    def key_by(self, key_selector: Union[Callable, KeySelector],
               key_type: TypeInformation = None) -> 'KeyedStream':
        return self._origin_stream.key_by(key_selector, key_type)

    def process(self, func: KeyedProcessFunction,  # type: ignore[override]
                output_type: TypeInformation = None) -> 'DataStream':
        """Run ``func`` per key with its state and timers."""
        if not isinstance(func, KeyedProcessFunction):
            raise TypeError("KeyedProcessFunction is required for KeyedStream.")
        return self._keyed(func, output_type, "KeyedStream.process")

    def window(self, window_assigner: Any) -> 'WindowedStream':
        """Group each key's records into the windows ``window_assigner`` gives (tumbling,
        sliding and session windows by event or processing time, count windows, global
        windows)."""
        from pyflink_compat.datastream import window as windows

        if not isinstance(window_assigner, (
                windows.TumblingEventTimeWindows, windows.SlidingEventTimeWindows,
                windows.EventTimeSessionWindows, windows.DynamicEventTimeSessionWindows,
                windows.DynamicProcessingTimeSessionWindows,
                windows.CountTumblingWindowAssigner, windows.CountSlidingWindowAssigner,
                windows.GlobalWindows, windows.TumblingProcessingTimeWindows,
                windows.SlidingProcessingTimeWindows, windows.ProcessingTimeSessionWindows)):
            raise not_supported("KeyedStream.window")
        return WindowedStream(self, window_assigner)

    def count_window(self, size: int, slide: int = 0) -> 'WindowedStream':
        """Windows of ``size`` records of a key: one after the other, or one starting every
        ``slide`` records."""
        from pyflink_compat.datastream.window import CountSlidingWindowAssigner, CountTumblingWindowAssigner

        if slide == 0:
            return WindowedStream(self, CountTumblingWindowAssigner(size))
        return WindowedStream(self, CountSlidingWindowAssigner(size, slide))

    def union(self, *streams: DataStream) -> DataStream:
        return DataStream.union(self, *streams)

    def _values_node(self) -> Node:
        return self._origin_stream._j_data_stream

    def connect(self, ds: Any) -> Any:
        if isinstance(ds, BroadcastStream):
            return BroadcastConnectedStream(self, ds, ds.broadcast_state_descriptors)
        if not isinstance(ds, DataStream):
            raise not_supported("KeyedStream.connect")
        return ConnectedStreams(self, ds)

    def broadcast(self, *args: Any) -> Any:
        raise Exception('Cannot override partitioning for KeyedStream.')

    def partition_custom(self, partitioner: Any, key_selector: Any) -> 'DataStream':
        raise not_supported("DataStream.partition_custom")

    def print(self, sink_identifier: str = None) -> DataStreamSink:
        return DataStream(self._origin_stream._j_data_stream).print(sink_identifier)

    def cache(self) -> 'CachedDataStream':
        raise not_supported("DataStream.cache")


def _batch_mode(env: Any) -> bool:
    """Whether the job runs in Flink's batch mode: BATCH, or AUTOMATIC with bounded sources
    (every source of a DataStream job here is bounded)."""
    mode = str(env._text("runtime_mode") or "STREAMING").upper()
    return mode == "BATCH" or (mode == "AUTOMATIC" and not getattr(env, "_unbounded_sources", False))


def _is_running_reduce(function: Any) -> bool:
    from pyflink_compat.runtime.builtin_functions import RunningReduce

    return isinstance(function, RunningReduce)


class CloseableIterator(object):
    """The records of ``execute_and_collect``."""

    def __init__(self, j_closeable_iterator: Iterator[Any], type_info: TypeInformation = None):
        self._j_closeable_iterator = j_closeable_iterator
        self._type_info = type_info

    def __iter__(self) -> 'CloseableIterator':
        return self

    def __next__(self) -> Any:
        return self.next()

    def __enter__(self) -> 'CloseableIterator':
        return self

    def __exit__(self, exc_type: Any, exc_val: Any, exc_tb: Any) -> None:
        self.close()

    def next(self) -> Any:
        try:
            return next(self._j_closeable_iterator)
        except StopIteration:
            raise StopIteration('No more data.') from None

    def close(self) -> None:
        self._j_closeable_iterator = iter(())


class AllWindowedStream(Declared):
    pass


class BroadcastStream(object):
    """A stream whose records reach every parallel instance of the function it is connected
    to, kept in broadcast states of the given descriptors; it can only be connected.

    :param input_stream: The stream broadcast.
    :param broadcast_state_descriptors: The map state descriptors of its broadcast states.
    """

    def __init__(self, input_stream: DataStream, broadcast_state_descriptors: list):
        self.input_stream = input_stream
        self.broadcast_state_descriptors = broadcast_state_descriptors


class BroadcastConnectedStream(object):
    """A stream, keyed or not, connected with a :class:`BroadcastStream`: a broadcast process
    function handles both, reading the broadcast state for the stream's records and writing it
    for the broadcast ones.

    :param non_broadcast_stream: The stream the function processes record by record.
    :param broadcast_stream: The broadcast stream.
    :param broadcast_state_descriptors: Its broadcast states' descriptors.
    """

    def __init__(self, non_broadcast_stream: DataStream, broadcast_stream: BroadcastStream,
                 broadcast_state_descriptors: list):
        self.non_broadcast_stream = non_broadcast_stream
        self.broadcast_stream = broadcast_stream
        self.broadcast_state_descriptors = broadcast_state_descriptors

    def _is_keyed_stream(self) -> bool:
        return isinstance(self.non_broadcast_stream, KeyedStream)

    def process(self, func: Any, output_type: TypeInformation = None) -> DataStream:
        """``process_broadcast_element`` per broadcast record, ``process_element`` per record
        of the other stream (with keyed state and timers when it is keyed)."""
        from pyflink_compat.common.typeinfo import RowTypeInfo
        from pyflink_compat.datastream.functions import (
            BroadcastProcessFunction, KeyedBroadcastProcessFunction)
        from pyflink_compat.runtime.broadcast import BroadcastFunction, BroadcastSideKeys, reserved_keys
        from pyflink_compat.runtime.connected import InputKey
        from pyflink_compat.runtime.plan import check_spark_supports

        if isinstance(func, BroadcastProcessFunction) and self._is_keyed_stream():
            raise TypeError("BroadcastProcessFunction should be applied to non-keyed DataStream")
        if isinstance(func, KeyedBroadcastProcessFunction) and (not self._is_keyed_stream()):
            raise TypeError("KeyedBroadcastProcessFunction should be applied to keyed DataStream")
        if isinstance(output_type, list):
            output_type = RowTypeInfo(output_type)
        elif output_type is not None and not isinstance(output_type, TypeInformation):
            raise TypeError("output_type must be None, list or TypeInformation")
        api = "BroadcastConnectedStream.process"
        check_spark_supports(api)
        stream = self.non_broadcast_stream
        env = stream._j_data_stream.env
        keys = reserved_keys(_state_partitions(env))
        env._broadcast_partitions = len(keys)  # a restore must keep that many (restore_at_start)
        selector = stream._j_data_stream.op if isinstance(stream, KeyedStream) else _one_key
        tagged = Node(env, CHAIN, (stream._values_node(),), ("input", 1))
        keyed = Node(env, KEY_BY, (tagged,), InputKey(selector))
        rules = Node(env, CHAIN, (self.broadcast_stream.input_stream._values_node(),), ("input", 0))
        copies = Node(env, CHAIN, (rules,), ("replicate", BroadcastSideKeys(keys)))
        both = DataStream(Node(env, UNION, (keyed, copies), None))
        function = BroadcastFunction(func, self.broadcast_state_descriptors, keys)
        name = "Keyed-Co-Process-Broadcast" if self._is_keyed_stream() else "Co-Process-Broadcast"
        result = KeyedStream(both._j_data_stream, None, both)._keyed(function, output_type, api)
        result._j_data_stream.name = name
        return result


def _state_partitions(env: Any) -> int:
    """The number of state partitions the job's keyed operators will have: its parallelism,
    else the session's number of shuffle partitions (as the job's Spark settings have it)."""
    text = env._text("parallelism")
    if text is not None and int(text) > 0:
        return int(text)
    return int(env.spark_session.conf.get("spark.sql.shuffle.partitions") or "1")


def _one_key(value: Any) -> Any:
    """The key of every record of a non-keyed stream connected with a broadcast stream."""
    return None


class CachedDataStream(Declared):
    pass


class ConnectedStreams(object):
    """Two streams whose records one co-function handles, each with its own method; once
    both are keyed the function's state and timers are shared by the records of a key from
    either stream.

    :param stream1: The first input.
    :param stream2: The second input.
    """

    def __init__(self, stream1: DataStream, stream2: DataStream):
        self.stream1 = stream1
        self.stream2 = stream2

    def key_by(self, key_selector1: Union[Callable, KeySelector],
               key_selector2: Union[Callable, KeySelector],
               key_type: TypeInformation = None) -> 'ConnectedStreams':
        """Both inputs keyed, each by its own selector."""
        stream1 = self.stream1._origin_stream if isinstance(self.stream1, KeyedStream) else self.stream1
        stream2 = self.stream2._origin_stream if isinstance(self.stream2, KeyedStream) else self.stream2
        return ConnectedStreams(stream1.key_by(key_selector1, key_type),
                                stream2.key_by(key_selector2, key_type))

    def map(self, func: Any, output_type: TypeInformation = None) -> DataStream:
        """``map1`` of each record of the first input, ``map2`` of the second's."""
        from pyflink_compat.datastream.functions import CoMapFunction

        if not isinstance(func, CoMapFunction):
            raise TypeError("The input function must be a CoMapFunction!")
        return self._co(func, output_type, "Co-Map")

    def flat_map(self, func: Any, output_type: TypeInformation = None) -> DataStream:
        """``flat_map1``'s outputs for the first input's records, ``flat_map2``'s for the
        second's."""
        from pyflink_compat.datastream.functions import CoFlatMapFunction

        if not isinstance(func, CoFlatMapFunction):
            raise TypeError("The input must be a CoFlatMapFunction!")
        return self._co(func, output_type, "Co-Flat Map")

    def process(self, func: Any, output_type: TypeInformation = None) -> DataStream:
        """``process_element1`` per record of the first input, ``process_element2`` per
        record of the second (with keyed state and timers once both are keyed)."""
        from pyflink_compat.datastream.functions import CoProcessFunction, KeyedCoProcessFunction

        if not isinstance(func, (CoProcessFunction, KeyedCoProcessFunction)):
            raise TypeError("The input must be a CoProcessFunction or KeyedCoProcessFunction!")
        return self._co(func, output_type, "Co-Process")

    def _is_keyed_stream(self) -> bool:
        return isinstance(self.stream1, KeyedStream) and isinstance(self.stream2, KeyedStream)

    def _co(self, func: Any, output_type: Any, name: str) -> DataStream:
        from pyflink_compat.runtime.connected import CoFunction, InputKey

        env = self.stream1._j_data_stream.env
        function = CoFunction(func)
        if not self._is_keyed_stream():
            inputs = [Node(env, CHAIN, (stream._values_node(),), ("input", index))
                      for index, stream in ((1, self.stream1), (2, self.stream2))]
            union = Node(env, UNION, tuple(inputs), None)
            return DataStream(Node(env, CHAIN, (union,), ("process", function), output_type, name=name))
        keyed = []
        for index, stream in ((1, self.stream1), (2, self.stream2)):
            selector = stream._j_data_stream.op
            tagged = Node(env, CHAIN, (stream._values_node(),), ("input", index))
            keyed.append(Node(env, KEY_BY, (tagged,), InputKey(selector)))
        both = DataStream(Node(env, UNION, tuple(keyed), None))
        return KeyedStream(both._j_data_stream, None, both)._keyed(function, output_type,
                                                                   "ConnectedStreams.process")


class WindowedStream(object):
    """The records of a keyed stream grouped into windows.

    :param keyed_stream: The keyed stream.
    :param window_assigner: Its windows.
    """

    def __init__(self, keyed_stream: KeyedStream, window_assigner: Any):
        self._keyed_stream = keyed_stream
        self._window_assigner = window_assigner
        self._allowed_lateness = 0
        self._late_data_output_tag: Any = None
        self._trigger: Any = None

    def get_execution_environment(self) -> Any:
        return self._keyed_stream.get_execution_environment()

    def get_input_type(self) -> Any:
        return self._keyed_stream.get_type()

    def trigger(self, trigger: Any) -> 'WindowedStream':
        """The trigger of the windows, for time, global and count windows alike: any
        ``Trigger`` (the built-in ones, a ``PurgingTrigger`` of one, or the job's own
        subclass, with its timers and partitioned state)."""
        from pyflink_compat.datastream import window as windows

        assigner = self._window_assigner
        if not isinstance(trigger, windows.Trigger):
            raise TypeError("The trigger must be a Trigger, not %r" % (trigger,))
        if isinstance(assigner, (windows.CountTumblingWindowAssigner, windows.CountSlidingWindowAssigner)):
            nested = trigger.nested_trigger if isinstance(trigger, windows.PurgingTrigger) else trigger
            if type(nested) is windows.CountTrigger and nested._window_size == assigner._window_size:
                self._trigger = None  # fires as the assigner's own: once, when full
                return self
            self._trigger = trigger
            return self
        if (type(trigger) is windows.EventTimeTrigger and assigner.is_event_time()) or \
                (type(trigger) is windows.ProcessingTimeTrigger and not assigner.is_event_time()
                 and not isinstance(assigner, windows.GlobalWindows)):
            self._trigger = None  # the assigner's own trigger
            return self
        self._trigger = trigger
        return self

    def allowed_lateness(self, time_ms: int) -> 'WindowedStream':
        """How long (ms) after its end a time window still takes records, firing again for
        each."""
        self._allowed_lateness = int(time_ms)
        return self

    def side_output_late_data(self, output_tag: Any) -> 'WindowedStream':
        """Send the records too late for all their windows to the side output ``output_tag``
        of the windowed result."""
        self._late_data_output_tag = output_tag
        return self

    def _windowed(self, kind: str, function: Any, window_function: Any, output_type: Any,
                  api: str) -> DataStream:
        from pyflink_compat.runtime.windows import WindowOperator

        operator = WindowOperator(self._window_assigner, kind, function, window_function,
                                  self._allowed_lateness if self._window_assigner.is_event_time() else 0,
                                  self._late_data_output_tag, self._trigger)
        return self._keyed_stream._keyed(operator, output_type, api)

    def reduce(self, reduce_function: Union[Callable, ReduceFunction], window_function: Any = None,
               output_type: TypeInformation = None) -> DataStream:
        """Each window's reduce (passed to ``window_function`` when given)."""
        if output_type is None and window_function is None:
            output_type = self._keyed_stream._original_data_type_info
        return self._windowed("reduce", reduce_function, window_function, output_type,
                              "WindowedStream.reduce")

    def aggregate(self, aggregate_function: Any, window_function: Any = None,
                  accumulator_type: TypeInformation = None,
                  output_type: TypeInformation = None) -> DataStream:
        """Each window's aggregate (passed to ``window_function`` when given)."""
        return self._windowed("aggregate", aggregate_function, window_function, output_type,
                              "WindowedStream.aggregate")

    def apply(self, window_function: Any, output_type: TypeInformation = None) -> DataStream:
        """``window_function`` over each window's records."""
        return self._windowed("process", window_function, None, output_type, "WindowedStream.apply")

    def process(self, process_window_function: Any, output_type: TypeInformation = None) -> DataStream:
        """``process_window_function`` over each window's records, with the window's context."""
        return self._windowed("process", process_window_function, None, output_type,
                              "WindowedStream.process")


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
