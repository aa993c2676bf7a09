// SecureFsShell runs Hadoop FsShell commands (hdfs dfs ...) against the secured testenv
// HDFS in one JVM, logged in from a keytab (-Dgobench.principal, -Dgobench.keytab) or,
// without those, from the ticket cache that KRB5CCNAME names (kinit -kt), as the hdfs
// command does. Used by testenv/secure.sh hdfs and by up.sh --secure hdfs (setup).
//
// Usage: SecureFsShell "COMMAND ARGS..." ["COMMAND ARGS..." ...]
//   each argument is one FsShell command line, split on blanks, e.g. "-mkdir -p /x";
//   they run in order; the first that fails ends the run with its exit code.
// The client configuration (core-site.xml, hdfs-site.xml) comes from the classpath.

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.ToolRunner;

public final class SecureFsShell {
  private SecureFsShell() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 0) {
      System.err.println("usage: SecureFsShell \"-ls /\" [\"-mkdir -p /x\" ...]");
      System.exit(2);
    }
    // HdfsConfiguration: hdfs-default.xml, then hdfs-site.xml (a plain Configuration with
    // hdfs-site.xml added by hand would have hdfs-default.xml loaded after it, on top).
    Configuration conf = new HdfsConfiguration();
    UserGroupInformation.setConfiguration(conf);
    String principal = System.getProperty("gobench.principal", "");
    String keytab = System.getProperty("gobench.keytab", "");
    if (!principal.isEmpty() && !keytab.isEmpty()) {
      UserGroupInformation.loginUserFromKeytab(principal, keytab);
    }
    for (String line : args) {
      String[] cmd = line.trim().split("\\s+");
      int rc = ToolRunner.run(conf, new FsShell(), cmd);
      if (rc != 0) {
        System.exit(rc);
      }
    }
  }
}
