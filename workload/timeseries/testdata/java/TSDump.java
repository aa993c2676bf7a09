// TSDump is a Java YCSB binding that stores nothing and prints every call,
// one line each, with the fields sorted and numbers decoded:
//   INSERT <key> [ <field>=<value> ... ]   (values: the string, long:<n>, double:<d>)
//   UPDATE, READ <key> [ <field> ... ], SCAN <key> <n> [ ... ], DELETE <key>
// make-fixtures.sh runs Java YCSB 0.17.0's TimeSeriesWorkload with it to
// make the fixtures gobench's TimeSeriesWorkload is compared with.
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.Vector;

import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.NumericByteIterator;
import site.ycsb.Status;

public class TSDump extends DB {
  private static synchronized void emit(String line) {
    System.out.println(line);
  }

  private static String values(Map<String, ByteIterator> values) {
    StringBuilder sb = new StringBuilder("[ ");
    for (Map.Entry<String, ByteIterator> e : new TreeMap<String, ByteIterator>(values).entrySet()) {
      sb.append(e.getKey()).append('=');
      ByteIterator v = e.getValue();
      if (v instanceof NumericByteIterator) {
        NumericByteIterator n = (NumericByteIterator) v;
        if (n.isFloatingPoint()) {
          sb.append("double:").append(n.getDouble());
        } else {
          sb.append("long:").append(n.getLong());
        }
      } else {
        sb.append(v.toString());
      }
      sb.append(' ');
    }
    return sb.append(']').toString();
  }

  private static String fields(Set<String> fields) {
    StringBuilder sb = new StringBuilder("[ ");
    if (fields != null) {
      for (String f : new TreeSet<String>(fields)) {
        sb.append(f).append(' ');
      }
    }
    return sb.append(']').toString();
  }

  @Override
  public Status read(String table, String key, Set<String> f, Map<String, ByteIterator> result) {
    emit("READ " + key + " " + fields(f));
    return Status.OK;
  }

  @Override
  public Status scan(String table, String key, int n, Set<String> f, Vector<HashMap<String, ByteIterator>> result) {
    emit("SCAN " + key + " " + n + " " + fields(f));
    return Status.OK;
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    emit("UPDATE " + key + " " + values(values));
    return Status.OK;
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    emit("INSERT " + key + " " + values(values));
    return Status.OK;
  }

  @Override
  public Status delete(String table, String key) {
    emit("DELETE " + key);
    return Status.OK;
  }
}
