package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gobench/gobench/drivers/iperf3"
	"github.com/gobench/gobench/props"
	"github.com/gobench/gobench/workload"
	"github.com/gobench/gobench/workload/netperf"
)

const netAbout = `iperf3's TCP test, speaking iperf3's protocol: gobench net -c works against an
iperf3 -s, and iperf3 -c against a gobench net -s. Per interval and at the end
it prints iperf3's lines (sender and receiver, from both ends' counts), or with
-J iperf3's JSON. The server takes one test at a time, prints each client's
report, and stops cleanly on Ctrl-C (a test in progress is ended and reported).`

// netArgs is gobench net's command line (iperf3's flags).
type netArgs struct {
	server   bool
	host     string
	port     int
	streams  int
	secs     float64
	reverse  bool
	length   string
	interval float64
	format   string
	json     bool
	once     bool
	bind     string
}

func parseNetArgs(args []string) (*netArgs, string, error) {
	a := &netArgs{}
	fs := flag.NewFlagSet("net", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&a.server, "s", false, "run as a server")
	fs.StringVar(&a.host, "c", "", "run as a client of the server at `HOST`")
	fs.IntVar(&a.port, "p", iperf3.DefaultPort, "the server's port")
	fs.IntVar(&a.streams, "P", 1, "parallel streams (client)")
	fs.Float64Var(&a.secs, "t", 10, "seconds to test (client)")
	fs.BoolVar(&a.reverse, "R", false, "reverse: the server sends, the client receives (client)")
	fs.StringVar(&a.length, "l", "128K", "bytes per write or read (client; binary units)")
	fs.Float64Var(&a.interval, "i", 1, "seconds between interval lines; 0 = none")
	fs.StringVar(&a.format, "f", "a", "units of rates: a (adaptive bits), k/m/g/t bits, A/K/M/G/T bytes")
	fs.BoolVar(&a.json, "J", false, "print iperf3's JSON document instead of the text")
	fs.BoolVar(&a.once, "1", false, "server: handle one client, then exit")
	fs.StringVar(&a.bind, "B", "", "server: the address to listen on (default: all)")
	rest, err := parseInterspersed(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		var b strings.Builder
		printUsage(&b, fs, "gobench net -s [-p PORT] [-1] [-J] | gobench net -c HOST [-p PORT] [-P N] [-t SECS] [-R] [-l LEN] [-i SECS] [-f FMT] [-J]", netAbout)
		return nil, b.String(), nil
	}
	if err != nil {
		return nil, "", err
	}
	if len(rest) > 0 {
		return nil, "", fmt.Errorf("unexpected argument %q", rest[0])
	}
	switch {
	case a.server && a.host != "":
		return nil, "", errors.New("-s and -c: give one (server or client)")
	case !a.server && a.host == "":
		return nil, "", errors.New("give -s (server) or -c HOST (client)")
	case a.port < 0 || a.port > 65535 || a.port == 0 && !a.server:
		return nil, "", fmt.Errorf("-p %d: a port from 1 to 65535 (a server takes 0: any free port)", a.port)
	case len(a.format) != 1 || !netperf.ValidFormat(a.format[0]):
		return nil, "", fmt.Errorf("-f %q: allowed: a, k, m, g, t (bits), A, K, M, G, T (bytes)", a.format)
	case a.interval < 0:
		return nil, "", fmt.Errorf("-i %v: seconds >= 0", a.interval)
	}
	return a, "", nil
}

// netResult is one test as the suite and the server's closing table see it.
type netResult struct {
	Peer       string    `json:"peer"`
	At         time.Time `json:"at"`
	Streams    int       `json:"streams"`
	Reverse    bool      `json:"reverse"`
	SenderBps  float64   `json:"sender_bits_per_second"`
	RecvBps    float64   `json:"receiver_bits_per_second"`
	Retransmit int64     `json:"retransmits"`
	Seconds    float64   `json:"seconds"`
	Err        string    `json:"error,omitempty"`
}

// netRun runs one prepared test (client or server side) with its lines:
// the streams' connected lines, the intervals, the summary. It returns
// the summary and the JSON document.
func netRun(ctx context.Context, plan *workload.Plan, a *netArgs, out io.Writer, start netperf.JSONStart) (netperf.Summary, *netperf.JSONDoc, error) {
	job := plan.Job().(*netperf.Job)
	tk := job.NewTicker()
	doc := &netperf.JSONDoc{Start: start, Intervals: []netperf.Interval{}}
	f := a.format[0]
	var mu sync.Mutex
	printLines := func(l []string) {
		if !a.json {
			for _, s := range l {
				fmt.Fprintln(out, s)
			}
		}
	}
	emit := func(iv netperf.Interval) {
		mu.Lock()
		defer mu.Unlock()
		doc.Intervals = append(doc.Intervals, iv)
		if a.interval > 0 {
			printLines(iv.Lines(tk.N() == 1, f))
		}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		select {
		case <-job.Started():
		case <-done:
			return
		}
		mu.Lock()
		for _, s := range job.Streams() {
			st := s.State()
			if !st.Started {
				continue
			}
			lh, lp := hostPort(st.Info.Local)
			rh, rp := hostPort(st.Info.Remote)
			doc.Start.Connected = append(doc.Start.Connected, netperf.JSONConnected{Socket: st.Info.Socket, LocalHost: lh, LocalPort: lp, RemoteHost: rh, RemotePort: rp})
			printLines([]string{netperf.ConnectedLine(st.Info.Socket, lh, lp, rh, rp)})
		}
		mu.Unlock()
		if a.interval <= 0 {
			return
		}
		every := time.Duration(a.interval * float64(time.Second))
		t0 := job.StartTime()
		for k := 1; ; k++ {
			tm := time.NewTimer(time.Until(t0.Add(time.Duration(k) * every)))
			select {
			case <-tm.C: // the time of the read, not the timer's due time (stale when late)
				if iv, ok := tk.Tick(time.Now()); ok {
					emit(iv)
				}
			case <-done:
				tm.Stop()
				return
			}
		}
	}()
	_, err := plan.Run(ctx)
	close(done)
	wg.Wait()
	sum := job.Summary()
	end := 0.0
	if sum.LocalSender {
		end = sum.SumSent.Seconds
	} else {
		end = sum.SumReceived.Seconds
	}
	// The last, partial interval, unless it is shorter than a tenth of
	// the interval (as iperf3 leaves those out).
	if last := tk.LastEnd(); a.interval <= 0 || end-last >= a.interval/10 {
		if iv, ok := tk.TickAt(end); ok {
			emit(iv)
		}
	}
	doc.End = netperf.JSONEnd{Streams: sum.Streams, SumSent: sum.SumSent, SumReceived: sum.SumReceived}
	if len(sum.Streams) > 0 {
		printLines(sum.Lines(f))
	}
	if len(sum.Failed) > 0 {
		err = errors.Join(err, errors.New(strings.Join(sum.Failed, "; ")))
	}
	if err != nil {
		doc.Error = err.Error()
	}
	if a.json {
		b, _ := json.MarshalIndent(doc, "", "\t")
		fmt.Fprintln(out, string(b))
	}
	return sum, doc, err
}

func hostPort(a net.Addr) (string, int) {
	if a == nil {
		return "", 0
	}
	h, p, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String(), 0
	}
	n, _ := strconv.Atoi(p)
	return h, n
}

func resultOf(peer string, at time.Time, sum netperf.Summary, cfg netperf.Config, err error) netResult {
	r := netResult{Peer: peer, At: at, Streams: cfg.Streams, Reverse: cfg.Reverse,
		SenderBps: sum.SumSent.BitsPerSec, RecvBps: sum.SumReceived.BitsPerSec, Retransmit: sum.SumSent.Retransmits, Seconds: sum.SumReceived.Seconds}
	if err != nil {
		r.Err = err.Error()
	}
	return r
}

// netClientProps is the property layer of a client test.
func netClientProps(a *netArgs) *props.Set {
	var s props.Set
	add := func(k, v, src string) { s.Add(props.Value{Key: k, Value: v, Source: src}) }
	add("workload", netperf.Kind.Name, "gobench net")
	add("db", "iperf3", "gobench net -c")
	add(iperf3.KeyHost, a.host, "-c")
	add(iperf3.KeyPort, strconv.Itoa(a.port), "-p")
	add("threadcount", strconv.Itoa(a.streams), "-P")
	add("maxexecutiontime", strconv.FormatFloat(a.secs, 'f', -1, 64), "-t")
	add(netperf.KeyReverse, strconv.FormatBool(a.reverse), "-R")
	add(netperf.KeyLen, a.length, "-l")
	return &s
}

// netClient runs one client test and prints it.
func netClient(ctx context.Context, a *netArgs, out io.Writer) (netResult, error) {
	plan, err := workload.Prepare(netClientProps(a))
	if err != nil {
		return netResult{}, configErr(err)
	}
	cfg := plan.Job().(*netperf.Job).Config()
	if !a.json {
		fmt.Fprintln(out, netperf.Connecting(a.host, a.port))
		if a.reverse {
			fmt.Fprintln(out, netperf.ReverseMode(a.host))
		}
	}
	at := time.Now()
	start := netperf.JSONStart{Version: "gobench " + version, Timestamp: netperf.NewJSONTime(at),
		ConnectingTo: &netperf.JSONHost{Host: a.host, Port: a.port}, TestStart: cfg.TestStart()}
	sum, _, err := netRun(ctx, plan, a, out, start)
	if err == nil && !a.json {
		fmt.Fprintln(out)
		fmt.Fprintln(out, netperf.Done)
	}
	return resultOf(net.JoinHostPort(a.host, strconv.Itoa(a.port)), at, sum, cfg, err), err
}

// netServer serves tests until ctx ends (or one, with -1), printing each
// client's report, then a line per client.
func netServer(ctx context.Context, a *netArgs, out, stderr io.Writer) error {
	srv, err := iperf3.Listen(net.JoinHostPort(a.bind, strconv.Itoa(a.port)))
	if err != nil {
		return err
	}
	defer srv.Close()
	_, portS, _ := net.SplitHostPort(srv.Addr().String())
	port, _ := strconv.Atoi(portS)
	var served []netResult
	for n := 1; ; n++ {
		if !a.json {
			fmt.Fprintf(out, "%s\n%s\n%s\n", netperf.ServerRule, netperf.Listening(port, n), netperf.ServerRule)
		}
		sess, err := srv.Accept(ctx)
		if err != nil {
			break
		}
		r, err := netServe(ctx, sess, a, out)
		served = append(served, r)
		if err != nil {
			fmt.Fprintf(stderr, "gobench net: test #%d from %s: %v\n", n, r.Peer, err)
		}
		if a.once || ctx.Err() != nil {
			break
		}
	}
	fmt.Fprintf(stderr, "gobench net: server stopped after %d test(s)\n", len(served))
	for i, r := range served {
		dir := "client sends"
		if r.Reverse {
			dir = "server sends"
		}
		state := "ok"
		if r.Err != "" {
			state = r.Err
		}
		fmt.Fprintf(stderr, "  #%d %s  %d stream(s), %s, %.2f Gbits/sec received, %.2f s: %s\n", i+1, r.Peer, r.Streams, dir, r.RecvBps/1e9, r.Seconds, state)
	}
	return nil
}

// netServe runs one accepted test through Prepare and Run, the session as
// the DB.
func netServe(ctx context.Context, sess *iperf3.Session, a *netArgs, out io.Writer) (netResult, error) {
	defer sess.Close()
	h, p := hostPort(sess.Remote())
	peer := net.JoinHostPort(h, strconv.Itoa(p))
	if !a.json {
		fmt.Fprintln(out, netperf.Accepted(h, p))
	}
	sp := sess.Spec()
	var s props.Set
	add := func(k, v string) { s.Add(props.Value{Key: k, Value: v, Source: "client " + peer}) }
	add("workload", netperf.Kind.Name)
	add("threadcount", strconv.Itoa(sp.Streams))
	// The client ends the test; this bound only guards against one that
	// vanishes (iperf3 -s has the same timer).
	add("maxexecutiontime", strconv.Itoa(int(sp.Duration/time.Second)+sess.Omit()+10))
	add(netperf.KeyReverse, strconv.FormatBool(sp.Reverse))
	add(netperf.KeyLen, strconv.Itoa(sp.BlockSize))
	at := time.Now()
	plan, err := workload.Prepare(&s, workload.WithDB("iperf3", sess))
	if err != nil {
		return netResult{Peer: peer, At: at, Err: err.Error()}, err
	}
	stop := context.AfterFunc(ctx, sess.Terminate)
	defer stop()
	cfg := plan.Job().(*netperf.Job).Config()
	start := netperf.JSONStart{Version: "gobench " + version, Timestamp: netperf.NewJSONTime(at),
		AcceptedFrom: &netperf.JSONHost{Host: h, Port: p}, TestStart: cfg.TestStart()}
	sum, _, err := netRun(context.WithoutCancel(ctx), plan, a, out, start)
	return resultOf(peer, at, sum, cfg, err), err
}

func netMain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	a, help, err := parseNetArgs(args)
	if help != "" {
		_, err := fmt.Fprint(stdout, help)
		return err
	}
	if err != nil {
		return usageErr(fmt.Errorf("net: %w", err))
	}
	if a.server {
		return netServer(ctx, a, stdout, stderr)
	}
	_, err = netClient(ctx, a, stdout)
	return err
}
