//go:build integration

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// The suite's dfsio and Kafka steps against the testenv servers (HDFS on
// 127.0.0.1:9000, Kafka on 127.0.0.1:9092), small and quick, with a disk
// and a net step for the ceilings: each of those throughputs is read
// against them in the page.
func TestIntegrationSuiteOnTestenvServers(t *testing.T) {
	requireKafka(t)
	fs := hdfsFS(t)
	id := time.Now().UnixNano()
	base := fmt.Sprintf("/gobench-it/suite-%d", id)
	defer fs.RemoveAll(context.Background(), base)
	topic := fmt.Sprintf("gobench-suite-%d", id)
	dir := t.TempDir()
	port, _, _, stop := startNetServer(t)
	defer stop()
	file := writeSuite(t, dir, fmt.Sprintf(`title testenv acceptance
disks:       disk -dir %[1]s/d -bs 1M -size 8M
net out:     net -c 127.0.0.1 -p %[2]s -t 1
net in:      net -c 127.0.0.1 -p %[2]s -t 1 -R
dfsio write: dfsio -D test.build.data=%[3]s -write -nrFiles 2 -size 4MB -resFile %[1]s/res.log
dfsio read:  dfsio -D test.build.data=%[3]s -read -nrFiles 2 -size 4MB -resFile %[1]s/res.log
produce:     producer-perf --topic %[4]s --num-records 300 --record-size 10000 --throughput -1 --producer-props bootstrap.servers=%[5]s
consume:     consumer-perf --topic %[4]s --messages 300 --bootstrap-server %[5]s
`, dir, port, base, topic, kafkaBroker))
	out := filepath.Join(dir, "testenv.html")
	code, _, errs := gobench(t, context.Background(), "suite", "-o", out, file)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, re := range []string{
		`dfsio write aggregate: [0-9.]+ % of the disk write ceiling measured at`,
		`dfsio read aggregate: [0-9.]+ % of the disk read ceiling measured at`,
		`produce produced: [0-9.]+ % of the network send ceiling measured at`,
		`produce produced: [0-9.]+ % of the disk write ceiling measured at`,
		`consume consumed: [0-9.]+ % of the network receive ceiling measured at`,
		`7 passed`,
	} {
		if !regexp.MustCompile(re).Match(b) {
			t.Errorf("page lacks %s", re)
		}
	}
}
