// SecureKafkaAdmin does the admin steps on testenv's secured Kafka (up.sh --secure kafka,
// secure.sh kafka): SCRAM users, ACLs, topics, and a login check per client properties
// file. Written for gobench against kafka-clients' Admin API; compiled on first use.
// It connects with the client properties file ADMIN_PROPS (the superuser kafka over
// GSSAPI, or any user's file to act as that user). Passwords are read from files and
// never printed.
//
// Usage: SecureKafkaAdmin ADMIN_PROPS COMMAND ARGS...   (exit 0, 1 on failure, 2 bad usage)
//        SecureKafkaAdmin ADMIN_PROPS -                  (commands from stdin, one a line;
//                                                         stops at the first failure)
//   scram-user USER PASSWORD_FILE MECHANISM...  create/replace USER's SCRAM credentials
//                                               (SCRAM-SHA-256, SCRAM-SHA-512; 8192 iterations)
//   allow PRINCIPAL TYPE NAME literal|prefixed OPERATION...
//                                       add ALLOW ACLs (host *), e.g. allow User:jason topic
//                                       gobench prefixed ALL; TYPE topic, group, cluster,
//                                       transactional-id; OPERATION as Kafka names them
//   deny-all PRINCIPAL TYPE NAME literal|prefixed   remove every ACL of PRINCIPAL there
//   acls                                every ACL: PRINCIPAL TYPE NAME PATTERN OPERATION PERMISSION
//   create TOPIC PARTITIONS             create (replication 1)
//   delete TOPIC
//   check PROPS SECONDS                 until a client with PROPS lists the cluster's nodes
//                                       (proves its authentication works); prints its user

import java.io.FileInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialAlteration;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;

public final class SecureKafkaAdmin extends AdminTool {
  private final Admin admin;

  private SecureKafkaAdmin(Admin admin) {
    this.admin = admin;
  }

  static Properties load(String file) throws Exception {
    Properties p = new Properties();
    try (FileInputStream in = new FileInputStream(file)) {
      p.load(in);
    }
    p.putIfAbsent("request.timeout.ms", "20000");
    p.putIfAbsent("default.api.timeout.ms", "60000");
    return p;
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println("usage: SecureKafkaAdmin ADMIN_PROPS COMMAND ARGS... | ADMIN_PROPS - (see the head of SecureKafkaAdmin.java)");
      System.exit(2);
    }
    int rc = 0;
    try (Admin admin = Admin.create(load(args[0]))) {
      SecureKafkaAdmin a = new SecureKafkaAdmin(admin);
      if (args[1].equals("-")) {
        rc = commandLines(a::runOne);
      } else {
        String[] cmd = new String[args.length - 1];
        System.arraycopy(args, 1, cmd, 0, cmd.length);
        rc = a.runOne(cmd);
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
    } catch (ExecutionException e) {
      System.err.println(cmd[0] + ": " + e.getCause());
      return 1;
    } catch (Exception e) {
      System.err.println(cmd[0] + ": " + e);
      return 1;
    }
  }

  private void run(String[] c) throws Exception {
    switch (c[0]) {
      case "scram-user": {
        needAtLeast(c, 4, "scram-user USER PASSWORD_FILE MECHANISM...");
        String pw = Files.readString(Path.of(c[2]), StandardCharsets.UTF_8).trim();
        List<UserScramCredentialAlteration> alts = new ArrayList<>();
        for (int i = 3; i < c.length; i++) {
          ScramMechanism m = ScramMechanism.fromMechanismName(c[i]);
          if (m == ScramMechanism.UNKNOWN) {
            throw new UsageException("mechanism " + c[i] + ": want SCRAM-SHA-256 or SCRAM-SHA-512");
          }
          alts.add(new UserScramCredentialUpsertion(c[1], new ScramCredentialInfo(m, 8192), pw));
        }
        // One mechanism per request: the broker refuses two alterations of one user in one.
        for (UserScramCredentialAlteration alt : alts) {
          admin.alterUserScramCredentials(List.of(alt)).all().get(60, TimeUnit.SECONDS);
        }
        System.out.println("scram user " + c[1] + ": " + String.join(" ", java.util.Arrays.copyOfRange(c, 3, c.length)));
        return;
      }
      case "allow": {
        needAtLeast(c, 6, "allow PRINCIPAL TYPE NAME literal|prefixed OPERATION...");
        ResourcePattern rp = new ResourcePattern(type(c[2]), c[3], pattern(c[4]));
        List<AclBinding> acls = new ArrayList<>();
        for (int i = 5; i < c.length; i++) {
          AclOperation op = AclOperation.fromString(c[i]);
          if (op == AclOperation.UNKNOWN || op == AclOperation.ANY) {
            throw new UsageException("operation " + c[i] + ": want e.g. ALL, READ, WRITE, CREATE, DESCRIBE");
          }
          acls.add(new AclBinding(rp, new AccessControlEntry(c[1], "*", op, AclPermissionType.ALLOW)));
        }
        admin.createAcls(acls).all().get(60, TimeUnit.SECONDS);
        System.out.println("allowed " + c[1] + " on " + c[2] + " " + c[3] + " (" + c[4] + "): "
            + String.join(" ", java.util.Arrays.copyOfRange(c, 5, c.length)));
        return;
      }
      case "deny-all": {
        needAtLeast(c, 5, "deny-all PRINCIPAL TYPE NAME literal|prefixed");
        AclBindingFilter f = new AclBindingFilter(
            new ResourcePatternFilter(type(c[2]), c[3], pattern(c[4])),
            new AccessControlEntryFilter(c[1], null, AclOperation.ANY, AclPermissionType.ANY));
        Collection<AclBinding> gone = admin.deleteAcls(List.of(f)).all().get(60, TimeUnit.SECONDS);
        System.out.println("removed " + gone.size() + " ACLs of " + c[1] + " on " + c[2] + " " + c[3]);
        return;
      }
      case "acls": {
        for (AclBinding b : admin.describeAcls(AclBindingFilter.ANY).values().get(60, TimeUnit.SECONDS)) {
          System.out.println(b.entry().principal() + " " + b.pattern().resourceType().name().toLowerCase(Locale.ROOT)
              + " " + b.pattern().name() + " " + b.pattern().patternType().name().toLowerCase(Locale.ROOT)
              + " " + b.entry().operation() + " " + b.entry().permissionType());
        }
        return;
      }
      case "create": {
        needAtLeast(c, 3, "create TOPIC PARTITIONS");
        admin.createTopics(List.of(new NewTopic(c[1], Integer.parseInt(c[2]), (short) 1)))
            .all().get(60, TimeUnit.SECONDS);
        System.out.println("created topic " + c[1] + " with " + c[2] + " partitions");
        return;
      }
      case "delete": {
        needAtLeast(c, 2, "delete TOPIC");
        admin.deleteTopics(List.of(c[1])).all().get(60, TimeUnit.SECONDS);
        System.out.println("deleted topic " + c[1]);
        return;
      }
      case "check": {
        needAtLeast(c, 3, "check PROPS SECONDS");
        check(c[1], Integer.parseInt(c[2]));
        return;
      }
      default:
        throw new UsageException("unknown command (see the head of SecureKafkaAdmin.java)");
    }
  }

  /** Until a client with the properties file props lists the nodes: its login works. */
  private static void check(String props, int seconds) throws Exception {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    Exception last = null;
    Properties p = load(props);
    p.put("request.timeout.ms", "10000");
    p.put("default.api.timeout.ms", "15000");
    while (System.nanoTime() < end) {
      try (Admin a = Admin.create(p)) {
        int n = a.describeCluster().nodes().get(15, TimeUnit.SECONDS).size();
        System.out.println("login ok with " + Path.of(props).getFileName() + " (" + n + " broker)");
        return;
      } catch (Exception e) {
        last = e;
        Thread.sleep(1000);
      }
    }
    throw new Exception("no login with " + props + " within " + seconds + " s: " + chain(last));
  }

  /** The messages of t and its causes, outermost first. */
  static String chain(Throwable t) {
    StringBuilder b = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof ExecutionException) {
        continue;
      }
      if (b.length() > 0) {
        b.append(" <- ");
      }
      b.append(c);
      if (c.getCause() == c) {
        break;
      }
    }
    return b.toString();
  }

  private static ResourceType type(String s) throws UsageException {
    switch (s) {
      case "topic":
        return ResourceType.TOPIC;
      case "group":
        return ResourceType.GROUP;
      case "cluster":
        return ResourceType.CLUSTER;
      case "transactional-id":
        return ResourceType.TRANSACTIONAL_ID;
      default:
        throw new UsageException("resource type " + s + ": want topic, group, cluster or transactional-id");
    }
  }

  private static PatternType pattern(String s) throws UsageException {
    switch (s) {
      case "literal":
        return PatternType.LITERAL;
      case "prefixed":
        return PatternType.PREFIXED;
      default:
        throw new UsageException("pattern " + s + ": want literal or prefixed");
    }
  }
}
