# shellcheck shell=bash
# testenv/srv/secure-kafka.sh: Kafka 4.x, one KRaft node (broker + controller) with
# SASL and TLS: SASL_SSL on localhost:28092 and SASL_PLAINTEXT on 28091 (SCRAM-SHA-512,
# SCRAM-SHA-256, PLAIN, GSSAPI), SSL with required client certificates on 28093 (user =
# the certificate's CN), the controller on 28095 (SASL_PLAINTEXT, GSSAPI). ACLs by
# StandardAuthorizer (super user kafka, nothing allowed without an ACL). Bound to
# 127.0.0.1, advertised as localhost (the name in the certificate and in kafka/localhost).
# Sourced after lib.sh and secure-common.sh.

SEC_KAFKA_BOOTSTRAP=localhost:28092
SEC_KAFKA_CLUSTER_ID=U2VjdXJlVGVzdGVudktmaw
# What jason may do (prefixed ACLs): topics, groups and transactional ids "gobench*".
SEC_KAFKA_PREFIX=gobench

# sec_jaas_krb5 PRINCIPAL KEYTAB: a Krb5LoginModule JAAS line (sasl.jaas.config value).
sec_jaas_krb5() {
	printf 'com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true storeKey=true useTicketCache=false keyTab="%s" principal="%s";' "$2" "$1"
}

sec_kafka_props() {
	local d=$SEC_DIR/kafka sp gss u plain l
	sp=$(cat "$(sec_secret store.password)")
	gss=$(sec_jaas_krb5 "$(sec_principal kafka)" "$(sec_keytab kafka)")
	plain='org.apache.kafka.common.security.plain.PlainLoginModule required'
	for u in $SEC_USERS; do plain+=" user_$u=\"$(cat "$(sec_secret "$u.password")")\""; done
	plain+=';'
	mkdir -p "$d/conf" "$d/data"
	(
		umask 077
		cat >"$d/conf/server.properties" <<EOF
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@localhost:28095
listeners=SASL_SSL://127.0.0.1:28092,SASL_PLAINTEXT://127.0.0.1:28091,SSL://127.0.0.1:28093,CONTROLLER://127.0.0.1:28095
advertised.listeners=SASL_SSL://localhost:28092,SASL_PLAINTEXT://localhost:28091,SSL://localhost:28093
listener.security.protocol.map=SASL_SSL:SASL_SSL,SASL_PLAINTEXT:SASL_PLAINTEXT,SSL:SSL,CONTROLLER:SASL_PLAINTEXT
inter.broker.listener.name=SASL_SSL
controller.listener.names=CONTROLLER
sasl.enabled.mechanisms=SCRAM-SHA-512,SCRAM-SHA-256,PLAIN,GSSAPI
sasl.mechanism.inter.broker.protocol=GSSAPI
sasl.mechanism.controller.protocol=GSSAPI
listener.name.controller.sasl.enabled.mechanisms=GSSAPI
sasl.kerberos.service.name=kafka
listener.name.controller.gssapi.sasl.jaas.config=$gss
ssl.keystore.type=PKCS12
ssl.keystore.location=$SEC_DIR/tls/server.p12
ssl.keystore.password=$sp
ssl.key.password=$sp
ssl.truststore.type=PKCS12
ssl.truststore.location=$SEC_DIR/tls/truststore.p12
ssl.truststore.password=$sp
listener.name.ssl.ssl.client.auth=required
ssl.principal.mapping.rules=RULE:^CN=([^,]+)\$/\$1/,DEFAULT
authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer
super.users=User:kafka
allow.everyone.if.no.acl.found=false
$(kafka_single_node_props "$d/data" false)
EOF
		for l in sasl_ssl sasl_plaintext; do
			cat >>"$d/conf/server.properties" <<EOF
listener.name.$l.gssapi.sasl.jaas.config=$gss
listener.name.$l.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
listener.name.$l.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
listener.name.$l.plain.sasl.jaas.config=$plain
EOF
		done
	)
	te_log4j2 "$d/conf/log4j2.properties" info
}

# sec_kafka_client_conf: conf/kafka-USER-MODE.properties for every test user and mode,
# and conf/kafka-admin.properties (the superuser kafka, GSSAPI). Modes:
#   scram (SASL_SSL SCRAM-SHA-512), scram256 (SASL_SSL SCRAM-SHA-256), plain (SASL_SSL
#   PLAIN), gssapi (SASL_SSL GSSAPI, keytab), plaintext-scram (SASL_PLAINTEXT
#   SCRAM-SHA-512, port 28091), ssl (SSL, client certificate in USER.jks, JKS trust
#   store), ssl-p12 (the same in PKCS12), ssl-pem (the same as PEM files, encrypted key).
# They hold passwords (mode 0600), as a user's client.properties does.
sec_kafka_client_conf() {
	local c=$SEC_DIR/conf t=$SEC_DIR/tls sp u pw tls_jks
	sp=$(cat "$(sec_secret store.password)")
	mkdir -p "$c"
	tls_jks="ssl.truststore.location=$t/truststore.jks
ssl.truststore.password=$sp
ssl.truststore.type=JKS"
	(
		umask 077
		for u in $SEC_USERS; do
			pw=$(cat "$(sec_secret "$u.password")")
			cat "$t/$u.enc.key" "$t/$u.pem" >"$t/$u.keystore.pem"
			printf '%s\n' "bootstrap.servers=$SEC_KAFKA_BOOTSTRAP" security.protocol=SASL_SSL sasl.mechanism=SCRAM-SHA-512 \
				"sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"$u\" password=\"$pw\";" \
				"$tls_jks" >"$c/kafka-$u-scram.properties"
			printf '%s\n' "bootstrap.servers=$SEC_KAFKA_BOOTSTRAP" security.protocol=SASL_SSL sasl.mechanism=SCRAM-SHA-256 \
				"sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"$u\" password=\"$pw\";" \
				"$tls_jks" >"$c/kafka-$u-scram256.properties"
			printf '%s\n' "bootstrap.servers=$SEC_KAFKA_BOOTSTRAP" security.protocol=SASL_SSL sasl.mechanism=PLAIN \
				"sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"$u\" password=\"$pw\";" \
				"$tls_jks" >"$c/kafka-$u-plain.properties"
			printf '%s\n' "bootstrap.servers=$SEC_KAFKA_BOOTSTRAP" security.protocol=SASL_SSL sasl.mechanism=GSSAPI \
				sasl.kerberos.service.name=kafka "sasl.jaas.config=$(sec_jaas_krb5 "$(sec_principal "$u")" "$(sec_keytab "$u")")" \
				"$tls_jks" >"$c/kafka-$u-gssapi.properties"
			printf '%s\n' bootstrap.servers=localhost:28091 security.protocol=SASL_PLAINTEXT sasl.mechanism=SCRAM-SHA-512 \
				"sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"$u\" password=\"$pw\";" \
				>"$c/kafka-$u-plaintext-scram.properties"
			printf '%s\n' bootstrap.servers=localhost:28093 security.protocol=SSL \
				"ssl.keystore.location=$t/$u.jks" "ssl.keystore.password=$sp" "ssl.key.password=$sp" ssl.keystore.type=JKS \
				"$tls_jks" >"$c/kafka-$u-ssl.properties"
			printf '%s\n' bootstrap.servers=localhost:28093 security.protocol=SSL \
				"ssl.keystore.location=$t/$u.p12" "ssl.keystore.password=$sp" ssl.keystore.type=PKCS12 \
				"ssl.truststore.location=$t/truststore.p12" "ssl.truststore.password=$sp" ssl.truststore.type=PKCS12 \
				>"$c/kafka-$u-ssl-p12.properties"
			printf '%s\n' bootstrap.servers=localhost:28093 security.protocol=SSL \
				"ssl.keystore.location=$t/$u.keystore.pem" "ssl.key.password=$sp" ssl.keystore.type=PEM \
				"ssl.truststore.location=$t/ca.pem" ssl.truststore.type=PEM >"$c/kafka-$u-ssl-pem.properties"
		done
		printf '%s\n' "bootstrap.servers=$SEC_KAFKA_BOOTSTRAP" security.protocol=SASL_SSL sasl.mechanism=GSSAPI \
			sasl.kerberos.service.name=kafka "sasl.jaas.config=$(sec_jaas_krb5 "$(sec_principal kafka)" "$(sec_keytab kafka)")" \
			"$tls_jks" >"$c/kafka-admin.properties"
	)
}

# sec_kafka_admin [--as PROPS] COMMAND ARGS... | -: java/SecureKafkaAdmin.java with the
# superuser's properties (or PROPS), commands as arguments or (-) on stdin.
sec_kafka_admin() {
	local props=$SEC_DIR/conf/kafka-admin.properties
	if [ "${1:-}" = --as ]; then
		props=$2
		shift 2
	fi
	te_check_java
	te_classpath kafka kafka.version "$TE_KAFKA_VERSIONS"
	te_javac secure-kafka-admin "$TE_CP" "$TE_DIR/java/AdminTool.java" "$TE_DIR/java/SecureKafkaAdmin.java"
	sec_java_krb
	mkdir -p "$SEC_DIR/tools"
	te_log4j2 "$SEC_DIR/tools/log4j2.properties" error
	"$TE_JAVA" "${SEC_KRB_JFLAGS[@]}" "${TE_TMP_JFLAGS[@]}" -Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC \
		-Djava.net.preferIPv4Stack=true "-Djava.io.tmpdir=$(sec_tool_tmp)" \
		-Dlog4j2.configurationFile="$SEC_DIR/tools/log4j2.properties" \
		-cp "$TE_CLASSES:$TE_CP" SecureKafkaAdmin "$props" "$@"
}

# sec_kafka_setup: SCRAM users, jason's ACLs, and a login check for each way in.
sec_kafka_setup() {
	local u c=$SEC_DIR/conf p=$SEC_KAFKA_PREFIX
	{
		for u in $SEC_USERS; do
			echo "scram-user $u $(sec_secret "$u.password") SCRAM-SHA-512 SCRAM-SHA-256"
		done
		echo "allow User:jason topic $p prefixed ALL"
		echo "allow User:jason group $p prefixed ALL"
		echo "allow User:jason transactional-id $p prefixed ALL"
		echo "allow User:jason cluster kafka-cluster literal IDEMPOTENT_WRITE DESCRIBE"
		for u in $SEC_USERS; do
			for m in ${SEC_KAFKA_CHECK_MODES:-scram scram256 plain gssapi plaintext-scram ssl ssl-p12 ssl-pem}; do
				echo "check $c/kafka-$u-$m.properties 60"
			done
		done
	} | sec_kafka_admin - >"$SEC_DIR/kafka/setup.out" 2>&1 || {
		te_log "secure kafka: the admin steps failed:"
		tail -n 10 "$SEC_DIR/kafka/setup.out" >&2
		return 1
	}
}

sec_kafka_up() {
	local t0=$SECONDS d=$SEC_DIR/kafka storage jar
	if sec_alive kafka; then
		sec_wait_nodes "$SEC_TIMEOUT" kafka || return 1
		te_log "secure kafka: up (pid $(sec_pid kafka)) on $SEC_KAFKA_BOOTSTRAP"
		return 0
	fi
	sec_down_nodes kafka >/dev/null 2>&1
	sec_free_ports kafka || return 1
	te_check_java
	te_classpath kafka kafka.version "$TE_KAFKA_VERSIONS"
	mkdir -p "$d/tmp"
	sec_kafka_props
	sec_kafka_client_conf
	sec_java_krb
	storage=kafka.tools.StorageTool
	jar=$(tr ':' '\n' <<<"$TE_CP" | grep '/kafka_2.13-[^/]*\.jar$' | head -n 1)
	if [ -n "$jar" ] && ! unzip -qq -l "$jar" kafka/tools/StorageTool.class >/dev/null 2>&1; then
		storage=org.apache.kafka.tools.StorageTool
	fi
	if ! "$TE_JAVA" "${TE_TMP_JFLAGS[@]}" -Djava.io.tmpdir="$d/tmp" -Xmx256m -XX:TieredStopAtLevel=1 -Djava.net.preferIPv4Stack=true \
		-Dlog4j2.configurationFile="$d/conf/log4j2.properties" -cp "$TE_CP" \
		"$storage" format -t "$SEC_KAFKA_CLUSTER_ID" -c "$d/conf/server.properties" >"$d/format.out" 2>&1; then
		te_log "secure kafka: storage format failed:"
		tail -n 20 "$d/format.out" >&2
		return 1
	fi
	sec_define kafka "$TE_JAVA" -Dgobench.testenv=secure-kafka "${SEC_KRB_JFLAGS[@]}" "${TE_TMP_JFLAGS[@]}" \
		-Xms64m "-Xmx$SEC_KAFKA_HEAP" -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 \
		-XX:+ExplicitGCInvokesConcurrent -XX:MaxInlineLevel=15 -Djava.awt.headless=true -Djava.net.preferIPv4Stack=true \
		"-Djava.io.tmpdir=$d/tmp" -Dlog4j2.configurationFile="$d/conf/log4j2.properties" -Dkafka.logs.dir="$d" \
		-cp "$TE_CP" kafka.Kafka "$d/conf/server.properties"
	sec_spawn kafka
	sec_wait_nodes "$SEC_TIMEOUT" kafka || return 1
	sec_kafka_setup || return 1
	te_log "secure kafka $TE_VERSION: SASL_SSL $SEC_KAFKA_BOOTSTRAP (SCRAM-SHA-512/256, PLAIN, GSSAPI), SASL_PLAINTEXT localhost:28091, SSL localhost:28093, in $((SECONDS - t0)) s (format included), RSS $(sec_rss_total kafka) MiB"
}
