// ClusterAdmin runs HBase admin actions on testenv's cluster (ZooKeeper 127.0.0.1:22181,
// read from hbase-site.xml on the classpath) for testenv/fault.sh and the Go package
// testenv/cluster. Written for gobench against HBase 2.6's public client API (Admin,
// RegionLocator, Table); compiled by testenv on first use.
//
// Usage: ClusterAdmin COMMAND ARGS...   (one command; exit 0, 1 on failure, 2 on bad usage)
//        ClusterAdmin shell             (commands from stdin, one per line; each answer is
//                                        its output lines, then "> ok" or "> err MESSAGE")
// Servers are named by testenv node name (hbase-rs2), or host:port; the property
// gobench.cluster.nodes (node=port,...) maps ports to node names. REGION is an encoded
// region name (32 hex digits). Keys print with bytes outside '!'..'~' (and '\', '"') as
// \xNN; an empty key prints as "".
//
//   servers                          NODE host:port startcode regions
//   regions TABLE                    ENCODED NODE STARTKEY ENDKEY   (NODE: the live server
//                                    that has it open, asked of each; "-": none)
//   locate TABLE ROW                 NODE ENCODED
//   move REGION NODE|any             move one region, wait until it is open there
//   shuffle TABLE N                  move N random regions of TABLE, each to another server
//   split TABLE [ROW]                split the table's regions (or the one holding ROW at
//                                    ROW), wait until the new regions are open
//   split-region REGION [ROW]        split one region (at ROW, else its midpoint)
//   balance                          run the balancer once: ran=BOOL moves=N executed=N
//   balancer on|off                  switch the balancer, print the previous state
//   unassign REGION / assign REGION  close / open one region, wait for it
//   create TABLE FAMILY REGIONS [--drop]  pre-split as YCSB does (REGIONS-1 split points
//                                    from CreateTable), wait until all are open, print
//                                    the regions per server
//   drop TABLE                       disable and delete (if it exists)
//   wait-ready N SECONDS             N live RegionServers, hbase:meta assigned and readable,
//                                    nothing in transition
//   wait-served TABLE SECONDS        every region of TABLE open on a live server
//   load TABLE FAMILY PREFIX N       put N rows PREFIX+DDDD+%08d (DDDD 1000-9999 spread
//                                    over the YCSB split points), column FAMILY:v
//   verify TABLE FAMILY PREFIX N     read them back; fails naming the missing or wrong rows
//                                    (load and verify start from an empty location cache)
//   rit                              regions in transition

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BalanceRequest;
import org.apache.hadoop.hbase.client.BalanceResponse;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.master.RegionState;
import org.apache.hadoop.hbase.util.Bytes;

public final class ClusterAdmin extends AdminTool {
  private static final byte[] QUALIFIER = Bytes.toBytes("v");
  private final Connection conn;
  private final Admin admin;
  private final PrintStream out;
  private final Map<Integer, String> nodeOfPort = new HashMap<>();
  private final Map<String, Integer> portOfNode = new HashMap<>();
  private final Random random = new Random();

  ClusterAdmin(Connection conn, Admin admin, PrintStream out) {
    this.conn = conn;
    this.admin = admin;
    this.out = out;
    for (String kv : System.getProperty("gobench.cluster.nodes", "").split(",")) {
      int eq = kv.indexOf('=');
      if (eq > 0) {
        int port = Integer.parseInt(kv.substring(eq + 1));
        nodeOfPort.put(port, kv.substring(0, eq));
        portOfNode.put(kv.substring(0, eq), port);
      }
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 0) {
      System.err.println("usage: ClusterAdmin COMMAND ARGS... | shell (see the head of ClusterAdmin.java)");
      System.exit(2);
    }
    Configuration conf = HBaseConfiguration.create();
    int code = 0;
    try (Connection conn = ConnectionFactory.createConnection(conf); Admin admin = conn.getAdmin()) {
      ClusterAdmin a = new ClusterAdmin(conn, admin, System.out);
      if (args[0].equals("shell")) {
        shell(a::run, System.out);
      } else {
        a.run(args);
      }
    } catch (UsageException e) {
      System.err.println("ClusterAdmin: " + e.getMessage());
      code = 2;
    } catch (Exception e) {
      System.err.println("ClusterAdmin " + String.join(" ", args) + ": " + oneLine(e));
      code = 1;
    }
    System.out.flush();
    System.exit(code);
  }

  void run(String[] a) throws Exception {
    switch (a[0]) {
      case "servers":
        need(a, 1, "servers");
        for (ServerName sn : liveServers()) {
          out.println(node(sn) + " " + sn.getAddress() + " " + sn.getStartcode() + " " + admin.getRegions(sn).size());
        }
        break;
      case "regions":
        need(a, 2, "regions TABLE");
        regions(table(a[1]));
        break;
      case "locate": {
        need(a, 3, "locate TABLE ROW");
        try (RegionLocator rl = conn.getRegionLocator(table(a[1]))) {
          HRegionLocation l = rl.getRegionLocation(Bytes.toBytes(a[2]), true);
          out.println(node(l.getServerName()) + " " + l.getRegion().getEncodedName());
        }
        break;
      }
      case "move":
        need(a, 3, "move REGION NODE|any");
        move(region(a[1]), a[2].equals("any") ? null : server(a[2]));
        break;
      case "shuffle":
        need(a, 3, "shuffle TABLE N");
        shuffle(table(a[1]), count(a[2]));
        break;
      case "split":
        if (a.length != 2 && a.length != 3) {
          throw new UsageException("usage: split TABLE [ROW]");
        }
        split(table(a[1]), a.length == 3 ? Bytes.toBytes(a[2]) : null);
        break;
      case "split-region": {
        if (a.length != 2 && a.length != 3) {
          throw new UsageException("usage: split-region REGION [ROW]");
        }
        RegionInfo r = region(a[1]);
        if (a.length == 3) {
          admin.splitRegionAsync(r.getRegionName(), Bytes.toBytes(a[2])).get(120, TimeUnit.SECONDS);
        } else {
          admin.splitRegionAsync(r.getRegionName()).get(120, TimeUnit.SECONDS);
        }
        waitServed(r.getTable(), 120);
        break;
      }
      case "balance": {
        need(a, 1, "balance");
        BalanceResponse r = admin.balance(BalanceRequest.defaultInstance());
        out.println("ran=" + r.isBalancerRan() + " moves=" + r.getMovesCalculated() + " executed=" + r.getMovesExecuted());
        break;
      }
      case "balancer":
        need(a, 2, "balancer on|off");
        if (!a[1].equals("on") && !a[1].equals("off")) {
          throw new UsageException("balancer " + a[1] + ": want on or off");
        }
        out.println("was " + (admin.balancerSwitch(a[1].equals("on"), true) ? "on" : "off"));
        break;
      case "unassign": {
        need(a, 2, "unassign REGION");
        RegionInfo r = region(a[1]);
        admin.unassign(r.getRegionName());
        waitFor(60, "region " + a[1] + " closed", () -> onlineOn(r) == null);
        break;
      }
      case "assign": {
        need(a, 2, "assign REGION");
        RegionInfo r = region(a[1]);
        admin.assign(r.getRegionName());
        waitFor(60, "region " + a[1] + " open", () -> onlineOn(r) != null);
        out.println(node(onlineOn(r)));
        break;
      }
      case "create":
        if (a.length != 4 && !(a.length == 5 && a[4].equals("--drop"))) {
          throw new UsageException("usage: create TABLE FAMILY REGIONS [--drop]");
        }
        create(table(a[1]), a[2], count(a[3]), a.length == 5);
        break;
      case "drop":
        need(a, 2, "drop TABLE");
        drop(table(a[1]));
        break;
      case "wait-ready":
        need(a, 3, "wait-ready N SECONDS");
        waitReady(count(a[1]), count(a[2]));
        break;
      case "wait-served":
        need(a, 3, "wait-served TABLE SECONDS");
        waitServed(table(a[1]), count(a[2]));
        break;
      case "load":
        need(a, 5, "load TABLE FAMILY PREFIX N");
        load(table(a[1]), Bytes.toBytes(a[2]), a[3], count(a[4]));
        break;
      case "verify":
        need(a, 5, "verify TABLE FAMILY PREFIX N");
        verify(table(a[1]), Bytes.toBytes(a[2]), a[3], count(a[4]));
        break;
      case "rit":
        need(a, 1, "rit");
        for (RegionState s : admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.REGIONS_IN_TRANSITION))
            .getRegionStatesInTransition()) {
          out.println(s.getRegion().getEncodedName() + " " + s.getState() + " " + node(s.getServerName()));
        }
        break;
      default:
        throw new UsageException("unknown command \"" + a[0] + "\" (see the head of ClusterAdmin.java)");
    }
  }

  static TableName table(String s) throws UsageException {
    try {
      return TableName.valueOf(s);
    } catch (IllegalArgumentException e) {
      throw new UsageException("table name \"" + s + "\": " + e.getMessage());
    }
  }

  /** The key in the printable form described at the top. */
  static String key(byte[] k) {
    if (k.length == 0) {
      return "\"\"";
    }
    StringBuilder b = new StringBuilder();
    for (byte x : k) {
      int c = x & 0xff;
      if (c > ' ' && c <= '~' && c != '\\' && c != '"') {
        b.append((char) c);
      } else {
        b.append(String.format("\\x%02X", c));
      }
    }
    return b.toString();
  }

  String node(ServerName sn) {
    if (sn == null) {
      return "-";
    }
    String n = nodeOfPort.get(sn.getPort());
    return n != null ? n : sn.getAddress().toString();
  }

  List<ServerName> liveServers() throws Exception {
    List<ServerName> l = new ArrayList<>(
        admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS)).getLiveServerMetrics().keySet());
    l.sort((x, y) -> Integer.compare(x.getPort(), y.getPort()));
    return l;
  }

  /** A live RegionServer by node name or host:port. */
  ServerName server(String s) throws Exception {
    Integer port = portOfNode.get(s);
    if (port == null) {
      int colon = s.lastIndexOf(':');
      try {
        port = colon < 0 ? -1 : Integer.parseInt(s.substring(colon + 1));
      } catch (NumberFormatException e) {
        port = -1;
      }
    }
    if (port < 0) {
      throw new UsageException("server \"" + s + "\": want a node name (" + String.join(", ", new TreeMap<>(portOfNode).keySet())
          + ") or host:port");
    }
    List<ServerName> live = liveServers();
    for (ServerName sn : live) {
      if (sn.getPort() == port) {
        return sn;
      }
    }
    List<String> names = new ArrayList<>();
    for (ServerName sn : live) {
      names.add(node(sn));
    }
    throw new IllegalStateException(s + " (port " + port + ") is not a live RegionServer (live: " + names + ")");
  }

  /** The region with this encoded name, from hbase:meta. */
  RegionInfo region(String encoded) throws Exception {
    for (TableName t : admin.listTableNames()) {
      for (RegionInfo r : admin.getRegions(t)) {
        if (r.getEncodedName().equals(encoded)) {
          return r;
        }
      }
    }
    throw new IllegalArgumentException("no region with encoded name " + encoded);
  }

  /** The table's regions (from hbase:meta) and the live server that has each one open. */
  void regions(TableName t) throws Exception {
    Map<String, ServerName> open = new HashMap<>();
    for (ServerName sn : liveServers()) {
      for (RegionInfo x : admin.getRegions(sn)) {
        open.put(x.getEncodedName(), sn);
      }
    }
    for (RegionInfo r : admin.getRegions(t)) {
      if (!r.isSplitParent()) {
        out.println(r.getEncodedName() + " " + node(open.get(r.getEncodedName())) + " " + key(r.getStartKey()) + " " + key(r.getEndKey()));
      }
    }
  }

  List<HRegionLocation> locations(TableName t) throws Exception {
    try (RegionLocator rl = conn.getRegionLocator(t)) {
      return rl.getAllRegionLocations();
    }
  }

  /** The live server that has the region open (asks each server), or null. */
  ServerName onlineOn(RegionInfo r) throws Exception {
    for (ServerName sn : liveServers()) {
      try {
        for (RegionInfo x : admin.getRegions(sn)) {
          if (x.getEncodedName().equals(r.getEncodedName())) {
            return sn;
          }
        }
      } catch (java.io.IOException e) {
        // a server going down: not where the region is
      }
    }
    return null;
  }

  interface Check {
    boolean ok() throws Exception;
  }

  /** Polls check every 250 ms until it holds; fails after seconds with the last error. */
  static void waitFor(int seconds, String what, Check check) throws Exception {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    Exception last = null;
    while (true) {
      try {
        if (check.ok()) {
          return;
        }
      } catch (Exception e) {
        last = e;
      }
      if (System.nanoTime() > end) {
        throw new IllegalStateException("not " + what + " after " + seconds + " s" + (last != null ? " (last error: " + oneLine(last) + ")" : ""));
      }
      Thread.sleep(250);
    }
  }

  void move(RegionInfo r, ServerName dest) throws Exception {
    ServerName from = onlineOn(r);
    if (dest == null) {
      admin.move(r.getEncodedNameAsBytes());
    } else {
      admin.move(r.getEncodedNameAsBytes(), dest);
    }
    ServerName[] now = new ServerName[1];
    waitFor(60, "region " + r.getEncodedName() + " open on " + (dest == null ? "a server" : node(dest)), () -> {
      now[0] = onlineOn(r);
      return now[0] != null && (dest == null || now[0].equals(dest));
    });
    out.println("moved " + r.getEncodedName() + " " + node(from) + " -> " + node(now[0]));
  }

  void shuffle(TableName t, int n) throws Exception {
    List<HRegionLocation> locs = new ArrayList<>();
    for (HRegionLocation l : locations(t)) {
      if (l.getServerName() != null) {
        locs.add(l);
      }
    }
    Collections.shuffle(locs, random);
    List<ServerName> live = liveServers();
    if (live.size() < 2) {
      throw new IllegalStateException("need 2 live RegionServers to move regions, have " + live.size());
    }
    for (HRegionLocation l : locs.subList(0, Math.min(n, locs.size()))) {
      List<ServerName> others = new ArrayList<>(live);
      others.removeIf(sn -> sn.getPort() == l.getServerName().getPort());
      move(l.getRegion(), others.get(random.nextInt(others.size())));
    }
  }

  void split(TableName t, byte[] row) throws Exception {
    int before = admin.getRegions(t).size();
    if (row == null) {
      admin.split(t);
    } else {
      admin.split(t, row);
    }
    waitFor(120, "split (table " + t + " still has " + before + " regions)", () -> admin.getRegions(t).size() > before);
    waitServed(t, 120);
  }

  void create(TableName t, String family, int regions, boolean drop) throws Exception {
    if (regions < 1) {
      throw new UsageException("REGIONS " + regions + ": want >= 1");
    }
    if (admin.tableExists(t)) {
      if (!drop) {
        throw new IllegalStateException("table " + t + " exists (pass --drop to recreate it)");
      }
      drop(t);
    }
    TableDescriptorBuilder td = TableDescriptorBuilder.newBuilder(t).setColumnFamily(ColumnFamilyDescriptorBuilder.of(family));
    if (regions == 1) {
      admin.createTable(td.build());
    } else {
      admin.createTable(td.build(), CreateTable.ycsbSplits(regions - 1));
    }
    out.print("created " + t + ": ");
    waitServed(t, 120);
  }

  void drop(TableName t) throws Exception {
    if (!admin.tableExists(t)) {
      return;
    }
    if (admin.isTableEnabled(t)) {
      admin.disableTable(t);
    }
    admin.deleteTable(t);
  }

  void waitReady(int servers, int seconds) throws Exception {
    String[] meta = new String[1];
    waitFor(seconds, servers + " RegionServers, hbase:meta assigned, nothing in transition", () -> {
      ClusterMetrics m = admin.getClusterMetrics(
          EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS, ClusterMetrics.Option.REGIONS_IN_TRANSITION));
      if (m.getLiveServerMetrics().size() != servers || !m.getRegionStatesInTransition().isEmpty()) {
        return false;
      }
      try (RegionLocator rl = conn.getRegionLocator(TableName.META_TABLE_NAME);
          Table mt = conn.getTable(TableName.META_TABLE_NAME);
          ResultScanner sc = mt.getScanner(new Scan().setLimit(1))) {
        meta[0] = node(rl.getRegionLocation(HConstants.EMPTY_START_ROW, true).getServerName());
        sc.next();
      }
      admin.listTableNames();
      return true;
    });
    out.println("ready: " + servers + " RegionServers, hbase:meta on " + meta[0]);
  }

  void waitServed(TableName t, int seconds) throws Exception {
    Map<String, Integer> per = new TreeMap<>();
    waitFor(seconds, "every region of " + t + " open", () -> {
      per.clear();
      List<String> want = new ArrayList<>();
      for (RegionInfo r : admin.getRegions(t)) {
        if (!r.isOffline() && !r.isSplitParent()) {
          want.add(r.getEncodedName());
        }
      }
      int open = 0;
      for (ServerName sn : liveServers()) {
        int k = 0;
        for (RegionInfo x : admin.getRegions(sn)) {
          if (x.getTable().equals(t) && want.contains(x.getEncodedName())) {
            k++;
          }
        }
        per.put(node(sn), k);
        open += k;
      }
      return !want.isEmpty() && open == want.size();
    });
    StringBuilder b = new StringBuilder();
    int total = 0;
    for (Map.Entry<String, Integer> e : per.entrySet()) {
      b.append(' ').append(e.getKey()).append('=').append(e.getValue());
      total += e.getValue();
    }
    out.println(total + " regions open:" + b);
  }

  /**
   * Row i of load/verify: PREFIX, 4 digits 1000-9999 spread by i (so that "user" rows fall
   * into every region of a YCSB-split table), then i in 8 digits.
   */
  static byte[] row(String prefix, int i) {
    return Bytes.toBytes(prefix + (1000 + (i * 7919L) % 9000) + String.format("%08d", i));
  }

  static byte[] value(byte[] row) {
    return Bytes.add(Bytes.toBytes("value-"), row);
  }

  void load(TableName t, byte[] family, String prefix, int n) throws Exception {
    conn.clearRegionLocationCache();
    try (Table tb = conn.getTable(t)) {
      List<Put> batch = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        byte[] r = row(prefix, i);
        batch.add(new Put(r).addColumn(family, QUALIFIER, value(r)));
        if (batch.size() == 500 || i == n - 1) {
          tb.put(batch);
          batch.clear();
        }
      }
    }
    out.println("loaded " + n + " rows");
  }

  void verify(TableName t, byte[] family, String prefix, int n) throws Exception {
    int bad = 0;
    String first = null;
    // From hbase:meta, not from locations cached before region moves and splits: for a
    // region moved away and back, then split, both servers answered RegionMovedException
    // naming the other, and HBase's client retried that until it gave up (seen with
    // 2.6.4); load/verify check the data, not the client's cache.
    conn.clearRegionLocationCache();
    try (Table tb = conn.getTable(t)) {
      for (int i = 0; i < n; i += 500) {
        List<Get> gets = new ArrayList<>();
        for (int j = i; j < Math.min(n, i + 500); j++) {
          gets.add(new Get(row(prefix, j)).addColumn(family, QUALIFIER));
        }
        Result[] rs = tb.get(gets);
        for (int j = 0; j < rs.length; j++) {
          byte[] r = gets.get(j).getRow();
          byte[] v = rs[j].getValue(family, QUALIFIER);
          if (v == null || !Arrays.equals(v, value(r))) {
            bad++;
            if (first == null) {
              first = Bytes.toString(r) + (v == null ? " missing" : " wrong value");
            }
          }
        }
      }
    }
    if (bad > 0) {
      throw new IllegalStateException(bad + " of " + n + " rows missing or wrong (first: " + first + ")");
    }
    out.println("verified " + n + " rows");
  }
}
