package costmodel

import (
	"context"
	"testing"
	"time"

	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/probe"
)

// TestMeasure runs a short calibration and checks what it holds: a curve
// per pair of kinds asked for, a positive rate of each side at every
// relation, the host's line, the rounds run. No rate is compared: that is
// a measured effect, which the probe's statistics judge.
func TestMeasure(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a calibration runs the probe")
	}
	if _, err := probe.UsableCPUs(nil); err != nil {
		t.Skipf("calibration needs 2 CPUs: %v", err)
	}
	kinds := []Kinds{{access.Add, access.Read}, {access.Write, access.Add}}
	c, err := Measure(context.Background(), kinds, probe.Options{Duration: probe.MinDuration, Count: 2, HostLine: 64})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if c.Line != 64 || c.Rounds != 2 || c.Duration != (10*time.Millisecond).String() || len(c.Curves) != 2 {
		t.Errorf("calibration %+v, want 2 curves of 2 rounds of 10ms at 64 B", c)
	}
	for _, k := range kinds {
		if c.Curve(k) == nil {
			t.Errorf("no curve for %s", k)
		}
	}
}
