package vet

import (
	"runtime/debug"
	"testing"
)

// TestTuneGC checks that a unit's collector runs at unitGOGC unless the
// environment says otherwise.
func TestTuneGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	t.Setenv("GOGC", "")
	TuneGC()
	if got := debug.SetGCPercent(100); got != unitGOGC {
		t.Errorf("GOGC unset: the collector runs at %d, want %d", got, unitGOGC)
	}
	t.Setenv("GOGC", "50")
	debug.SetGCPercent(50)
	TuneGC()
	if got := debug.SetGCPercent(100); got != 50 {
		t.Errorf("GOGC=50: the collector runs at %d, want the environment's 50", got)
	}
}
