package measure

import (
	"bytes"
	"testing"
	"time"
)

// assertSameReport checks that two snapshots render the same text report.
func assertSameReport(t *testing.T, a, b *Snapshot) {
	t.Helper()
	var wa, wb bytes.Buffer
	o := LineOptions{RunTime: 5 * time.Second}
	if err := WriteText(&wa, Lines(a, o)); err != nil {
		t.Fatal(err)
	}
	if err := WriteText(&wb, Lines(b, o)); err != nil {
		t.Fatal(err)
	}
	if wa.String() != wb.String() {
		t.Errorf("reports differ:\n%s\n---\n%s", wa.String(), wb.String())
	}
}
