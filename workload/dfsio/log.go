package dfsio

import (
	"fmt"
	"io"
	"time"
)

// Log writes one line as TestDFSIO's logger prints it with Hadoop's stock
// log4j pattern: "26/12/01 10:54:14 INFO fs.TestDFSIO: <message>".
func Log(w io.Writer, format string, args ...any) {
	fmt.Fprintf(w, "%s INFO fs.TestDFSIO: %s\n", time.Now().Format("06/01/02 15:04:05"), fmt.Sprintf(format, args...))
}
