package smoke

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
)

// MetaRegion is the decoded content of HBase's /hbase/meta-region-server znode: where
// the hbase:meta region is served, and its state.
type MetaRegion struct {
	Host      string // ServerName.host_name: the RegionServer's advertised host
	Port      uint32 // ServerName.port: its RPC port
	StartCode uint64 // ServerName.start_code: the RegionServer's start time in ms
	State     int32  // RegionState.State; 3 (OPEN) means usable, -1 if absent
}

// metaStateOpen is RegionState.State OPEN (used by the integration test).
const metaStateOpen = 3

var pbufMagic = []byte("PBUF")

// DecodeMetaRegionServer decodes the payload of the meta-region-server znode: an optional
// ZKMetadata prefix (0xFF, big-endian int32 id length, id), then "PBUF", then a
// MetaRegionServer protobuf {1: ServerName server, 2: uint32 rpc_version, 3: State state}
// with ServerName {1: string host_name, 2: uint32 port, 3: uint64 start_code}.
// It does not retain data. Safe for concurrent use.
func DecodeMetaRegionServer(data []byte) (MetaRegion, error) {
	b := data
	if len(b) > 0 && b[0] == 0xFF {
		if len(b) < 5 {
			return MetaRegion{}, fmt.Errorf("znode metadata: %d bytes, need at least 5", len(b))
		}
		idLen := int(binary.BigEndian.Uint32(b[1:5]))
		if idLen < 0 || 5+idLen > len(b) {
			return MetaRegion{}, fmt.Errorf("znode metadata: id length %d exceeds %d bytes", idLen, len(b)-5)
		}
		b = b[5+idLen:]
	}
	if !bytes.HasPrefix(b, pbufMagic) {
		return MetaRegion{}, fmt.Errorf("znode payload %q: missing PBUF magic", head(b))
	}
	b = b[len(pbufMagic):]
	mr := MetaRegion{State: -1}
	haveServer := false
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return MetaRegion{}, fmt.Errorf("MetaRegionServer tag: %w", protowire.ParseError(n))
		}
		b = b[n:]
		switch {
		case num == 1 && typ == protowire.BytesType:
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				return MetaRegion{}, fmt.Errorf("MetaRegionServer.server: %w", protowire.ParseError(n))
			}
			if err := decodeServerName(v, &mr); err != nil {
				return MetaRegion{}, fmt.Errorf("MetaRegionServer.server: %w", err)
			}
			haveServer = true
			b = b[n:]
		case num == 3 && typ == protowire.VarintType:
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return MetaRegion{}, fmt.Errorf("MetaRegionServer.state: %w", protowire.ParseError(n))
			}
			mr.State = int32(v)
			b = b[n:]
		default:
			n := protowire.ConsumeFieldValue(num, typ, b)
			if n < 0 {
				return MetaRegion{}, fmt.Errorf("MetaRegionServer field %d: %w", num, protowire.ParseError(n))
			}
			b = b[n:]
		}
	}
	if !haveServer {
		return MetaRegion{}, errors.New("MetaRegionServer: required field 1 (server) missing")
	}
	return mr, nil
}

func decodeServerName(b []byte, mr *MetaRegion) error {
	haveHost := false
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return fmt.Errorf("ServerName tag: %w", protowire.ParseError(n))
		}
		b = b[n:]
		switch {
		case num == 1 && typ == protowire.BytesType:
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				return fmt.Errorf("ServerName.host_name: %w", protowire.ParseError(n))
			}
			mr.Host = string(v)
			haveHost = true
			b = b[n:]
		case (num == 2 || num == 3) && typ == protowire.VarintType:
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return fmt.Errorf("ServerName field %d: %w", num, protowire.ParseError(n))
			}
			if num == 2 {
				mr.Port = uint32(v)
			} else {
				mr.StartCode = v
			}
			b = b[n:]
		default:
			n := protowire.ConsumeFieldValue(num, typ, b)
			if n < 0 {
				return fmt.Errorf("ServerName field %d: %w", num, protowire.ParseError(n))
			}
			b = b[n:]
		}
	}
	if !haveHost {
		return errors.New("ServerName: required field 1 (host_name) missing")
	}
	return nil
}

// head returns at most the first 16 bytes of b, for error messages.
func head(b []byte) []byte {
	if len(b) > 16 {
		return b[:16]
	}
	return b
}
