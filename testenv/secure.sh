#!/usr/bin/env bash
# testenv/secure.sh: the admin side of testenv's secured servers (testenv/up.sh --secure),
# for tests (through the Go package testenv/secure) and by hand. No command prints a
# secret.
#
#   secure.sh ports                       every node and its ports (no servers needed)
#   secure.sh info                        NAME=VALUE lines: realm, KDC, krb5.conf, conf dir,
#                                         keytab and password-file paths (not the passwords)
#   secure.sh kinit USER                  kinit -kt keytabs/USER.keytab into ccache/USER;
#                                         prints the cache path (for KRB5CCNAME)
#   secure.sh env [USER]                  export lines for a shell: KRB5_CONFIG, and with USER
#                                         a fresh ticket's KRB5CCNAME (eval "$(secure.sh env jason)")
#   secure.sh hbase [--as USER|ticket] COMMAND ARGS...|-
#                                         HBase admin as hbase (default) or USER from the keytab,
#                                         or from the ticket cache KRB5CCNAME (java/SecureHBaseAdmin.java:
#                                         create-namespace, grant, revoke, perms, create, drop,
#                                         regions, whoami, wait-ready); exit 3 = FORBIDDEN
#   secure.sh kafka [--as USER-MODE] COMMAND ARGS...|-
#                                         Kafka admin as the superuser kafka (GSSAPI) or with
#                                         conf/kafka-USER-MODE.properties (java/SecureKafkaAdmin.java:
#                                         scram-user, allow, deny-all, acls, create, delete, check)
#   secure.sh hdfs [--as USER|ticket] "FSSHELL COMMAND"...
#                                         hdfs dfs commands (e.g. "-ls /") as nn (the superuser,
#                                         default) or USER (java/SecureFsShell.java)
#
# USER: jason (granted), nogrant (no grants), or a service (nn, dn, HTTP, hbase,
# zookeeper, kafka). Exit 0 on success, 1 on failure, 2 on bad usage.
set -u -o pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
for f in "$TE_DIR"/srv/secure-*.sh; do . "$f"; done

usage() {
	printf '[testenv] %s\n' "$*" >&2
	sed -n '2,28p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

need_up() {
	[ -s "$SEC_DIR/krb5.conf" ] && sec_alive kdc || te_die "the secured testenv is not up (no KDC in $SEC_DIR); start it with testenv/up.sh --secure $1"
}

check_user() {
	[ -f "$(sec_keytab "$1")" ] || usage "unknown user \"$1\" (users: $SEC_USERS; services: $SEC_SERVICES)"
}

[ $# -gt 0 ] || usage "no command"
cmd=$1
shift
case $cmd in
ports)
	for n in $(sec_nodes $SEC_SYSTEMS); do echo "$n $(sec_ports "$n")"; done
	;;
info)
	echo "realm=$SEC_REALM"
	echo "kdc=$SEC_KDC"
	echo "krb5_conf=$SEC_DIR/krb5.conf"
	echo "conf_dir=$SEC_DIR/conf"
	echo "keytab_dir=$SEC_DIR/keytabs"
	echo "ccache_dir=$SEC_DIR/ccache"
	echo "tls_dir=$SEC_DIR/tls"
	echo "users=$SEC_USERS"
	echo "services=$SEC_SERVICES"
	echo "namespace=$SEC_NAMESPACE"
	echo "kafka_prefix=$SEC_KAFKA_PREFIX"
	for u in $SEC_USERS; do echo "password_file.$u=$SEC_DIR/secrets/$u.password"; done
	echo "store_password_file=$SEC_DIR/secrets/store.password"
	;;
kinit)
	[ $# -eq 1 ] || usage "kinit USER"
	need_up kdc
	check_user "$1"
	sec_kinit "$1"
	;;
env)
	need_up kdc
	echo "export KRB5_CONFIG=$SEC_DIR/krb5.conf"
	if [ $# -gt 0 ]; then
		check_user "$1"
		cc=$(sec_kinit "$1") || exit 1
		echo "export KRB5CCNAME=$cc"
	fi
	;;
hbase)
	need_up hbase
	[ $# -gt 0 ] || usage "hbase [--as USER|ticket] COMMAND ARGS... | -"
	[ "${1:-}" = --as ] && [ "${2:-}" != ticket ] && check_user "${2:-}"
	sec_hbase_admin "$@"
	;;
kafka)
	need_up kafka
	[ $# -gt 0 ] || usage "kafka [--as USER-MODE] COMMAND ARGS... | -"
	if [ "${1:-}" = --as ]; then
		p=$SEC_DIR/conf/kafka-${2:-}.properties
		[ -f "$p" ] || usage "no client properties $p"
		shift 2
		set -- --as "$p" "$@"
	fi
	sec_kafka_admin "$@"
	;;
hdfs)
	need_up hdfs
	[ $# -gt 0 ] || usage "hdfs [--as USER|ticket] \"FSSHELL COMMAND\"..."
	[ "${1:-}" = --as ] && [ "${2:-}" != ticket ] && check_user "${2:-}"
	sec_hdfs_shell "$@"
	;;
*) usage "unknown command \"$cmd\"" ;;
esac
