#!/usr/bin/env bash
# testenv/kafka-perf.sh producer|consumer|topics [ARGS...]
# Run Kafka's own tools (kafka-tools, same version as the testenv broker) against the
# testenv Kafka at 127.0.0.1:9092:
#   producer -> org.apache.kafka.tools.ProducerPerformance (kafka-producer-perf-test.sh)
#   consumer -> org.apache.kafka.tools.ConsumerPerformance (kafka-consumer-perf-test.sh)
#   topics   -> org.apache.kafka.tools.TopicCommand        (kafka-topics.sh)
# --bootstrap-server 127.0.0.1:9092 is added unless ARGS name one. Examples:
#   testenv/kafka-perf.sh topics --create --topic bench --partitions 4 --replication-factor 1
#   testenv/kafka-perf.sh producer --topic bench --num-records 1000000 --record-size 100 \
#       --throughput -1 --command-property acks=1 linger.ms=5 batch.size=65536
#   testenv/kafka-perf.sh consumer --topic bench --num-records 1000000 --timeout 60000
# JVM options: KAFKA_PERF_JAVA_OPTS (default -Xmx512m, as kafka-*-perf-test.sh).
set -u -o pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
case ${1:-} in
producer) main=org.apache.kafka.tools.ProducerPerformance ;;
consumer) main=org.apache.kafka.tools.ConsumerPerformance ;;
topics) main=org.apache.kafka.tools.TopicCommand ;;
*) te_die "usage: testenv/kafka-perf.sh producer|consumer|topics [args...] (got \"${1:-}\")" ;;
esac
shift
te_port_open 9092 || te_die "Kafka is not reachable at 127.0.0.1:9092; start it with testenv/up.sh kafka"
te_check_java
te_classpath kafka kafka.version "$TE_KAFKA_VERSIONS"
conf=$TE_CACHE/conf/kafka-tools
mkdir -p "$conf"
te_log4j2 "$conf/log4j2.properties" warn
bs=(--bootstrap-server 127.0.0.1:9092)
for a in "$@"; do
	[ "$a" = --bootstrap-server ] && bs=()
done
# shellcheck disable=SC2086
exec "$TE_JAVA" ${KAFKA_PERF_JAVA_OPTS:--Xmx512m} -XX:+UseG1GC -Djava.net.preferIPv4Stack=true \
	-Djava.awt.headless=true -Dlog4j2.configurationFile="$conf/log4j2.properties" \
	-cp "$TE_CP" "$main" "${bs[@]}" "$@"
