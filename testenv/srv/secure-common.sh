# shellcheck shell=bash
# testenv/srv/secure-common.sh: the secured single-node servers of testenv
# (testenv/up.sh --secure ...): a Kerberos KDC (MIT krb5kdc from Debian's packages),
# a CA with keystores, and the node life cycle of Kerberized HDFS, HBase with ACLs and
# Kafka with SASL/TLS and ACLs (srv/secure-{hdfs,hbase,kafka}.sh). Sourced after lib.sh
# by up.sh, down.sh, status.sh and secure.sh; defines variables and functions only.
#
# Everything lives in $SEC_DIR ($GOBENCH_RUN/secure): krb5.conf, kdc/ (database, log),
# keytabs/, secrets/ (passwords, mode 0700), tls/ (CA, keystores, PEM copies), conf/
# (the client configuration: core-site.xml, hdfs-site.xml, hbase-site.xml, Kafka client
# properties, JAAS files), ccache/ (ticket caches), and one directory per node with
# conf/, data/, tmp/, out (its log) and pid. No secret is ever printed: passwords go
# from files to the tools through files or stdin, never through argv or output.
# Ports: 28xxx, apart from the single-node servers (9xxx, 2181, 16xxx) and the cluster
# (19xxx, 22181, 26xxx, 29xxx), so that all three can run at once.

SEC_DIR=$TE_RUN/secure
SEC_LOCK=$TE_RUN/secure.lock
SEC_REALM=GOBENCH.TEST
# Service principals are SERVICE/localhost@GOBENCH.TEST: the servers bind 127.0.0.1,
# whose canonical name is localhost, and the client configurations name localhost.
SEC_HOST=localhost
SEC_KDC=127.0.0.1:28088
SEC_SYSTEMS="kdc hdfs hbase kafka"
# Test users: jason is granted (HBase RWXCA on @ycsb_hbase_ns, Kafka ACLs on the gobench
# prefixes, HDFS home /user/jason and /benchmarks), nogrant is a valid principal and SCRAM
# user with no grant anywhere.
SEC_USERS="jason nogrant"
SEC_NAMESPACE=ycsb_hbase_ns
# Service principal name -> keytab file name (keytabs/NAME.keytab).
SEC_SERVICES="nn dn HTTP hbase zookeeper kafka"
# Quality of protection the servers accept (clients choose one of them).
SEC_QOP=${GOBENCH_SECURE_QOP:-authentication,integrity,privacy}

# Heaps (small on purpose; GOBENCH_SECURE_* override).
SEC_NN_HEAP=${GOBENCH_SECURE_NN_HEAP:-256m}
SEC_DN_HEAP=${GOBENCH_SECURE_DN_HEAP:-192m}
SEC_ZK_HEAP=${GOBENCH_SECURE_ZK_HEAP:-128m}
SEC_MASTER_HEAP=${GOBENCH_SECURE_MASTER_HEAP:-320m}
SEC_RS_HEAP=${GOBENCH_SECURE_RS_HEAP:-512m}
SEC_KAFKA_HEAP=${GOBENCH_SECURE_KAFKA_HEAP:-512m}
SEC_TIMEOUT=${GOBENCH_UP_TIMEOUT:-240}

# sec_nodes SYSTEM...: node names, in start order.
sec_nodes() {
	local s
	for s in "$@"; do
		case $s in
		kdc) echo kdc ;;
		hdfs) echo hdfs-nn hdfs-dn ;;
		hbase) echo hbase-zk hbase-master hbase-rs ;;
		kafka) echo kafka ;;
		esac
	done
}

# sec_ports NODE: the node's listening ports on 127.0.0.1; the first is its address.
#   kdc 28088 (TCP and UDP); hdfs-nn 28000 RPC, 28470 HTTPS; hdfs-dn 28010 data (SASL),
#   28475 HTTPS, 28011 IPC; hbase-zk 28181; hbase-master 28600; hbase-rs 28620; kafka
#   28092 SASL_SSL, 28091 SASL_PLAINTEXT, 28093 SSL (client certificates), 28095 controller.
sec_ports() {
	case $1 in
	kdc) echo 28088 ;;
	hdfs-nn) echo 28000 28470 ;;
	hdfs-dn) echo 28010 28475 28011 ;;
	hbase-zk) echo 28181 ;;
	hbase-master) echo 28600 ;;
	hbase-rs) echo 28620 ;;
	kafka) echo 28092 28091 28093 28095 ;;
	esac
}

sec_port() {
	local p
	read -r p _ <<<"$(sec_ports "$1")"
	echo "$p"
}

sec_system() {
	case $1 in
	kdc) echo kdc ;;
	hdfs-nn | hdfs-dn) echo hdfs ;;
	hbase-zk | hbase-master | hbase-rs) echo hbase ;;
	kafka) echo kafka ;;
	esac
}

# sec_lock: exclusive lock for up/down --secure (fd 6, at most 600 s of waiting).
sec_lock() {
	mkdir -p "$TE_RUN"
	exec 6>"$SEC_LOCK"
	if ! flock -n 6; then
		te_log "waiting (up to 600 s) for another testenv --secure up/down to finish"
		flock -w 600 6 || te_die "still locked after 600 s: $SEC_LOCK"
	fi
}

# sec_secret NAME: the path of secrets/NAME (a random password, made on first use,
# mode 0600). Prints the path only.
sec_secret() {
	local f=$SEC_DIR/secrets/$1
	if [ ! -s "$f" ]; then
		mkdir -p "$SEC_DIR/secrets"
		chmod 700 "$SEC_DIR/secrets"
		(umask 077 && head -c 24 /dev/urandom | base64 | tr -d '/+=\n' | cut -c1-24 >"$f")
	fi
	echo "$f"
}

# sec_keytab NAME: path of the keytab of a service (nn, hbase, ...) or user (jason).
sec_keytab() { echo "$SEC_DIR/keytabs/$1.keytab"; }

# sec_principal NAME: the full principal of a service or user.
sec_principal() {
	case " $SEC_SERVICES " in
	*" $1 "*) echo "$1/$SEC_HOST@$SEC_REALM" ;;
	*) echo "$1@$SEC_REALM" ;;
	esac
}

# sec_krb_env: KRB5_CONFIG for the MIT tools (and Java's -Djava.security.krb5.conf).
sec_krb_env() {
	export KRB5_CONFIG=$SEC_DIR/krb5.conf
	unset KRB5_KDC_PROFILE
}

# sec_kinit NAME: a ticket for NAME (user or service) from its keytab into
# ccache/NAME; prints the cache path. The caller sets KRB5CCNAME to it.
sec_kinit() {
	local cc=$SEC_DIR/ccache/$1 err
	mkdir -p "$SEC_DIR/ccache"
	sec_krb_env
	if ! err=$(KRB5CCNAME=$cc kinit -kt "$(sec_keytab "$1")" "$(sec_principal "$1")" 2>&1); then
		te_log "kinit -kt $(sec_keytab "$1") $(sec_principal "$1") failed: $err"
		return 1
	fi
	echo "$cc"
}

# sec_java_krb: JVM flags every secured JVM gets (the KDC's krb5.conf; the krb5 internals
# that Hadoop's KerberosUtil reads by reflection, which Java 17 hides).
sec_java_krb() {
	SEC_KRB_JFLAGS=(-Djava.security.krb5.conf="$SEC_DIR/krb5.conf" -Dsun.security.krb5.disableReferrals=true
		--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED
		--add-exports=java.security.jgss/sun.security.krb5.internal=ALL-UNNAMED
		--add-opens=java.security.jgss/sun.security.krb5=ALL-UNNAMED)
}

# --- node life cycle (as the cluster's: a cmd file per node, pid checked by marker) ---

sec_tag() { echo "secure-$1"; }

# sec_alive NODE: the node's recorded pid runs and is ours: a JVM with
# -Dgobench.testenv=secure-NODE, or (kdc) a krb5kdc whose KRB5_KDC_PROFILE is ours.
sec_alive() {
	local pidf=$SEC_DIR/$1/pid pid
	if [ "$1" = kdc ]; then
		[ -f "$pidf" ] || return 1
		pid=$(cat "$pidf")
		[ -n "$pid" ] && [ -r "/proc/$pid/environ" ] || return 1
		[ "$(basename "$(readlink "/proc/$pid/exe" 2>/dev/null)")" = krb5kdc ] || return 1
		tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qxF "KRB5_KDC_PROFILE=$SEC_DIR/kdc/kdc.conf"
		return
	fi
	te_pid_alive "$pidf" "secure-$1"
}

sec_pid() { cat "$SEC_DIR/$1/pid" 2>/dev/null; }

# sec_define NODE CMD...: record the node's command line.
sec_define() {
	local n=$1
	shift
	mkdir -p "$SEC_DIR/$n"
	printf '%s\0' "$@" >"$SEC_DIR/$n/cmd"
}

# sec_spawn NODE: start the recorded command detached, append to its log, record its pid.
sec_spawn() {
	local n=$1 d=$SEC_DIR/$1 pid i args
	mapfile -d '' -t args <"$d/cmd"
	mkdir -p "$d/tmp"
	touch "$d/out"
	stat -c %s "$d/out" >"$d/logoff"
	printf '\n==== testenv: start %s at %s ====\n' "$n" "$(date '+%F %T')" >>"$d/out"
	te_spawn "$d/out" "${args[@]}"
	pid=$!
	disown "$pid" 2>/dev/null
	echo "$pid" >"$d/pid"
	for i in $(seq 1 50); do
		sec_alive "$n" && break
		[ -d "/proc/$pid" ] || break
		sleep 0.1
	done
}

# sec_since NODE ERE: the log lines written since the node's last start match ERE.
sec_since() {
	local d=$SEC_DIR/$1 off
	off=$(cat "$d/logoff" 2>/dev/null || echo 0)
	grep -Eq -- "$2" <(tail -c +"$((off + 1))" "$d/out" 2>/dev/null)
}

# sec_listening PORT: something listens on 127.0.0.1:PORT (asked of the kernel, not by
# connecting: a probe connection makes the DataNode log a failed SASL handshake).
sec_listening() {
	[ -n "$(ss -Hltn "sport = :$1" 2>/dev/null)" ]
}

# sec_node_ready NODE: its port listens and its log says it is serving.
sec_node_ready() {
	sec_listening "$(sec_port "$1")" || return 1
	case $1 in
	kdc) return 0 ;;
	hdfs-nn) sec_since "$1" 'Leaving safe mode|Safe mode is OFF' ;;
	hdfs-dn) sec_since "$1" 'Successfully sent block report' ;;
	hbase-zk) return 0 ;;
	hbase-master) sec_since "$1" 'Master has completed initialization' ;;
	hbase-rs) sec_since "$1" 'Serving as ' ;;
	kafka) sec_since "$1" 'Kafka Server started' ;;
	esac
}

sec_tail() {
	te_log "last 40 lines of $SEC_DIR/$1/out:"
	tail -n 40 "$SEC_DIR/$1/out" 2>/dev/null | cut -c1-300 >&2
}

# sec_wait_nodes SECONDS NODE...: wait until every node is ready (log tail on failure).
sec_wait_nodes() { te_wait_nodes sec "secure " "$@"; }

# sec_kill NODE: SIGKILL and wait until gone (10 s).
sec_kill() { te_kill_node sec "secure " "$SEC_DIR" "$1"; }

# sec_free_ports NODE...: fail, naming the owner, if a port of these nodes is taken.
sec_free_ports() { te_free_ports sec "secure " "this testenv" "$@"; }

# sec_rss_total NODE...: summed RSS in MiB of the running nodes.
sec_rss_total() { te_rss_total sec "$SEC_DIR" "$@"; }

# sec_status_line NODE: one line: name, state, pid, RSS, address, log.
sec_status_line() {
	local st=down
	sec_alive "$1" && st=up
	te_status_line sec "$SEC_DIR" "$1" "$st"
}

# sec_tool_tmp: java.io.tmpdir of the one-shot helper JVMs.
sec_tool_tmp() {
	mkdir -p "$SEC_DIR/tmp"
	echo "$SEC_DIR/tmp"
}

# --- the MIT Kerberos tools ---

# sec_krb5_tools: krb5kdc, kdb5_util, kadmin.local, kinit, klist; installed from
# Debian's packages (krb5-kdc, krb5-admin-server, krb5-user) when missing and we are root
# (GOBENCH_SECURE_INSTALL=0: never install). Services are not started by the install.
sec_krb5_tools() {
	local need=() t
	for t in krb5kdc kdb5_util kadmin.local kinit klist kdestroy openssl keytool; do
		command -v "$t" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin command -v "$t" >/dev/null 2>&1 || need+=("$t")
	done
	case :$PATH: in *:/usr/sbin:*) ;; *) PATH=$PATH:/usr/sbin ;; esac
	[ ${#need[@]} -eq 0 ] && return 0
	if [ "${GOBENCH_SECURE_INSTALL:-1}" = 0 ] || [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
		te_log "secure: missing ${need[*]} (Debian/Ubuntu: apt-get install krb5-kdc krb5-admin-server krb5-user openssl)"
		return 1
	fi
	te_log "secure: installing krb5-kdc krb5-admin-server krb5-user (for ${need[*]})"
	# Debian's postinst would start the system KDC; a policy-rc.d that says no (as in
	# Debian's container images) keeps it from running. Ours is removed afterwards.
	local ours=
	if [ ! -e /usr/sbin/policy-rc.d ]; then
		printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d && ours=1
	fi
	local log=$TE_RUN/secure-apt.log rc=0
	{ DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends krb5-kdc krb5-admin-server krb5-user openssl; } >"$log" 2>&1 || rc=1
	[ -n "$ours" ] && rm -f /usr/sbin/policy-rc.d
	if [ $rc != 0 ]; then
		te_log "secure: apt-get install failed (log $log):"
		tail -n 15 "$log" >&2
		return 1
	fi
	for t in "${need[@]}"; do
		command -v "$t" >/dev/null 2>&1 || { te_log "secure: $t still missing after the install"; return 1; }
	done
}

# sec_kadmin: run kadmin.local with the commands on stdin; its output (which echoes
# the commands, passwords included) goes to secrets/kadmin.log only.
sec_kadmin() {
	local log=$SEC_DIR/secrets/kadmin.log
	(umask 077 && KRB5_KDC_PROFILE=$SEC_DIR/kdc/kdc.conf KRB5_CONFIG=$SEC_DIR/krb5.conf \
		kadmin.local -r "$SEC_REALM" >>"$log" 2>&1)
	# kadmin.local exits 0 even when a command fails; its errors name the command.
	if grep -qE 'while (creating|adding|getting)|not found|Cannot|denied' "$log"; then
		te_log "secure kdc: kadmin.local reported errors (passwords removed):"
		grep -E 'while |not found|Cannot|denied' "$log" | sed -E 's/-pw [^ ]+/-pw ***/g' | head -n 10 >&2
		return 1
	fi
}

# sec_kdc_conf: kdc.conf (the KDC's profile) and krb5.conf (for every client: the MIT
# tools, Java, gokrb5). TCP only (udp_preference_limit 1), AES only, no DNS.
sec_kdc_conf() {
	local k=$SEC_DIR/kdc
	mkdir -p "$k"
	cat >"$k/kdc.conf" <<EOF
[kdcdefaults]
 kdc_listen = $SEC_KDC
 kdc_tcp_listen = $SEC_KDC
[realms]
 $SEC_REALM = {
  database_name = $k/principal
  key_stash_file = $k/stash
  acl_file = $k/kadm5.acl
  max_life = 24h 0m 0s
  max_renewable_life = 7d 0h 0m 0s
  supported_enctypes = aes256-cts-hmac-sha1-96:normal aes128-cts-hmac-sha1-96:normal
 }
[logging]
 kdc = FILE:$k/kdc.log
 default = FILE:$k/kdc.log
EOF
	: >"$k/kadm5.acl"
	cat >"$SEC_DIR/krb5.conf" <<EOF
# testenv --secure: the KDC of realm $SEC_REALM on $SEC_KDC (TCP).
[libdefaults]
 default_realm = $SEC_REALM
 dns_lookup_realm = false
 dns_lookup_kdc = false
 dns_canonicalize_hostname = false
 rdns = false
 udp_preference_limit = 1
 ticket_lifetime = 24h
 renew_lifetime = 7d
 forwardable = true
 default_tkt_enctypes = aes256-cts-hmac-sha1-96 aes128-cts-hmac-sha1-96
 default_tgs_enctypes = aes256-cts-hmac-sha1-96 aes128-cts-hmac-sha1-96
 permitted_enctypes = aes256-cts-hmac-sha1-96 aes128-cts-hmac-sha1-96

[realms]
 $SEC_REALM = {
  kdc = $SEC_KDC
 }

[domain_realm]
 localhost = $SEC_REALM
 .localhost = $SEC_REALM
 127.0.0.1 = $SEC_REALM
EOF
}

# sec_principals: the realm's database, every principal, every keytab (keytabs/NAME.keytab).
# Services get random keys; users a random password (secrets/USER.password, also their
# SCRAM password) and a keytab of the same key (ktadd -norandkey).
sec_principals() {
	local s u
	(umask 077 && mkdir -p "$SEC_DIR/keytabs")
	# The master key comes from stdin (twice), never argv.
	local mk
	mk=$(cat "$(sec_secret kdc-master.password)")
	if ! printf '%s\n%s\n' "$mk" "$mk" | KRB5_KDC_PROFILE=$SEC_DIR/kdc/kdc.conf KRB5_CONFIG=$SEC_DIR/krb5.conf \
		kdb5_util create -s -r "$SEC_REALM" >"$SEC_DIR/kdc/create.out" 2>&1; then
		te_log "secure kdc: kdb5_util create failed:"
		grep -v 'master key' "$SEC_DIR/kdc/create.out" | tail -n 10 >&2
		return 1
	fi
	{
		for s in $SEC_SERVICES; do
			echo "addprinc -randkey $(sec_principal "$s")"
			echo "ktadd -k $(sec_keytab "$s") $(sec_principal "$s")"
		done
		for u in $SEC_USERS; do
			echo "addprinc -pw $(cat "$(sec_secret "$u.password")") $(sec_principal "$u")"
			echo "ktadd -k $(sec_keytab "$u") -norandkey $(sec_principal "$u")"
		done
	} | sec_kadmin || return 1
	chmod 600 "$SEC_DIR"/keytabs/*.keytab
}

# --- TLS: a CA and the stores made from it ---

# sec_tls: tls/ca.pem (+ ca.key), a server certificate for localhost / 127.0.0.1 in
# server.p12, server.jks and PEM (server.pem, server.key), trust stores truststore.jks and
# truststore.p12 (the CA), and per user a client certificate CN=USER in USER.p12, USER.jks,
# USER.pem + USER.key (PKCS#8, unencrypted) + USER.enc.key (PKCS#8, encrypted with the
# store password, PBE-SHA1-3DES: Java's Kafka client reads no PBES2 key, "PBES2
# SecretKeyFactory not available"). Every store has the password secrets/store.password.
sec_tls() {
	local t=$SEC_DIR/tls sp name log=$SEC_DIR/tls/openssl.log
	sp=$(sec_secret store.password)
	(umask 077 && mkdir -p "$t")
	: >"$log"
	{
		openssl req -x509 -newkey rsa:2048 -nodes -keyout "$t/ca.key" -out "$t/ca.pem" -days 30 \
			-subj "/CN=gobench testenv CA" -addext basicConstraints=critical,CA:TRUE \
			-addext keyUsage=critical,keyCertSign,cRLSign &&
			sec_tls_cert server "/CN=localhost" "subjectAltName=DNS:localhost,IP:127.0.0.1
extendedKeyUsage=serverAuth,clientAuth" &&
			for name in $SEC_USERS; do
				sec_tls_cert "$name" "/CN=$name" "extendedKeyUsage=clientAuth" || exit 1
			done
	} >>"$log" 2>&1 || {
		te_log "secure tls: openssl failed (log $log):"
		tail -n 10 "$log" >&2
		return 1
	}
	rm -f "$t/truststore.jks" "$t/truststore.p12"
	keytool -importcert -noprompt -alias gobench-ca -file "$t/ca.pem" -keystore "$t/truststore.jks" \
		-storetype JKS -storepass:file "$sp" >>"$log" 2>&1 &&
		keytool -importcert -noprompt -alias gobench-ca -file "$t/ca.pem" -keystore "$t/truststore.p12" \
			-storetype PKCS12 -storepass:file "$sp" >>"$log" 2>&1 || {
		te_log "secure tls: keytool failed (log $log):"
		tail -n 10 "$log" >&2
		return 1
	}
	chmod 600 "$t"/*.key "$t"/*.p12 "$t"/*.jks
}

# sec_tls_cert NAME SUBJECT EXTENSIONS: key + CA-signed certificate, as PEM, PKCS12, JKS.
sec_tls_cert() {
	local t=$SEC_DIR/tls n=$1 sp
	sp=$(sec_secret store.password)
	openssl req -newkey rsa:2048 -nodes -keyout "$t/$n.key.tmp" -out "$t/$n.csr" -subj "$2" &&
		openssl x509 -req -in "$t/$n.csr" -CA "$t/ca.pem" -CAkey "$t/ca.key" -CAcreateserial \
			-out "$t/$n.pem" -days 30 -extfile <(printf '%s\n' "$3") &&
		openssl pkcs8 -topk8 -nocrypt -in "$t/$n.key.tmp" -out "$t/$n.key" &&
		openssl pkcs8 -topk8 -v1 PBE-SHA1-3DES -in "$t/$n.key.tmp" -out "$t/$n.enc.key" -passout "file:$sp" &&
		openssl pkcs12 -export -in "$t/$n.pem" -inkey "$t/$n.key" -certfile "$t/ca.pem" -name "$n" \
			-out "$t/$n.p12" -passout "file:$sp" &&
		rm -f "$t/$n.jks" &&
		keytool -importkeystore -noprompt -srckeystore "$t/$n.p12" -srcstoretype PKCS12 -srcstorepass:file "$sp" \
			-destkeystore "$t/$n.jks" -deststoretype JKS -deststorepass:file "$sp" &&
		rm -f "$t/$n.key.tmp" "$t/$n.csr"
}

# --- the KDC ---

sec_kdc_ready() {
	local cc
	sec_node_ready kdc || return 1
	cc=$(sec_kinit jason 2>/dev/null) || return 1
	KRB5CCNAME=$cc klist -s
}

sec_kdc_up() {
	local t0=$SECONDS
	if sec_alive kdc; then
		sec_wait_nodes "$SEC_TIMEOUT" kdc || return 1
		te_log "secure kdc: up (pid $(sec_pid kdc)) on $SEC_KDC, realm $SEC_REALM"
		return 0
	fi
	sec_krb5_tools || return 1
	sec_free_ports kdc || return 1
	# A fresh KDC: everything made from it (keytabs, stores, the servers) starts over.
	local n
	for n in $(sec_nodes hdfs hbase kafka); do
		if sec_alive "$n"; then
			te_log "secure: the KDC is down but $n runs; stopping the secured servers first"
			sec_down_nodes hdfs hbase kafka
			break
		fi
	done
	rm -rf "${SEC_DIR:?}"
	mkdir -p "$SEC_DIR/kdc" "$SEC_DIR/conf" "$SEC_DIR/ccache" "$SEC_DIR/tmp"
	chmod 700 "$SEC_DIR/ccache"
	sec_kdc_conf
	sec_principals || return 1
	sec_tls || return 1
	sec_define kdc env KRB5_KDC_PROFILE="$SEC_DIR/kdc/kdc.conf" KRB5_CONFIG="$SEC_DIR/krb5.conf" \
		"$(command -v krb5kdc)" -n -r "$SEC_REALM"
	sec_spawn kdc
	# krb5kdc is exec'd by env: same pid.
	sec_wait_nodes "$SEC_TIMEOUT" kdc || return 1
	local end=$((SECONDS + 30))
	until sec_kdc_ready; do
		[ $SECONDS -ge $end ] && { te_log "secure kdc: kinit -kt for jason does not work"; sec_tail kdc; tail -n 20 "$SEC_DIR/kdc/kdc.log" >&2; return 1; }
		sleep 0.5
	done
	te_log "secure kdc: realm $SEC_REALM on $SEC_KDC, $(echo $SEC_SERVICES | wc -w) service and $(echo $SEC_USERS | wc -w) user principals, keytabs in $SEC_DIR/keytabs, in $((SECONDS - t0)) s"
}

# --- up / down / status ---

# sec_up SYSTEM...: start the named systems (default all); the KDC first, always.
sec_up() {
	local s want=() rc=0 t0=$SECONDS
	for s in "$@"; do
		case $s in
		kdc | hdfs | hbase | kafka) ;;
		*) te_die "unknown secure system \"$s\" (allowed: kdc, hdfs, hbase, kafka)" ;;
		esac
	done
	[ $# -gt 0 ] || set -- $SEC_SYSTEMS
	for s in $SEC_SYSTEMS; do
		if [ $s = kdc ] || [[ " $* " == *" $s "* ]]; then want+=("$s"); fi
	done
	mkdir -p "$TE_RUN"
	sec_lock
	sec_kdc_up || { te_log "secure kdc: FAILED to start"; return 1; }
	# HDFS, HBase (root dir on the local disk) and Kafka need only the KDC: they start
	# side by side (GOBENCH_SECURE_PARALLEL=0: one after another). The classpaths are
	# resolved first, one at a time (Maven's local repository is shared).
	local pids=() i
	for s in "${want[@]}"; do
		case $s in
		hdfs) te_classpath hdfs-server hadoop.version "$TE_HADOOP_VERSIONS" ;;
		hbase) te_classpath hbase-server hbase.version "$TE_HBASE_VERSIONS" ;;
		kafka) te_classpath kafka kafka.version "$TE_KAFKA_VERSIONS" ;;
		esac
	done
	for s in "${want[@]}"; do
		[ $s = kdc ] && continue
		if [ "${GOBENCH_SECURE_PARALLEL:-1}" = 0 ]; then
			sec_up_one "$s" || rc=1
		else
			sec_up_one "$s" &
			pids+=($!)
		fi
	done
	for i in "${!pids[@]}"; do
		wait "${pids[$i]}" || rc=1
	done
	[ $rc = 0 ] && te_log "secure ${want[*]}: up in $((SECONDS - t0)) s; RSS $(sec_rss_total $(sec_nodes $SEC_SYSTEMS)) MiB"
	return $rc
}

# sec_up_one SYSTEM: sec_SYSTEM_up; when it fails, its nodes are killed (logs kept).
sec_up_one() {
	local s=$1 n
	"sec_${s}_up" && return 0
	te_log "secure $s: FAILED to start; stopping its nodes (logs kept in $SEC_DIR)"
	for n in $(sec_nodes "$s"); do sec_kill "$n"; done
	return 1
}

# sec_down_nodes SYSTEM...: SIGKILL the nodes and remove their directories.
sec_down_nodes() {
	local s n any
	for s in "$@"; do
		any=0
		for n in $(sec_nodes "$s"); do
			sec_kill "$n" && any=1
			rm -rf "${SEC_DIR:?}/$n"
		done
		if [ $any = 1 ]; then te_log "secure $s: stopped"; else te_log "secure $s: not running (nothing to stop)"; fi
	done
}

# sec_down SYSTEM...: stop the named systems (default: all, and then the whole run
# directory, keytabs and secrets included, goes). kdc stops everything.
sec_down() {
	local s want=()
	for s in "$@"; do
		case $s in
		kdc | hdfs | hbase | kafka) ;;
		*) te_die "unknown secure system \"$s\" (allowed: kdc, hdfs, hbase, kafka)" ;;
		esac
	done
	if [ $# -eq 0 ] || [[ " $* " == *" kdc "* ]]; then set -- hbase kafka hdfs kdc; fi
	mkdir -p "$TE_RUN"
	sec_lock
	for s in hbase kafka hdfs kdc; do
		[[ " $* " == *" $s "* ]] && want+=("$s")
	done
	sec_down_nodes "${want[@]}"
	[[ " ${want[*]} " == *" kdc "* ]] && rm -rf "${SEC_DIR:?}"
	return 0
}

sec_status() {
	local n rc=0 s
	for s in "$@"; do
		case $s in
		kdc | hdfs | hbase | kafka) ;;
		*) te_die "unknown secure system \"$s\" (allowed: kdc, hdfs, hbase, kafka)" ;;
		esac
	done
	[ $# -gt 0 ] || set -- $SEC_SYSTEMS
	for n in $(sec_nodes "$@"); do
		sec_status_line "$n"
		sec_alive "$n" || rc=1
	done
	return $rc
}
