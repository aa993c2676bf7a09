// AdminTool is what testenv's admin helpers (ClusterAdmin, ClusterKafka, SecureHBaseAdmin,
// SecureKafkaAdmin) share: the usage error that exits 2, argument checks, the one-line form
// of an exception, the "shell" protocol the Go packages testenv/cluster and testenv/secure
// speak, and reading commands from stdin. Each helper extends it and is compiled with it by
// testenv (te_javac) on first use. Written for gobench.

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;

abstract class AdminTool {
  /** Bad usage: exit 2 in one-shot mode. */
  static final class UsageException extends Exception {
    UsageException(String m) {
      super(m);
    }
  }

  /** One command line, split into words. */
  interface Command {
    void run(String[] words) throws Exception;
  }

  /** One command line, split into words; returns its exit code. */
  interface CodedCommand {
    int run(String[] words) throws Exception;
  }

  /** Fails with usage unless a has exactly n words. */
  static void need(String[] a, int n, String usage) throws UsageException {
    if (a.length != n) {
      throw new UsageException("usage: " + usage);
    }
  }

  /** Fails with usage unless a has at least n words. */
  static void needAtLeast(String[] a, int n, String usage) throws UsageException {
    if (a.length < n) {
      throw new UsageException("usage: " + usage);
    }
  }

  /** s as an integer >= 0, or a usage error naming it. */
  static int count(String s) throws UsageException {
    try {
      int n = Integer.parseInt(s);
      if (n >= 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException("\"" + s + "\": want an integer >= 0");
  }

  /** e (the cause of an ExecutionException) as "Class: message" on one line. */
  static String oneLine(Throwable e) {
    if (e instanceof ExecutionException && e.getCause() != null) {
      e = e.getCause();
    }
    return (e.getClass().getSimpleName() + ": " + e.getMessage()).replace('\n', ' ').replace('\r', ' ');
  }

  /**
   * The shell protocol: "> ok ready", then commands from stdin until EOF or "quit", each
   * answered by its output lines and "> ok" or "> err MESSAGE".
   */
  static void shell(Command c, PrintStream out) throws IOException {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    out.println("> ok ready");
    out.flush();
    for (String line; (line = in.readLine()) != null; ) {
      line = line.trim();
      if (line.isEmpty()) {
        continue;
      }
      if (line.equals("quit")) {
        break;
      }
      try {
        c.run(line.split("\\s+"));
        out.println("> ok");
      } catch (Exception e) {
        out.println("> err " + oneLine(e));
      }
      out.flush();
    }
  }

  /**
   * Commands from stdin, one per line (blank lines and # comments skipped), until one
   * returns a non-zero code, which is returned (0 after the last).
   */
  static int commandLines(CodedCommand c) throws Exception {
    BufferedReader r = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line; (line = r.readLine()) != null; ) {
      line = line.trim();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      int rc = c.run(line.split("\\s+"));
      if (rc != 0) {
        return rc;
      }
    }
    return 0;
  }
}
