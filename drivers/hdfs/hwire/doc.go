// Package hwire is gobench's own client side of the two HDFS wire protocols
// that the hdfs driver needs beyond what github.com/colinmarc/hdfs offers:
//
//   - Hadoop IPC to the NameNode (ClientProtocol over protobuf RPC, simple
//     authentication, or Kerberos through SASL GSSAPI with the security
//     layer "none", hadoop.rpc.protection=authentication; the caller gives
//     the Kerberos side as a [GSSAPI]): the calls of a file's life (create
//     with the overwrite flag, addBlock, complete, getBlockLocations, rename2,
//     delete, renewLease, getServerDefaults) and of pipeline recovery
//     (updateBlockForPipeline, updatePipeline, abandonBlock), each one
//     round trip with no extra getFileInfo;
//   - the DataNode data transfer protocol: [Writer] streams a file's blocks
//     in 64 KiB packets with CRC32C checksums through the DataNode pipeline
//     and recovers the pipeline when a DataNode fails (as Java's
//     DataStreamer: drop the bad node, new generation stamp, resend what was
//     not acknowledged, updatePipeline); [Reader] reads exact byte ranges
//     (positional reads) and sequential streams, and keeps the DataNode
//     connections it finished with for the next read ([Peers]), as Java's
//     peer cache does. With [Peers].SASL each new DataNode connection is
//     first authenticated with SASL DIGEST-MD5 and the block access token
//     (data transfer protection with QOP auth, as Java's
//     SaslDataTransferClient; integrity and privacy are not spoken:
//     [ErrProtection]).
//
// Messages are encoded and decoded by hand with protowire; the field
// numbers are those of Hadoop's ClientNamenodeProtocol.proto, hdfs.proto,
// datatransfer.proto, RpcHeader.proto (RpcSaslProto) and
// IpcConnectionContext.proto.
// Connections are given by the caller (a dial function), so the driver's
// deadline guard bounds every call; nothing here takes a context.
// Not safe for concurrent use, except where a type says otherwise.
//
// It may import google.golang.org/protobuf/encoding/protowire and the
// standard library.
package hwire
