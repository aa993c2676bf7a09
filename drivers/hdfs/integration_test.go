//go:build integration

package hdfs

import (
	"os"
	"testing"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/driverstest"
	"github.com/gobench/gobench/props"
)

// These tests need the real HDFS on 127.0.0.1:9000 (start it with
// `testenv/up.sh hdfs`); GOBENCH_HDFS_NAMENODE overrides the address.

func openDB(t testing.TB) *DB {
	t.Helper()
	var s props.Set
	if nn := os.Getenv("GOBENCH_HDFS_NAMENODE"); nn != "" {
		s.Add(props.Value{Key: KeyNamenode, Value: nn, Source: "env"})
	}
	s.Add(props.Value{Key: KeyTimeout, Value: "30s", Source: "test"})
	db, err := Driver{}.Configure(props.NewDecoder(&s), driverstest.Schema())
	if err != nil {
		t.Fatalf("Configure: %v", err)
	}
	return db.(*DB)
}

func TestIntegrationConformance(t *testing.T) {
	driverstest.Run(t, func(t *testing.T) drivers.DB { return openDB(t) })
}
