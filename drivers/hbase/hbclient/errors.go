package hbclient

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"

	"github.com/gobench/gobench/drivers/hbase/pb"
	"google.golang.org/protobuf/proto"
)

// Sentinel errors; test with errors.Is.
var (
	// ErrConnection wraps every failure to reach or keep talking to a server
	// (ZooKeeper, master or RegionServer): dial errors, resets, EOF, RPC
	// timeouts. Operations retry them until their deadline.
	ErrConnection = errors.New("hbase connection failed")
	// ErrTableNotFound: the table has no regions in hbase:meta, or the
	// master says it does not exist.
	ErrTableNotFound = errors.New("table not found")
	// ErrTableExists: CreateTable of a table that exists.
	ErrTableExists = errors.New("table exists")
	// ErrClosed: the client was closed.
	ErrClosed = errors.New("client closed")
)

// errTimeout marks a call that got no answer within its RPC timeout; the
// connection stays up.
var errTimeout = errors.New("rpc timed out")

// RemoteError is an exception the server returned for a call or an action.
type RemoteError struct {
	// Class is the fully qualified Java exception class name.
	Class string
	// Message is the server's stringified exception (often with a stack).
	Message string
	// Host and Port are the new location carried by RegionMovedException.
	Host string
	Port int
	// DoNotRetry is the server's verdict (a DoNotRetryIOException subclass).
	DoNotRetry bool
	// Overloaded is set by 2.5+ servers for CallQueueTooBig/CallDropped.
	Overloaded bool
}

func (e *RemoteError) Error() string {
	msg := e.Message
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	msg = strings.TrimPrefix(msg, e.Class+": ") // Java's toString repeats the class
	if msg == "" {
		return e.Class
	}
	return e.Class + ": " + msg
}

// Is lets errors.Is(err, ErrTableNotFound) and ErrTableExists match the
// corresponding server exceptions.
func (e *RemoteError) Is(target error) bool {
	switch target {
	case ErrTableNotFound:
		return e.Class == pkg+"TableNotFoundException"
	case ErrTableExists:
		return e.Class == pkg+"TableExistsException"
	}
	return false
}

func parseException(b []byte) error {
	var ex pb.ExceptionResponse
	if err := proto.Unmarshal(b, &ex); err != nil {
		return fmt.Errorf("exception response: %w", errCorrupt)
	}
	re := &RemoteError{
		Class: ex.GetExceptionClassName(), Message: ex.GetStackTrace(),
		Host: ex.GetHostname(), Port: int(ex.GetPort()),
		DoNotRetry: ex.GetDoNotRetry(), Overloaded: ex.GetServerOverloaded(),
	}
	if re.Host == "" {
		re.Host, re.Port = parseMoved(re.Class, re.Message)
	}
	return re
}

const (
	regionMoved      = pkg + "exceptions.RegionMovedException"
	unsupportedCodec = pkg + "ipc.UnsupportedCellCodecException"
)

// parseMoved reads the new location from a RegionMovedException's message
// ("Region moved to: hostname=H port=P startCode=S. As of
// locationSeqNum=N.", the only place it travels in a Multi result).
func parseMoved(class, msg string) (string, int) {
	if class != regionMoved {
		return "", 0
	}
	_, rest, ok := strings.Cut(msg, "hostname=")
	if !ok {
		return "", 0
	}
	host, rest, ok := strings.Cut(rest, " ")
	if !ok || host == "" {
		return "", 0
	}
	_, rest, ok = strings.Cut(rest, "port=")
	if !ok {
		return "", 0
	}
	p, _, _ := strings.Cut(rest, " ")
	port, err := strconv.Atoi(p)
	if err != nil || port <= 0 || port > 65535 {
		return "", 0
	}
	return host, port
}

// movedTo returns the host:port a RegionMovedException in err names, or "".
func movedTo(err error) string {
	var re *RemoteError
	if !errors.As(err, &re) || re.Class != regionMoved || re.Host == "" || re.Port <= 0 {
		return ""
	}
	return net.JoinHostPort(re.Host, strconv.Itoa(re.Port))
}

const pkg = "org.apache.hadoop.hbase."

// action says what the retry loop does about an error.
type action uint8

const (
	actFail       action = iota // permanent: return the error
	actRetry                    // keep the cached location, back off, retry
	actRelocate                 // drop the cached region, re-locate, retry
	actReconnect                // close the connection, drop the server's regions, retry
	actServerDown               // the server answers but serves no region (starting, stopping): drop its regions, keep the connection, retry
	actReopen                   // scanner state lost: reopen from the last row
)

var exceptionActions = map[string]action{
	pkg + "NotServingRegionException":                       actRelocate,
	regionMoved:                                             actRelocate,
	pkg + "exceptions.RegionOpeningException":               actRetry,
	pkg + "RegionTooBusyException":                          actRetry,
	pkg + "CallQueueTooBigException":                        actRetry,
	pkg + "CallDroppedException":                            actRetry,
	pkg + "quotas.RpcThrottlingException":                   actRetry,
	pkg + "RetryImmediatelyException":                       actRetry,
	pkg + "MultiActionResultTooLarge":                       actRetry,
	pkg + "PleaseHoldException":                             actRetry,
	pkg + "ipc.ServerNotRunningYetException":                actServerDown,
	pkg + "regionserver.RegionServerStoppedException":       actServerDown,
	pkg + "regionserver.RegionServerAbortedException":       actServerDown,
	pkg + "exceptions.MasterStoppedException":               actReconnect,
	pkg + "UnknownScannerException":                         actReopen,
	pkg + "exceptions.OutOfOrderScannerNextException":       actReopen,
	pkg + "exceptions.ScannerResetException":                actReopen,
	pkg + "TableNotFoundException":                          actFail,
	pkg + "TableExistsException":                            actFail,
	pkg + "TableNotEnabledException":                        actFail,
	pkg + "TableNotDisabledException":                       actFail,
	pkg + "regionserver.NoSuchColumnFamilyException":        actFail,
	pkg + "DoNotRetryIOException":                           actFail,
	pkg + "exceptions.UnknownProtocolException":             actFail,
	pkg + "security.AccessDeniedException":                  actFail,
	pkg + "exceptions.FailedSanityCheckException":           actFail,
	pkg + "exceptions.RequestTooBigException":               actFail,
	pkg + "exceptions.ConnectionClosingException":           actReconnect,
	pkg + "exceptions.ConnectionClosedException":            actReconnect,
	"org.apache.hadoop.hbase.ipc.CallTimeoutException":      actRetry,
	"org.apache.hadoop.hbase.exceptions.TimeoutIOException": actRetry,
}

// classify maps an error to what the retry loop should do (hbase-wire.md §5).
func classify(err error) action {
	switch {
	case errors.Is(err, errTimeout):
		return actRelocate
	case errors.Is(err, ErrConnection):
		return actReconnect
	case errors.Is(err, errRegionNotReady):
		return actRelocate
	}
	var re *RemoteError
	if errors.As(err, &re) {
		if a, ok := exceptionActions[re.Class]; ok {
			return a
		}
		if re.Class == "java.io.IOException" && strings.Contains(re.Message, "Cannot append; log is closed") {
			return actRelocate
		}
		if re.DoNotRetry {
			return actFail
		}
		return actRelocate
	}
	return actFail
}
