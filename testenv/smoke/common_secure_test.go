//go:build secure

package smoke

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/testenv/secure"
)

// secureEnv opens the secured testenv and fails (never skips) unless the KDC and the
// named systems are up.
func secureEnv(t *testing.T, systems ...string) *secure.Env {
	t.Helper()
	e, err := secure.Open()
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Check(systems...); err != nil {
		t.Fatal(err)
	}
	return e
}

// noSecrets fails if any output holds a password of the run directory.
func noSecrets(t *testing.T, e *secure.Env, outputs ...string) {
	t.Helper()
	secrets := e.Secrets()
	if len(secrets) < 3 {
		t.Fatalf("only %d secrets in %s (want the users' and the store's)", len(secrets), e.Dir())
	}
	for i, o := range outputs {
		for _, s := range secrets {
			if strings.Contains(o, s) {
				t.Errorf("output %d holds a secret of %s/secrets", i, e.Dir())
			}
		}
	}
}

// unique is a name suffix for this test run.
func unique() string { return strconv.FormatInt(time.Now().UnixNano()%1e9, 36) }

func ctxFor(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}
