package hive

import (
	"context"
	"errors"
	"math"
	"net"
	"strings"
	"testing"
	"time"

	hs "github.com/beltran/gohive/hiveserver"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/driverstest"
	"github.com/gobench/gobench/props"
)

func TestJavaDouble(t *testing.T) {
	for _, c := range []struct {
		v    float64
		bits int
		want string
	}{
		{1.5, 64, "1.5"}, {1, 64, "1.0"}, {100, 64, "100.0"}, {0.001, 64, "0.001"}, {0.0001, 64, "1.0E-4"},
		{1e7, 64, "1.0E7"}, {9999999.5, 64, "9999999.5"}, {12345678.9, 64, "1.23456789E7"}, {-2.25, 64, "-2.25"},
		{0, 64, "0.0"}, {math.Copysign(0, -1), 64, "-0.0"}, {math.NaN(), 64, "NaN"}, {math.Inf(1), 64, "Infinity"},
		{math.Inf(-1), 64, "-Infinity"}, {0.1, 64, "0.1"}, {float64(float32(0.1)), 32, "0.1"},
		{float64(float32(0.1)), 64, "0.10000000149011612"}, {123456.789, 64, "123456.789"}, {1.2e-10, 64, "1.2E-10"},
	} {
		if got := JavaDouble(c.v, c.bits); got != c.want {
			t.Errorf("JavaDouble(%v, %d) = %q, want %q", c.v, c.bits, got, c.want)
		}
	}
}

func TestRenderNulls(t *testing.T) {
	col := &hs.TColumn{I64Val: &hs.TI64Column{Values: []int64{1, 0, 3, 0, 5, 6, 7, 8, 0}, Nulls: []byte{0x0a, 0x01}}}
	var got []string
	for i := range columnLen(col) {
		got = append(got, render(col, hs.TTypeId_BIGINT_TYPE, i))
	}
	if s := strings.Join(got, ","); s != "1,NULL,3,NULL,5,6,7,8,NULL" {
		t.Errorf("rendered %s", s)
	}
	str := &hs.TColumn{StringVal: &hs.TStringColumn{Values: []string{"a", ""}, Nulls: []byte{0x02}}}
	if a, b := render(str, hs.TTypeId_STRING_TYPE, 0), render(str, hs.TTypeId_STRING_TYPE, 1); a != "a" || b != "NULL" {
		t.Errorf("strings: %q %q", a, b)
	}
}

func TestConfigureErrors(t *testing.T) {
	var s props.Set
	s.Add(props.Value{Key: KeyServer, Value: "nohostport", Source: "t.properties", Line: 3},
		props.Value{Key: KeyAuth, Value: "kerberos", Source: "-p"},
		props.Value{Key: KeySessionConf, Value: "a=1,b", Source: "-p"})
	_, err := Driver{}.Configure(props.NewDecoder(&s), driverstest.Schema())
	if err == nil {
		t.Fatal("bad properties accepted")
	}
	for _, want := range []string{"hive.server", "t.properties:3", "hive.auth", "kerberos", "none, plain, nosasl", "hive.sessionconf", `"b"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	var p props.Set
	p.Add(props.Value{Key: KeyAuth, Value: "plain", Source: "-p"})
	if _, err := (Driver{}).Configure(props.NewDecoder(&p), driverstest.Schema()); err == nil || !strings.Contains(err.Error(), "hive.password") {
		t.Errorf("plain without a password: %v", err)
	}
	var ok props.Set
	ok.Add(props.Value{Key: KeySessionConf, Value: " hive.execution.engine=mr , mapreduce.job.reduces=2", Source: "-p"},
		props.Value{Key: KeyPassword, Value: "pw", Source: "-p"})
	db, err := Driver{}.Configure(props.NewDecoder(&ok), driverstest.Schema())
	if err != nil {
		t.Fatal(err)
	}
	m := db.(*DB).Config().sessionConf()
	if m["set:hiveconf:hive.execution.engine"] != "mr" || m["set:hiveconf:mapreduce.job.reduces"] != "2" || len(m) != 2 {
		t.Errorf("session configuration %v", m)
	}
	if drivers.CapsOf(db) != drivers.CapQuery {
		t.Errorf("caps %v", drivers.CapsOf(db).Names())
	}
}

// An address nobody listens on: SERVICE_UNAVAILABLE naming the address.
func TestUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	c := DefaultConfig()
	c.Server = addr
	_, err = NewDB(c).Open(t.Context())
	if s := drivers.Classify(err); s != drivers.ServiceUnavailable {
		t.Errorf("status %v (%v), want SERVICE_UNAVAILABLE", s, err)
	}
	if err == nil || !strings.Contains(err.Error(), "HiveServer2 at "+addr+" is not reachable") {
		t.Errorf("error %v does not name the address", err)
	}
}

// A server that accepts and never answers: the connect timeout bounds the
// handshake.
func TestSilentServer(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	c := DefaultConfig()
	c.Server, c.ConnectTimeout = l.Addr().String(), 300*time.Millisecond
	t0 := time.Now()
	_, err = NewDB(c).Open(t.Context())
	if err == nil || !strings.Contains(err.Error(), "hive.connecttimeout") {
		t.Errorf("err %v, want the connect timeout named", err)
	}
	if d := time.Since(t0); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
}

// The SASL PLAIN exchange, byte for byte, against a fake server that
// accepts, and one that refuses.
func TestSASLPlain(t *testing.T) {
	for _, refuse := range []bool{false, true} {
		cli, srv := net.Pipe()
		got := make(chan []string, 1)
		go func() {
			defer srv.Close()
			var msgs []string
			for range 2 {
				st, p, err := readSASL(srv)
				if err != nil {
					got <- []string{err.Error()}
					return
				}
				msgs = append(msgs, string(rune('0'+st))+":"+string(p))
			}
			if refuse {
				writeSASL(srv, saslBad, []byte("Error validating the login"))
			} else {
				writeSASL(srv, saslComplete, nil)
			}
			got <- msgs
		}()
		err := saslPlain(cli, "u", "p")
		cli.Close()
		if m := strings.Join(<-got, "|"); m != "1:PLAIN|2:\x00u\x00p" {
			t.Errorf("server saw %q", m)
		}
		if refuse != (err != nil) || refuse && !strings.Contains(err.Error(), "Error validating the login") {
			t.Errorf("refuse=%v: err %v", refuse, err)
		}
	}
}

func TestRecordsUnsupported(t *testing.T) {
	c := &Conn{}
	err := c.Read(context.Background(), "t", nil, nil, nil)
	if !errors.Is(err, errors.ErrUnsupported) || !strings.Contains(err.Error(), "workload=hive") {
		t.Errorf("Read: %v", err)
	}
}

func TestStatementErrorClass(t *testing.T) {
	bad := newStatementError(&hs.TStatus{StatusCode: hs.TStatusCode_ERROR_STATUS, ErrorMessage: ptr("FAILED: ParseException"), SqlState: ptr("42000"), ErrorCode: ptr(int32(40000))}, nil)
	if s := drivers.Classify(bad); s != drivers.BadRequest {
		t.Errorf("compile error: %v", s)
	}
	if want := "hive: FAILED: ParseException (SQLState 42000, error code 40000)"; bad.Error() != want {
		t.Errorf("message %q, want %q", bad.Error(), want)
	}
	st := hs.TOperationState_ERROR_STATE
	run := newStatementError(nil, &hs.TGetOperationStatusResp{OperationState: &st, ErrorMessage: ptr("Execution Error, return code 2"), SqlState: ptr("08S01")})
	if s := drivers.Classify(run); s != drivers.Error {
		t.Errorf("runtime error: %v", s)
	}
}

func ptr[T any](v T) *T { return &v }
