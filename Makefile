# gobench: build, test, benchmark.
#
#   make build       the static binary ./gobench
#   make test        everything: vet, unit tests with -race, then real Kafka,
#                    HDFS and HBase started on 127.0.0.1 (testenv/), the
#                    integration suites against them, and the servers stopped
#                    again even when a test fails
#   make test-unit   only the quick part (no servers)
#   make bench       Go micro-benchmarks (allocations, hot paths)
#   make proto       regenerate the HBase protobuf code (needs protoc)
#   make servers-up / servers-down / servers-status   the real servers by hand

GO        ?= go
SERVERS   ?= kafka hdfs hbase
PKGS      := ./...
export CGO_ENABLED ?= 0

.PHONY: build test test-unit test-integration vet bench proto clean servers-up servers-down servers-status test-tools

build:
	$(GO) build -trimpath -ldflags "-s -w" -o gobench ./cmd/gobench

vet:
	$(GO) vet $(PKGS)
	$(GO) vet -tags integration $(PKGS)

test-unit: vet
	CGO_ENABLED=1 $(GO) test -race -count=1 $(PKGS)

test: test-unit test-integration

# Starts the servers, runs every integration suite, and always stops them.
# -p 1: one package at a time, because fault tests stop and restart the
# shared servers.
test-integration:
	@set -e; status=0; \
	testenv/up.sh $(SERVERS) || { testenv/down.sh $(SERVERS); exit 1; }; \
	CGO_ENABLED=1 $(GO) test -p 1 -race -count=1 -tags integration -timeout 30m $(PKGS) || status=$$?; \
	testenv/down.sh $(SERVERS) || true; \
	exit $$status

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
