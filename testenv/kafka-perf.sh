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
# testenv/kafka-perf.sh --secure [USER-MODE] producer|consumer|topics [ARGS...]: the same
# against the secured Kafka (up.sh --secure kafka) with its client properties file
# $GOBENCH_RUN/secure/conf/kafka-USER-MODE.properties (--command-config, and its
# bootstrap.servers as --bootstrap-server), e.g. jason-scram (default), jason-gssapi,
# nogrant-scram, jason-ssl; README.md lists the modes.
set -u -o pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
secure=()
bootstrap=127.0.0.1:9092
if [ "${1:-}" = --secure ]; then
	. "$TE_DIR/srv/secure-common.sh"
	shift
	mode=jason-scram
	case ${1:-} in producer | consumer | topics | "") ;; *) mode=$1; shift ;; esac
	props=$SEC_DIR/conf/kafka-$mode.properties
	[ -f "$props" ] || te_die "no client properties $props (modes: $(ls "$SEC_DIR/conf" 2>/dev/null | sed -n 's/^kafka-\(.*\)\.properties$/\1/p' | tr '\n' ' ')); start the secured Kafka with testenv/up.sh --secure kafka"
	bootstrap=$(sed -n 's/^bootstrap.servers=//p' "$props")
	sec_java_krb
	secure=(--command-config "$props")
fi
case ${1:-} in
producer) main=org.apache.kafka.tools.ProducerPerformance ;;
consumer) main=org.apache.kafka.tools.ConsumerPerformance ;;
topics) main=org.apache.kafka.tools.TopicCommand ;;
*) te_die "usage: testenv/kafka-perf.sh producer|consumer|topics [args...] (got \"${1:-}\")" ;;
esac
shift
te_port_open "${bootstrap##*:}" || te_die "Kafka is not reachable at $bootstrap; start it with testenv/up.sh${secure:+ --secure} kafka"
te_check_java
te_classpath kafka kafka.version "$TE_KAFKA_VERSIONS"
conf=$TE_CACHE/conf/kafka-tools
mkdir -p "$conf"
te_log4j2 "$conf/log4j2.properties" warn
bs=(--bootstrap-server "$bootstrap")
for a in "$@"; do
	[ "$a" = --bootstrap-server ] && bs=()
done
# shellcheck disable=SC2086
exec "$TE_JAVA" ${KAFKA_PERF_JAVA_OPTS:--Xmx512m} ${secure:+"${SEC_KRB_JFLAGS[@]}"} -XX:+UseG1GC -Djava.net.preferIPv4Stack=true \
	-Djava.awt.headless=true -Dlog4j2.configurationFile="$conf/log4j2.properties" \
	-cp "$TE_CP" "$main" "${bs[@]}" "${secure[@]}" "$@"
