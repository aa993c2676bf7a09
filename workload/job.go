package workload

import (
	"context"
	"math/rand/v2"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/generator"
)

// Job is one kind of workload the Runner drives: YCSB's core workload, or
// dfsio, produce and consume. The Runner owns the workers, the op division,
// pacing, warm-up, time limit, stopping and measurement; a Job says what one
// operation is.
type Job interface {
	// Ops names the job's operations (index = operation id), as its
	// report blocks are named; Extra names further measurements.
	Ops() []string
	Extra() []string
	// NewTask makes the task of worker id, which owns conn, rnd (its own
	// deterministic random stream) and m. It is called on the worker's
	// goroutine before its first operation.
	NewTask(id int, conn drivers.Conn, rnd *rand.Rand, m *Meter) (Task, error)
	// Warnings are set-up notices for the user.
	Warnings() []string
}

// Task is one worker's operation loop body.
type Task interface {
	// Step performs one operation. It returns false when the worker must
	// stop (Java ends a load thread whose insert finally failed).
	Step(ctx context.Context) bool
}

// TaskCloser is implemented by a Task that holds resources across steps (an
// open file stream in dfsio). The runner calls Close after the task's last
// step, whether it finished or was stopped, before closing the connection.
type TaskCloser interface {
	Close(ctx context.Context) error
}

func generatorRand(seed uint64, id int) *rand.Rand { return generator.NewRand(seed, uint64(id)) }
