// CreateTable creates (or recreates) an HBase table pre-split the way YCSB's HBase
// README prescribes: n split points "user" + (1000 + i*(9999-1000)/n) for i = 1..n,
// i.e. n+1 regions. Used by testenv/hbase-create-table.sh; reads hbase-site.xml from
// the classpath.
//
// Usage: CreateTable TABLE FAMILY NSPLITS [--drop|--delete|--compact]
//   --drop: disable and delete an existing table first; without it an existing table
//   is left as it is (exit 0, with a note).
//   --delete: only disable and delete the table (if it exists), create nothing.
//   --compact: create nothing; flush the existing table, major-compact it and wait
//   (up to 600 s) until no compaction of it runs, so that what a load left behind
//   (memstores, store files, compactions) falls into no later measurement.

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

public final class CreateTable {
  private CreateTable() {}

  /** YCSB's split points for n splits (n >= 1): "user" + (1000 + i*(9999-1000)/n). */
  static byte[][] ycsbSplits(int n) {
    List<byte[]> out = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      out.add(Bytes.toBytes("user" + (1000 + (long) i * (9999 - 1000) / n)));
    }
    return out.toArray(new byte[0][]);
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 3) {
      System.err.println("usage: CreateTable TABLE FAMILY NSPLITS [--drop|--delete|--compact]");
      System.exit(2);
    }
    TableName table = TableName.valueOf(args[0]);
    String family = args[1];
    int n;
    try {
      n = Integer.parseInt(args[2]);
    } catch (NumberFormatException e) {
      n = -1;
    }
    if (n < 0) {
      System.err.println("NSPLITS " + args[2] + ": want an integer >= 0");
      System.exit(2);
    }
    boolean deleteOnly = args.length > 3 && args[3].equals("--delete");
    boolean drop = deleteOnly || (args.length > 3 && args[3].equals("--drop"));
    boolean compact = args.length > 3 && args[3].equals("--compact");
    Configuration conf = HBaseConfiguration.create();
    try (Connection conn = ConnectionFactory.createConnection(conf);
        Admin admin = conn.getAdmin()) {
      if (compact) {
        System.exit(settle(admin, table));
      }
      if (admin.tableExists(table)) {
        if (!drop) {
          System.out.println("table " + table + " exists; left as it is (pass --drop to recreate)");
          return;
        }
        if (admin.isTableEnabled(table)) {
          admin.disableTable(table);
        }
        admin.deleteTable(table);
        System.out.println("dropped table " + table);
      }
      if (deleteOnly) {
        return;
      }
      TableDescriptorBuilder td = TableDescriptorBuilder.newBuilder(table)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of(family));
      if (n == 0) {
        admin.createTable(td.build());
      } else {
        admin.createTable(td.build(), ycsbSplits(n));
      }
      int regions = admin.getRegions(table).size();
      System.out.println("created table " + table + " family " + family + " with " + regions + " regions");
    }
  }

  /** Flushes and major-compacts table, waits until it is quiet; the exit code. */
  static int settle(Admin admin, TableName table) throws Exception {
    if (!admin.tableExists(table)) {
      System.err.println("table " + table + " does not exist");
      return 1;
    }
    long t0 = System.nanoTime();
    admin.flush(table);
    admin.majorCompact(table);
    // majorCompact only queues the request: wait until the state has been NONE
    // for 3 polls in a row (1 s apart), after the first second.
    int quiet = 0;
    while (quiet < 3) {
      Thread.sleep(1000);
      if ((System.nanoTime() - t0) / 1_000_000_000L > 600) {
        System.err.println("table " + table + ": still compacting after 600 s");
        return 1;
      }
      quiet = admin.getCompactionState(table) == CompactionState.NONE ? quiet + 1 : 0;
    }
    System.out.printf("table %s flushed and major-compacted in %.1f s%n", table, (System.nanoTime() - t0) / 1e9);
    return 0;
  }
}
