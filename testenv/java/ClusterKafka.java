// ClusterKafka answers questions about testenv's Kafka cluster (which broker leads a
// partition, who is in sync) and creates topics, for testenv/fault.sh and the Go package
// testenv/cluster. Written for gobench against kafka-clients' Admin API; compiled by
// testenv on first use. Broker id N is the testenv node kafkaN.
//
// Usage: ClusterKafka BOOTSTRAP COMMAND ARGS...  (exit 0, 1 on failure, 2 on bad usage)
//        ClusterKafka BOOTSTRAP shell            (commands from stdin, one per line; each
//                                                 answer: output lines, then "> ok" or
//                                                 "> err MESSAGE")
//   brokers                              NODE id host:port [controller]
//   wait-ready N SECONDS                 N brokers in the metadata, and a replication-N
//                                        topic created (every partition led, N in sync)
//                                        and deleted again
//   create TOPIC PARTITIONS RF           create (min.insync.replicas: the broker default)
//   delete TOPIC
//   describe TOPIC                       PARTITION LEADER replicas=NODE,.. isr=NODE,..
//   leader TOPIC PARTITION               NODE (the leader; "-" if none)
//   wait-leader TOPIC PARTITION SECONDS [NOT-NODE]
//                                        until the partition has a leader (other than
//                                        NOT-NODE); prints it
//   wait-isr TOPIC N SECONDS             until every partition has a leader and N in sync

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;

public final class ClusterKafka extends AdminTool {
  private final Admin admin;
  private final PrintStream out;

  ClusterKafka(Admin admin, PrintStream out) {
    this.admin = admin;
    this.out = out;
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println("usage: ClusterKafka BOOTSTRAP COMMAND ARGS... | BOOTSTRAP shell (see the head of ClusterKafka.java)");
      System.exit(2);
    }
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
    p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "15000");
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000");
    String[] cmd = java.util.Arrays.copyOfRange(args, 1, args.length);
    int code = 0;
    try (Admin admin = Admin.create(p)) {
      ClusterKafka k = new ClusterKafka(admin, System.out);
      if (cmd[0].equals("shell")) {
        shell(k::run, System.out);
      } else {
        k.run(cmd);
      }
    } catch (UsageException e) {
      System.err.println("ClusterKafka: " + e.getMessage());
      code = 2;
    } catch (Exception e) {
      System.err.println("ClusterKafka " + String.join(" ", cmd) + ": " + oneLine(e));
      code = 1;
    }
    System.out.flush();
    System.exit(code);
  }

  static String node(Node n) {
    return n == null || n.id() < 0 ? "-" : "kafka" + n.id();
  }

  static String nodes(List<Node> l) {
    List<String> s = new ArrayList<>();
    for (Node n : l) {
      s.add(node(n));
    }
    return String.join(",", s);
  }

  void run(String[] a) throws Exception {
    switch (a[0]) {
      case "brokers": {
        need(a, 1, "brokers");
        DescribeClusterResult c = admin.describeCluster();
        Node ctrl = c.controller().get(30, TimeUnit.SECONDS);
        List<Node> l = new ArrayList<>(c.nodes().get(30, TimeUnit.SECONDS));
        l.sort((x, y) -> Integer.compare(x.id(), y.id()));
        for (Node n : l) {
          out.println(node(n) + " " + n.id() + " " + n.host() + ":" + n.port() + (ctrl != null && ctrl.id() == n.id() ? " controller" : ""));
        }
        break;
      }
      case "wait-ready":
        need(a, 3, "wait-ready N SECONDS");
        waitReady(count(a[1]), count(a[2]));
        break;
      case "create":
        need(a, 4, "create TOPIC PARTITIONS RF");
        admin.createTopics(List.of(new NewTopic(a[1], count(a[2]), (short) count(a[3])))).all().get(60, TimeUnit.SECONDS);
        waitIsr(a[1], count(a[3]), 60);
        break;
      case "delete":
        need(a, 2, "delete TOPIC");
        admin.deleteTopics(List.of(a[1])).all().get(60, TimeUnit.SECONDS);
        break;
      case "describe":
        need(a, 2, "describe TOPIC");
        for (TopicPartitionInfo p : partitions(a[1])) {
          out.println(p.partition() + " " + node(p.leader()) + " replicas=" + nodes(p.replicas()) + " isr=" + nodes(p.isr()));
        }
        break;
      case "leader":
        need(a, 3, "leader TOPIC PARTITION");
        out.println(node(partition(a[1], count(a[2])).leader()));
        break;
      case "wait-leader": {
        if (a.length != 4 && a.length != 5) {
          throw new UsageException("usage: wait-leader TOPIC PARTITION SECONDS [NOT-NODE]");
        }
        int part = count(a[2]);
        String not = a.length == 5 ? a[4] : "-";
        String[] got = new String[1];
        waitFor(count(a[3]), "a leader of " + a[1] + "/" + part + (a.length == 5 ? " other than " + not : ""), () -> {
          got[0] = node(partition(a[1], part).leader());
          return !got[0].equals("-") && !got[0].equals(not);
        });
        out.println(got[0]);
        break;
      }
      case "wait-isr":
        need(a, 4, "wait-isr TOPIC N SECONDS");
        waitIsr(a[1], count(a[2]), count(a[3]));
        break;
      default:
        throw new UsageException("unknown command \"" + a[0] + "\" (see the head of ClusterKafka.java)");
    }
  }

  Collection<TopicPartitionInfo> partitions(String topic) throws Exception {
    Map<String, TopicDescription> m = admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS);
    return m.get(topic).partitions();
  }

  TopicPartitionInfo partition(String topic, int p) throws Exception {
    for (TopicPartitionInfo i : partitions(topic)) {
      if (i.partition() == p) {
        return i;
      }
    }
    throw new IllegalArgumentException("topic " + topic + " has no partition " + p);
  }

  interface Check {
    boolean ok() throws Exception;
  }

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
        throw new IllegalStateException("no " + what + " after " + seconds + " s" + (last != null ? " (last error: " + oneLine(last) + ")" : ""));
      }
      Thread.sleep(250);
    }
  }

  void waitIsr(String topic, int n, int seconds) throws Exception {
    waitFor(seconds, n + " in-sync replicas on every partition of " + topic, () -> {
      for (TopicPartitionInfo p : partitions(topic)) {
        if (p.leader() == null || p.leader().isEmpty() || p.isr().size() < n) {
          return false;
        }
      }
      return true;
    });
  }

  void waitReady(int brokers, int seconds) throws Exception {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    waitFor(seconds, brokers + " brokers in the metadata",
        () -> admin.describeCluster().nodes().get(10, TimeUnit.SECONDS).size() == brokers);
    String topic = "gobench-cluster-ready-" + System.nanoTime();
    int left = (int) Math.max(1, TimeUnit.NANOSECONDS.toSeconds(end - System.nanoTime()));
    waitFor(left, "replication-" + brokers + " topic created", () -> {
      try {
        admin.createTopics(List.of(new NewTopic(topic, 3, (short) brokers))).all().get(30, TimeUnit.SECONDS);
      } catch (java.util.concurrent.ExecutionException e) {
        // An earlier attempt that timed out on our side may have created it.
        if (!(e.getCause() instanceof org.apache.kafka.common.errors.TopicExistsException)) {
          throw e;
        }
      }
      return true;
    });
    left = (int) Math.max(1, TimeUnit.NANOSECONDS.toSeconds(end - System.nanoTime()));
    waitIsr(topic, brokers, left);
    admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
    out.println("ready: " + brokers + " brokers, a replication-" + brokers + " topic created and deleted");
  }
}
