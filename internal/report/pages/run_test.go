package pages

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mglayout/mglayout/internal/report"
)

// TestRunInterrupted cancels a report part-way and checks that it keeps
// what was measured, marked incomplete, in every format.
func TestRunInterrupted(t *testing.T) {
	needTwoCPUs(t)
	sc, err := report.KernelScenario()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	r, err := report.Run(ctx, sc, report.Options{Budget: 60 * time.Second, Lines: []int64{64, 128}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Complete || r.Incomplete == "" {
		t.Fatalf("complete %v, incomplete %q: want an incomplete report", r.Complete, r.Incomplete)
	}
	if len(r.Layouts.Structs) == 0 || len(r.Verdicts) == 0 && len(r.Diffs) > 0 && r.Sweep == nil {
		t.Errorf("the static part was lost")
	}
	var text, md, html strings.Builder
	for _, w := range []func() error{
		func() error { return Text(&text, r) },
		func() error { return Markdown(&md, r) },
		func() error { return HTML(&html, r) },
	} {
		if err := w(); err != nil {
			t.Fatal(err)
		}
	}
	if !strings.Contains(text.String(), "INCOMPLETE") || !strings.Contains(md.String(), "Incomplete") || !strings.Contains(html.String(), "ncomplete") {
		t.Errorf("the renderers do not say the report is incomplete")
	}
}

func needTwoCPUs(t *testing.T) {
	t.Helper()
	if runtime.NumCPU() < 2 {
		t.Skip("the report's probes need at least 2 CPUs; this machine has 1")
	}
}
