package smoke

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// znode builds a meta-region-server payload the way HBase writes it.
func znode(withMeta bool, host string, port uint32, start uint64, state int64, extra bool) []byte {
	var sn []byte
	sn = protowire.AppendTag(sn, 1, protowire.BytesType)
	sn = protowire.AppendString(sn, host)
	sn = protowire.AppendTag(sn, 2, protowire.VarintType)
	sn = protowire.AppendVarint(sn, uint64(port))
	sn = protowire.AppendTag(sn, 3, protowire.VarintType)
	sn = protowire.AppendVarint(sn, start)
	if extra { // unknown field, must be skipped
		sn = protowire.AppendTag(sn, 9, protowire.BytesType)
		sn = protowire.AppendString(sn, "x")
	}
	var mrs []byte
	mrs = protowire.AppendTag(mrs, 1, protowire.BytesType)
	mrs = protowire.AppendBytes(mrs, sn)
	mrs = protowire.AppendTag(mrs, 2, protowire.VarintType)
	mrs = protowire.AppendVarint(mrs, 0)
	if state >= 0 {
		mrs = protowire.AppendTag(mrs, 3, protowire.VarintType)
		mrs = protowire.AppendVarint(mrs, uint64(state))
	}
	var out []byte
	if withMeta {
		id := []byte("12345@host\x01\x02\x03\x04\x05\x06\x07\x08")
		out = append(out, 0xFF)
		out = binary.BigEndian.AppendUint32(out, uint32(len(id)))
		out = append(out, id...)
	}
	out = append(out, "PBUF"...)
	return append(out, mrs...)
}

func TestDecodeMetaRegionServer(t *testing.T) {
	tests := []struct {
		name     string
		data     []byte
		want     MetaRegion
		errMatch string
	}{
		{"with metadata", znode(true, "localhost", 16020, 1795977183105, 3, false),
			MetaRegion{Host: "localhost", Port: 16020, StartCode: 1795977183105, State: 3}, ""},
		{"no metadata prefix", znode(false, "127.0.0.1", 16201, 7, 2, false),
			MetaRegion{Host: "127.0.0.1", Port: 16201, StartCode: 7, State: 2}, ""},
		{"no state, unknown field", znode(true, "h", 1, 2, -1, true),
			MetaRegion{Host: "h", Port: 1, StartCode: 2, State: -1}, ""},
		{"missing PBUF", []byte{0xFF, 0, 0, 0, 1, 'x', 'N', 'O', 'P', 'E'}, MetaRegion{}, "PBUF"},
		{"id length too long", []byte{0xFF, 0, 0, 0, 99, 'x'}, MetaRegion{}, "id length 99"},
		{"short metadata", []byte{0xFF, 0}, MetaRegion{}, "at least 5"},
		{"no server field", append([]byte("PBUF"), 0x10, 0x00), MetaRegion{}, "field 1 (server) missing"},
		{"truncated", znode(true, "localhost", 16020, 1, 3, false)[:40], MetaRegion{}, "MetaRegionServer"},
	}
	for _, tc := range tests {
		got, err := DecodeMetaRegionServer(tc.data)
		if tc.errMatch != "" {
			if err == nil || !strings.Contains(err.Error(), tc.errMatch) {
				t.Errorf("%s: DecodeMetaRegionServer(%x) error = %v, want one containing %q", tc.name, tc.data, err, tc.errMatch)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: DecodeMetaRegionServer(%x) = %+v, %v; want %+v", tc.name, tc.data, got, err, tc.want)
		}
	}
}

func ExampleDecodeMetaRegionServer() {
	// data as read from ZooKeeper's /hbase/meta-region-server (zk.Conn.Get).
	data := znode(true, "localhost", 16020, 1795977183105, 3, false)
	mr, err := DecodeMetaRegionServer(data)
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Printf("%s:%d open=%v\n", mr.Host, mr.Port, mr.State == 3)
	// Output: localhost:16020 open=true
}
