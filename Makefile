# gobench: build, test, benchmark.
#
#   make build       the static binary ./gobench
#   make test        everything: checks the tools it needs first (testenv/check.sh:
#                    go, a C compiler for -race, Java 17 + javac, Maven on the first
#                    run), vet with and without -tags integration, the unit tests with
#                    -race, then real Kafka, HDFS and HBase started on 127.0.0.1
#                    (testenv/), the integration tests against them, the servers
#                    stopped again even when a test fails, and at the end the tests
#                    slower than SLOW (5s) and every skipped test, with its reason
#   make test-unit   only the quick part (no servers, no Java)
#   make test-integration   only the servers and the integration tests
#   make test-hive          only HiveServer2 and its tests (//go:build hive)
#   make test-cluster       only the multi-node cluster and its tests (//go:build cluster)
#   make test-yarn          only YARN (+ the HDFS and HBase it uses) and the tests of
#                           gobench yarn (//go:build yarn)
#   make check       only the check of the tools
#   make bench       Go micro-benchmarks (allocations, hot paths)
#   make proto       regenerate the HBase protobuf code (needs protoc)
#   make servers-up / servers-down / servers-status   the real servers by hand
#
# Each test runs once. A test's file decides its pass: the unit pass runs every
# test that builds without the integration tag; the integration pass runs only
# the tests declared in files that build only with it (`//go:build integration`).
# testenv/testsum finds those with `go list` (test files with and without the
# tag) and go/parser (their Test/Fuzz functions), runs them package by package
# (one at a time: fault tests stop, restart and freeze the shared servers)
# with -run '^(...)$', and fails if one of them did not run or anything else
# did; so no test is dropped or run twice, whatever its name.
# (`go run ./testenv/testsum -only-tag integration -list` prints the selection.)
# Both passes go through testenv/testsum (go test -json): a line per package,
# the whole output of each failed test as it fails, the final lists.

GO        ?= go
SERVERS   ?= kafka hdfs hbase
CLUSTER   ?= hdfs hbase kafka
# What the yarn pass starts beside YARN (its applications stage on HDFS and load HBase).
YARN_WITH ?= hdfs hbase
PKGS      := ./...
SLOW      ?= 5s
TESTSUM   := $(GO) run ./testenv/testsum -slow $(SLOW) -pkgs '$(PKGS)'
export CGO_ENABLED ?= 0

.PHONY: build check check-unit test test-unit test-integration test-hive test-cluster test-secure test-yarn cluster-up cluster-down cluster-status vet bench proto clean servers-up servers-down servers-status test-tools

build:
	$(GO) build -trimpath -ldflags "-s -w" -o gobench ./cmd/gobench

check:
	@testenv/check.sh all

check-unit:
	@testenv/check.sh unit

vet:
	@f=$$("$$($(GO) env GOROOT)/bin/gofmt" -l .); [ -z "$$f" ] || { echo "gofmt -l: not formatted: $$f"; exit 1; }
	$(GO) vet $(PKGS)
	$(GO) vet -tags integration $(PKGS)
	$(GO) vet -tags cluster $(PKGS)
	$(GO) vet -tags hive $(PKGS)
	$(GO) vet -tags secure $(PKGS)
	$(GO) vet -tags yarn $(PKGS)

# -race needs cgo: CGO_ENABLED=1 and a C compiler (checked first).
# The allocation checks the race detector skips (it allocates) run again
# without it, in every package whose tests know raceEnabled.
ALLOC_PKGS = $(shell grep -rl --include='*_test.go' 'raceEnabled' . | xargs -n1 dirname | sort -u)
# The recorders' release stores are plain stores only without the race
# detector (measure/release_amd64.go): their concurrency tests run again
# without it.
test-unit: check-unit vet
	CGO_ENABLED=1 $(TESTSUM) $(TESTSUM_FLAGS) -- -race -count=1
	$(GO) test -count=1 -run 'Alloc|NotAllocate' $(ALLOC_PKGS)
	$(GO) test -count=1 -run 'ConcurrentCut|CutWaitsForAClaim|ReleaseStores' ./measure

# Both passes; their streams are saved so that one list of slow and skipped
# tests ends the log.
# Every pass runs even when an earlier one failed (each real-server suite is
# reported), after the unit pass has passed; the exit status is the first
# failure's.
test: check
	@d=$$(mktemp -d); trap 'rm -rf "$$d"' EXIT; status=0; \
	$(MAKE) --no-print-directory test-unit TESTSUM_FLAGS="-no-summary -save $$d/unit.json" || status=$$?; \
	if [ $$status -eq 0 ]; then \
		for pass in integration yarn hive cluster secure; do \
			keep=; [ $$pass != integration ] || keep="$(YARN_WITH)"; \
			$(MAKE) --no-print-directory test-$$pass KEEP="$$keep" TESTSUM_FLAGS="-no-summary -save $$d/$$pass.json" || { s=$$?; [ $$status -ne 0 ] || status=$$s; }; \
		done; \
	fi; \
	$(GO) run ./testenv/testsum -slow $(SLOW) -summary $$d/*.json || true; \
	exit $$status

# Starts the servers, runs the integration tests (only those, one package at a
# time: see above), and always stops the servers, except those named in KEEP
# (make test keeps the HDFS and HBase the yarn pass uses, which then stops them).
KEEP ?=
test-integration: check
	@set -e; status=0; \
	testenv/tools.sh; \
	testenv/up.sh $(SERVERS) || { testenv/down.sh $(SERVERS); exit 1; }; \
	CGO_ENABLED=1 $(TESTSUM) $(TESTSUM_FLAGS) -only-tag integration -- -race -count=1 -timeout 30m || status=$$?; \
	testenv/down.sh $(filter-out $(KEEP),$(SERVERS)) || true; \
	exit $$status

# HiveServer2 (testenv/up.sh hive), started only for the tests of files built
# with `//go:build hive`, and always stopped.
test-hive: check
	@set -e; status=0; \
	testenv/up.sh hive || { testenv/down.sh hive; exit 1; }; \
	CGO_ENABLED=1 $(TESTSUM) $(TESTSUM_FLAGS) -only-tag hive -- -race -count=1 -timeout 30m || status=$$?; \
	testenv/down.sh hive || true; \
	exit $$status

# The multi-node cluster (testenv/up.sh --cluster: 3 DataNodes, ZooKeeper, an
# HMaster and 3 RegionServers on that HDFS, 3 KRaft brokers), started only
# for the tests of files built with `//go:build cluster`, and always stopped.
test-cluster: check
	@set -e; status=0; \
	testenv/up.sh --cluster $(CLUSTER) || { testenv/down.sh --cluster; exit 1; }; \
	CGO_ENABLED=1 $(TESTSUM) $(TESTSUM_FLAGS) -only-tag cluster -- -race -count=1 -timeout 30m || status=$$?; \
	testenv/down.sh --cluster || true; \
	exit $$status

# The secured single-node servers (testenv/up.sh --secure: an MIT KDC, a CA,
# Kerberized HDFS and HBase with ACLs, Kafka with SASL_SSL and ACLs), started
# only for the tests of files built with `//go:build secure`, always stopped.
test-secure: check
	@set -e; status=0; \
	testenv/up.sh --secure || { testenv/down.sh --secure; exit 1; }; \
	CGO_ENABLED=1 $(TESTSUM) $(TESTSUM_FLAGS) -only-tag secure -- -race -count=1 -timeout 30m || status=$$?; \
	testenv/down.sh --secure || true; \
	exit $$status

# YARN (testenv/up.sh yarn: a ResourceManager and 2 NodeManagers) with the HDFS
# and HBase its tests use, started only for the tests of files built with
# `//go:build yarn` (gobench yarn), and always stopped.
test-yarn: check
	@set -e; status=0; \
	testenv/up.sh $(YARN_WITH) yarn || { testenv/down.sh yarn $(YARN_WITH); exit 1; }; \
	CGO_ENABLED=1 $(TESTSUM) $(TESTSUM_FLAGS) -only-tag yarn -- -race -count=1 -timeout 20m || status=$$?; \
	testenv/down.sh yarn $(YARN_WITH) || true; \
	exit $$status

cluster-up:
	testenv/up.sh --cluster $(CLUSTER)

cluster-down:
	testenv/down.sh --cluster

cluster-status:
	testenv/status.sh --cluster $(CLUSTER)

servers-up:
	testenv/up.sh $(SERVERS)

servers-down:
	testenv/down.sh $(SERVERS)

servers-status:
	testenv/status.sh $(SERVERS)

# Runs each Java tool (YCSB, Kafka perf, TestDFSIO) once on tiny data.
test-tools:
	testenv/tools-smoke.sh $(SERVERS)

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./generator/ ./measure/ ./workload/ ./drivers/...

proto:  # needs protoc and protoc-gen-go v1.36.12 on PATH
	$(GO) generate ./drivers/hbase/pb

clean:
	rm -rf gobench gobench-data
