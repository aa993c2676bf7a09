// YCSBHBaseClient is a YCSB 0.17 DB binding for HBase 2.x, written for gobench's testenv
// because YCSB's own hbase20 binding (site.ycsb:hbase20-binding) is not published on
// Maven Central. It follows the behaviour of YCSB's HBase bindings (HBaseClient10/20/2):
//
//   properties: table (default usertable), columnfamily (required), clientbuffering
//   (default false: each update/insert/delete is one RPC; true: a BufferedMutator of
//   writebuffersize bytes, default 12 MiB, flushed at cleanup), durability (a
//   org.apache.hadoop.hbase.client.Durability name), hbase.usepagefilter (default true:
//   scans carry a PageFilter(recordcount)), debug; principal and keytab (Kerberos login
//   from a keytab, as YCSB's bindings; without them a secured HBase needs kinit's ticket).
//   read: one Get of the family (or of the named fields); empty result = NOT_FOUND.
//   scan: Scan from startkey with caching = recordcount, stops after recordcount rows.
//   insert = update: one Put with every field; delete: one Delete of the row.
//   One Connection is shared by all client threads; the table must exist (init fails
//   otherwise, as in YCSB).
//
// Use with: -db YCSBHBaseClient (testenv/ycsb.sh passes it).

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.PageFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.security.UserGroupInformation;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.measurements.Measurements;

public class YCSBHBaseClient extends DB {
  private static final Object LOCK = new Object();
  private static Connection connection; // shared; guarded by LOCK
  private static int users; // DB instances using connection; guarded by LOCK

  private byte[] family;
  private boolean debug;
  private boolean buffering;
  private long writeBufferSize = 12L * 1024 * 1024;
  private boolean pageFilter = true;
  private Durability durability = Durability.USE_DEFAULT;
  private String tableName;
  private Table table;
  private BufferedMutator mutator;

  @Override
  public void init() throws DBException {
    String cf = getProperties().getProperty("columnfamily");
    if (cf == null) {
      throw new DBException("property columnfamily is required");
    }
    family = Bytes.toBytes(cf);
    debug = "true".equals(getProperties().getProperty("debug"));
    buffering = "true".equals(getProperties().getProperty("clientbuffering", "false"));
    if (getProperties().getProperty("writebuffersize") != null) {
      writeBufferSize = Long.parseLong(getProperties().getProperty("writebuffersize"));
    }
    if (getProperties().getProperty("durability") != null) {
      durability = Durability.valueOf(getProperties().getProperty("durability"));
    }
    pageFilter = !"false".equals(getProperties().getProperty("hbase.usepagefilter", "true"));
    String t = getProperties().getProperty("table", "usertable");
    synchronized (LOCK) {
      try {
        if (connection == null) {
          Configuration conf = HBaseConfiguration.create();
          // Kerberos, as YCSB's HBase bindings do: with hbase.security.authentication=kerberos
          // in hbase-site.xml, Hadoop's UserGroupInformation is switched to Kerberos; with
          // the properties principal and keytab it logs in from the keytab, otherwise it
          // uses the ticket cache of kinit (KRB5CCNAME).
          if ("kerberos".equalsIgnoreCase(conf.get("hbase.security.authentication"))) {
            conf.set("hadoop.security.authentication", "Kerberos");
            UserGroupInformation.setConfiguration(conf);
          }
          String principal = getProperties().getProperty("principal");
          String keytab = getProperties().getProperty("keytab");
          if (principal != null && keytab != null) {
            UserGroupInformation.loginUserFromKeytab(principal, keytab);
          }
          connection = ConnectionFactory.createConnection(conf);
          try (Admin admin = connection.getAdmin()) {
            if (!admin.tableExists(TableName.valueOf(t))) {
              connection.close();
              connection = null;
              throw new DBException("table " + t + " does not exist (create it with testenv/hbase-create-table.sh)");
            }
          }
        }
        users++;
      } catch (IOException e) {
        throw new DBException(e);
      }
    }
  }

  @Override
  public void cleanup() throws DBException {
    long st = System.nanoTime();
    try {
      if (mutator != null) {
        mutator.close();
      }
      if (table != null) {
        table.close();
      }
    } catch (IOException e) {
      throw new DBException(e);
    } finally {
      Measurements.getMeasurements().measure(buffering ? "UPDATE" : "CLEANUP", (int) ((System.nanoTime() - st) / 1000));
      synchronized (LOCK) {
        if (--users <= 0 && connection != null) {
          try {
            connection.close();
          } catch (IOException e) {
            System.err.println("close hbase connection: " + e);
          }
          connection = null;
        }
      }
    }
  }

  private void use(String name) throws IOException {
    if (name.equals(tableName)) {
      return;
    }
    TableName tn = TableName.valueOf(name);
    table = connection.getTable(tn);
    if (buffering) {
      mutator = connection.getBufferedMutator(new BufferedMutatorParams(tn).writeBufferSize(writeBufferSize));
    }
    tableName = name;
  }

  private static void copyCells(Result r, Map<String, ByteIterator> into) {
    while (r.advance()) {
      Cell c = r.current();
      into.put(Bytes.toString(CellUtil.cloneQualifier(c)), new ByteArrayByteIterator(CellUtil.cloneValue(c)));
    }
  }

  @Override
  public Status read(String tbl, String key, Set<String> fields, Map<String, ByteIterator> result) {
    try {
      use(tbl);
      Get g = new Get(Bytes.toBytes(key));
      if (fields == null) {
        g.addFamily(family);
      } else {
        for (String f : fields) {
          g.addColumn(family, Bytes.toBytes(f));
        }
      }
      Result r = table.get(g);
      if (r.isEmpty()) {
        return Status.NOT_FOUND;
      }
      copyCells(r, result);
      return Status.OK;
    } catch (IOException e) {
      if (debug) {
        System.err.println("read " + key + ": " + e);
      }
      return Status.ERROR;
    }
  }

  @Override
  public Status scan(String tbl, String startkey, int recordcount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    Scan s = new Scan().withStartRow(Bytes.toBytes(startkey));
    s.setCaching(recordcount);
    if (pageFilter) {
      s.setFilter(new PageFilter(recordcount));
    }
    if (fields == null) {
      s.addFamily(family);
    } else {
      for (String f : fields) {
        s.addColumn(family, Bytes.toBytes(f));
      }
    }
    try {
      use(tbl);
      try (ResultScanner scanner = table.getScanner(s)) {
        int n = 0;
        for (Result r = scanner.next(); r != null && n < recordcount; r = scanner.next()) {
          HashMap<String, ByteIterator> row = new HashMap<>();
          copyCells(r, row);
          result.add(row);
          n++;
        }
      }
      return Status.OK;
    } catch (IOException e) {
      if (debug) {
        System.err.println("scan " + startkey + ": " + e);
      }
      return Status.ERROR;
    }
  }

  private Status mutate(Mutation m, String what) {
    try {
      if (buffering) {
        mutator.mutate(m);
      } else if (m instanceof Put) {
        table.put((Put) m);
      } else {
        table.delete((Delete) m);
      }
      return Status.OK;
    } catch (IOException e) {
      if (debug) {
        System.err.println(what + ": " + e);
      }
      return Status.ERROR;
    }
  }

  @Override
  public Status update(String tbl, String key, Map<String, ByteIterator> values) {
    try {
      use(tbl);
    } catch (IOException e) {
      return Status.ERROR;
    }
    Put p = new Put(Bytes.toBytes(key));
    p.setDurability(durability);
    for (Map.Entry<String, ByteIterator> e : values.entrySet()) {
      p.addColumn(family, Bytes.toBytes(e.getKey()), e.getValue().toArray());
    }
    return mutate(p, "put " + key);
  }

  @Override
  public Status insert(String tbl, String key, Map<String, ByteIterator> values) {
    return update(tbl, key, values);
  }

  @Override
  public Status delete(String tbl, String key) {
    try {
      use(tbl);
    } catch (IOException e) {
      return Status.ERROR;
    }
    Delete d = new Delete(Bytes.toBytes(key));
    d.setDurability(durability);
    return mutate(d, "delete " + key);
  }
}
