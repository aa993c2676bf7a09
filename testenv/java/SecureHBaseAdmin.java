// SecureHBaseAdmin does the admin steps of field report 004 on testenv's secured HBase
// (up.sh --secure hbase, secure.sh hbase): namespaces, grants, pre-split tables, with
// HBase's own client over Kerberos. Written for gobench; compiled on first use together
// with CreateTable.java (YCSB's split points).
//
// Login: -Dgobench.principal and -Dgobench.keytab (UserGroupInformation.loginUserFromKeytab,
// as "kinit -kt hbase.keytab hbase"), or without them the ticket cache KRB5CCNAME names.
// The client configuration (hbase-site.xml, core-site.xml) comes from the classpath.
//
// Usage: SecureHBaseAdmin COMMAND ARGS...  (exit 0; 1 on failure; 3 access denied; 2 usage)
//        SecureHBaseAdmin -                (commands from stdin, one a line; stops at the
//                                           first failure)
//   whoami                          the user the servers see (short name)
//   wait-ready SECONDS              until hbase:meta and hbase:acl are online (the
//                                   AccessController is up)
//   create-namespace NS             (an existing one is kept)
//   grant USER PERMS @NS|TABLE      PERMS: letters of RWXCA, e.g. grant jason RWXCA @ycsb_hbase_ns
//   revoke USER @NS|TABLE           every permission USER has there
//   perms @NS|TABLE                 USER PERMS lines
//   create TABLE FAMILY NSPLITS [--drop]   YCSB's pre-split (NSPLITS+1 regions); prints
//                                   the region count
//   drop TABLE
//   regions TABLE                   the number of regions
// An AccessDeniedException is reported as "FORBIDDEN: ..." (exit 3).

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.NamespaceExistException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.security.AccessDeniedException;
import org.apache.hadoop.hbase.security.User;
import org.apache.hadoop.hbase.security.access.AccessControlClient;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.hadoop.hbase.security.access.UserPermission;
import org.apache.hadoop.security.UserGroupInformation;

public final class SecureHBaseAdmin extends AdminTool {
  private final Connection conn;

  private SecureHBaseAdmin(Connection conn) {
    this.conn = conn;
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      System.err.println("usage: SecureHBaseAdmin COMMAND ARGS... | - (see the head of SecureHBaseAdmin.java)");
      System.exit(2);
    }
    Configuration conf = HBaseConfiguration.create();
    UserGroupInformation.setConfiguration(conf);
    String principal = System.getProperty("gobench.principal", "");
    String keytab = System.getProperty("gobench.keytab", "");
    if (!principal.isEmpty() && !keytab.isEmpty()) {
      UserGroupInformation.loginUserFromKeytab(principal, keytab);
    }
    int rc = 0;
    try (Connection conn = ConnectionFactory.createConnection(conf)) {
      SecureHBaseAdmin a = new SecureHBaseAdmin(conn);
      if (args[0].equals("-")) {
        rc = commandLines(a::runOne);
      } else {
        rc = a.runOne(args);
      }
    }
    System.exit(rc);
  }

  private int runOne(String[] cmd) {
    try {
      run(cmd);
      return 0;
    } catch (UsageException e) {
      System.err.println(cmd[0] + ": " + e.getMessage());
      return 2;
    } catch (Throwable e) {
      for (Throwable c = e; c != null; c = c.getCause()) {
        if (c instanceof AccessDeniedException
            || c.getClass().getName().endsWith("AccessDeniedException")
            || String.valueOf(c.getMessage()).contains("AccessDeniedException")) {
          System.err.println(cmd[0] + ": FORBIDDEN: " + firstLine(c.getMessage()));
          return 3;
        }
        if (c.getCause() == c) {
          break;
        }
      }
      System.err.println(cmd[0] + ": " + e.getClass().getName() + ": " + firstLine(e.getMessage()));
      return 1;
    }
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    int i = s.indexOf('\n');
    return i < 0 ? s : s.substring(0, i);
  }

  static Permission.Action[] actions(String perms) throws UsageException {
    List<Permission.Action> out = new ArrayList<>();
    for (char ch : perms.toCharArray()) {
      switch (ch) {
        case 'R':
          out.add(Permission.Action.READ);
          break;
        case 'W':
          out.add(Permission.Action.WRITE);
          break;
        case 'X':
          out.add(Permission.Action.EXEC);
          break;
        case 'C':
          out.add(Permission.Action.CREATE);
          break;
        case 'A':
          out.add(Permission.Action.ADMIN);
          break;
        default:
          throw new UsageException("permission letter " + ch + " in " + perms + ": want letters of RWXCA");
      }
    }
    return out.toArray(new Permission.Action[0]);
  }

  private void run(String[] c) throws Throwable {
    switch (c[0]) {
      case "whoami":
        System.out.println(User.getCurrent().getShortName());
        return;
      case "wait-ready": {
        needAtLeast(c, 2, "wait-ready SECONDS");
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(Integer.parseInt(c[1]));
        Throwable last = null;
        while (System.nanoTime() < end) {
          try (Admin admin = conn.getAdmin()) {
            if (admin.isTableAvailable(TableName.META_TABLE_NAME)
                && admin.isTableAvailable(TableName.valueOf("hbase:acl"))) {
              System.out.println("ready: hbase:meta and hbase:acl online");
              return;
            }
          } catch (Exception e) {
            last = e;
          }
          Thread.sleep(1000);
        }
        throw new Exception("not ready within " + c[1] + " s" + (last == null ? "" : ": " + last));
      }
      case "create-namespace": {
        needAtLeast(c, 2, "create-namespace NS");
        try (Admin admin = conn.getAdmin()) {
          admin.createNamespace(NamespaceDescriptor.create(c[1]).build());
          System.out.println("created namespace " + c[1]);
        } catch (NamespaceExistException e) {
          System.out.println("namespace " + c[1] + " exists");
        }
        return;
      }
      case "grant": {
        needAtLeast(c, 4, "grant USER PERMS @NS|TABLE");
        Permission.Action[] acts = actions(c[2]);
        if (c[3].startsWith("@")) {
          AccessControlClient.grant(conn, c[3].substring(1), c[1], acts);
        } else {
          AccessControlClient.grant(conn, TableName.valueOf(c[3]), c[1], null, null, acts);
        }
        System.out.println("granted " + c[2] + " to " + c[1] + " on " + c[3]);
        return;
      }
      case "revoke": {
        needAtLeast(c, 3, "revoke USER @NS|TABLE");
        Permission.Action[] all = actions("RWXCA");
        if (c[2].startsWith("@")) {
          AccessControlClient.revoke(conn, c[2].substring(1), c[1], all);
        } else {
          AccessControlClient.revoke(conn, TableName.valueOf(c[2]), c[1], null, null, all);
        }
        System.out.println("revoked " + c[1] + " on " + c[2]);
        return;
      }
      case "perms": {
        needAtLeast(c, 2, "perms @NS|TABLE");
        List<UserPermission> ps = AccessControlClient.getUserPermissions(conn, c[1]);
        for (UserPermission p : ps) {
          StringBuilder b = new StringBuilder();
          for (Permission.Action a : p.getPermission().getActions()) {
            b.append((char) a.code());
          }
          System.out.println(p.getUser() + " " + b);
        }
        return;
      }
      case "create": {
        needAtLeast(c, 4, "create TABLE FAMILY NSPLITS [--drop]");
        TableName t = TableName.valueOf(c[1]);
        int n = Integer.parseInt(c[3]);
        try (Admin admin = conn.getAdmin()) {
          if (admin.tableExists(t)) {
            if (c.length < 5 || !c[4].equals("--drop")) {
              System.out.println("table " + t + " exists with " + admin.getRegions(t).size() + " regions; left as it is");
              return;
            }
            if (admin.isTableEnabled(t)) {
              admin.disableTable(t);
            }
            admin.deleteTable(t);
          }
          TableDescriptorBuilder td = TableDescriptorBuilder.newBuilder(t)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of(c[2]));
          if (n == 0) {
            admin.createTable(td.build());
          } else {
            admin.createTable(td.build(), CreateTable.ycsbSplits(n));
          }
          System.out.println("created table " + t + " family " + c[2] + " with " + admin.getRegions(t).size() + " regions");
        }
        return;
      }
      case "drop": {
        needAtLeast(c, 2, "drop TABLE");
        TableName t = TableName.valueOf(c[1]);
        try (Admin admin = conn.getAdmin()) {
          if (!admin.tableExists(t)) {
            System.out.println("table " + t + " does not exist");
            return;
          }
          if (admin.isTableEnabled(t)) {
            admin.disableTable(t);
          }
          admin.deleteTable(t);
          System.out.println("dropped table " + t);
        }
        return;
      }
      case "regions": {
        needAtLeast(c, 2, "regions TABLE");
        try (Admin admin = conn.getAdmin()) {
          System.out.println(admin.getRegions(TableName.valueOf(c[1])).size());
        }
        return;
      }
      default:
        throw new UsageException("unknown command (see the head of SecureHBaseAdmin.java)");
    }
  }
}
