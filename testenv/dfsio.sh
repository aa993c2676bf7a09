#!/usr/bin/env bash
# testenv/dfsio.sh [GENERIC -D OPTIONS] -write|-read|-clean [TestDFSIO ARGS...]
# Run Hadoop's TestDFSIO (org.apache.hadoop.fs.TestDFSIO from the
# hadoop-mapreduce-client-jobclient tests jar, same version as the testenv HDFS) against
# the testenv HDFS at hdfs://127.0.0.1:9000, with local MapReduce (LocalJobRunner, one
# map task per file, run in-process; with the default mapreduce.local.map.tasks.maximum=1
# the files are written/read one after another by one thread; -D
# mapreduce.local.map.tasks.maximum=N runs N at once). TestDFSIO's -seq mode is refused:
# in Hadoop 3.x it fails with a NullPointerException (sequentialTest calls doIO without
# opening the stream). Examples:
#   testenv/dfsio.sh -write -nrFiles 4 -size 64MB -resFile /tmp/dfsio.log
#   testenv/dfsio.sh -read  -nrFiles 4 -size 64MB -resFile /tmp/dfsio.log
#   testenv/dfsio.sh -D mapreduce.local.map.tasks.maximum=2 -write -nrFiles 4 -size 64MB
#   testenv/dfsio.sh -clean
# Files go under /benchmarks/TestDFSIO (-Dtest.build.data=... to change). Without -resFile
# the summary is appended to $GOBENCH_RUN/TestDFSIO_results.log (not ./).
# JVM options: DFSIO_JAVA_OPTS (default -Xmx1g).
set -u -o pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
[ $# -gt 0 ] || te_die "usage: testenv/dfsio.sh [-D k=v ...] -write|-read|-clean [-seq] [-nrFiles N] [-size 64MB] [-resFile F]"
for a in "$@"; do
	[ "$a" = -seq ] && te_die "-seq is broken in TestDFSIO 3.x (NullPointerException in WriteMapper.doIO); use the default local MapReduce mode, which with mapreduce.local.map.tasks.maximum=1 handles one file at a time"
done
te_port_open 9000 || te_die "HDFS is not reachable at 127.0.0.1:9000; start it with testenv/up.sh hdfs"
te_check_java
te_classpath hdfs-bench hadoop.version "$TE_HADOOP_VERSIONS"
conf=$TE_CACHE/conf/dfsio
mkdir -p "$conf" "$TE_RUN/dfsio-tmp"
te_xml_props "$conf/core-site.xml" fs.defaultFS=hdfs://127.0.0.1:9000 "hadoop.tmp.dir=$TE_RUN/dfsio-tmp"
te_xml_props "$conf/hdfs-site.xml" dfs.client.use.datanode.hostname=false
# Local MapReduce stages jobs in /tmp/hadoop/mapred/staging unless told otherwise; keep
# that, and the JVM's own temporary files, in the run dir (down.sh hdfs removes it).
te_xml_props "$conf/mapred-site.xml" mapreduce.framework.name=local \
	"mapreduce.jobtracker.staging.root.dir=file://$TE_RUN/dfsio-tmp/staging"
te_log4j1 "$conf/log4j.properties" WARN
# TestDFSIO prints its results through its logger at INFO.
echo 'log4j.logger.org.apache.hadoop.fs.TestDFSIO=INFO' >>"$conf/log4j.properties"
# TestDFSIO appends its summary to ./TestDFSIO_results.log unless -resFile is given: keep it
# out of the working tree.
res=(-resFile "$TE_RUN/TestDFSIO_results.log")
for a in "$@"; do
	[ "$a" = -resFile ] && res=()
done
# shellcheck disable=SC2086
exec "$TE_JAVA" "${TE_HADOOP_JFLAGS[@]}" "${TE_TMP_JFLAGS[@]}" -Djava.io.tmpdir="$TE_RUN/dfsio-tmp" ${DFSIO_JAVA_OPTS:--Xmx1g} \
	-cp "$conf:$TE_CP" org.apache.hadoop.fs.TestDFSIO "$@" "${res[@]}"
