package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// quitHooks run at the second interrupt, just before gobench quits
// (gobench yarn kills its application there).
var quitHooks struct {
	sync.Mutex
	fns map[int]func()
	n   int
}

// onQuit registers f to run at the second interrupt; the returned
// function unregisters it.
func onQuit(f func()) func() {
	quitHooks.Lock()
	defer quitHooks.Unlock()
	if quitHooks.fns == nil {
		quitHooks.fns = map[int]func(){}
	}
	quitHooks.n++
	id := quitHooks.n
	quitHooks.fns[id] = f
	return func() {
		quitHooks.Lock()
		defer quitHooks.Unlock()
		delete(quitHooks.fns, id)
	}
}

func runQuitHooks() {
	quitHooks.Lock()
	defer quitHooks.Unlock()
	for _, f := range quitHooks.fns {
		f()
	}
}

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sig
		fmt.Fprintln(os.Stderr, "\nInterrupted: finishing the operations in flight and printing the report (interrupt again to quit now).")
		cancel()
		<-sig
		runQuitHooks()
		os.Exit(130)
	}()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}
