import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.ValueState;
import scala.collection.Iterator;
import scala.jdk.javaapi.CollectionConverters;

/**
 * A transformWithState processor for the savepoint tests: a running count per key kept in one
 * value state, emitted as "key=count" for every key of a batch. Spark 4 records the absolute
 * path of this operator's state schema file in its operator metadata.
 */
public class RunningCount extends StatefulProcessor<String, Row, String> {
    private transient ValueState<Long> count;

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        count = getHandle().getValueState("count", Encoders.LONG(), TTLConfig.NONE());
    }

    @Override
    public Iterator<String> handleInputRows(String key, Iterator<Row> rows, TimerValues timerValues) {
        long n = count.exists() ? count.get() : 0L;
        while (rows.hasNext()) {
            rows.next();
            n++;
        }
        count.update(n);
        return CollectionConverters.asScala(java.util.Collections.singletonList(key + "=" + n).iterator());
    }

    /** The running counts of the first column of {@code input}, as one string column "out". */
    public static Dataset<Row> build(Dataset<Row> input) {
        return input.groupByKey((MapFunction<Row, String>) r -> r.getString(0), Encoders.STRING())
            .transformWithState(new RunningCount(), TimeMode.None(), OutputMode.Update(), Encoders.STRING())
            .toDF("out");
    }
}
