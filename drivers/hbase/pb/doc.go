// Package pb holds the Go code generated from gobench_hbase.proto: the subset
// of HBase 2.x's protobuf messages (RPC, HBase, Cell, Client, ZooKeeper,
// Master, ErrorHandling) that gobench's own HBase client speaks. Field
// numbers follow HBase's .proto files; the proto package name
// (gobench.hbasewire) is cosmetic and never appears on the wire.
//
// Regenerate with `go generate ./drivers/hbase/pb` (needs protoc and
// protoc-gen-go v1.36.12 on PATH). It imports only google.golang.org/protobuf.
//
//	req := &pb.GetRequest{
//		Region: &pb.RegionSpecifier{Type: pb.RegionSpecifier_REGION_NAME.Enum(), Value: name},
//		Get:    &pb.Get{Row: row},
//	}
//	b, err := proto.Marshal(req)
package pb

//go:generate protoc --proto_path=. --go_out=. --go_opt=paths=source_relative gobench_hbase.proto
