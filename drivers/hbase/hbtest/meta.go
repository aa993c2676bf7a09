package hbtest

import (
	"google.golang.org/protobuf/proto"

	"github.com/gobench/gobench/drivers/hbase/pb"
)

// Cell returns a Put cell.
func Cell(row, family, qualifier, value string, ts uint64) *pb.Cell {
	return &pb.Cell{Row: []byte(row), Family: []byte(family), Qualifier: []byte(qualifier), Value: []byte(value),
		Timestamp: proto.Uint64(ts), CellType: pb.CellType_PUT.Enum()}
}

// MetaRow returns the hbase:meta row of a region of table (namespace
// default) covering [start, end), hosted at server (host:port).
func MetaRow(table, start, end, server string) *pb.Result {
	ri, _ := proto.Marshal(&pb.RegionInfo{RegionId: proto.Uint64(1),
		TableName: &pb.TableName{Namespace: []byte("default"), Qualifier: []byte(table)},
		StartKey:  []byte(start), EndKey: []byte(end)})
	name := table + "," + start + ",1.x."
	return &pb.Result{Cell: []*pb.Cell{
		Cell(name, "info", "regioninfo", "PBUF"+string(ri), 1),
		Cell(name, "info", "server", server, 1),
	}}
}
