//go:build probecount

package probe

import (
	"maps"
	"testing"
	"time"

	"github.com/mglayout/mglayout/layout/access"
)

// Run with: go test -tags probecount ./probe/

func resetCounts() {
	for k := range opCounts {
		opCounts[k].Store(0)
	}
}

func counts() map[opKind]uint64 {
	out := map[opKind]uint64{}
	for k := range opCounts {
		if n := opCounts[k].Load(); n > 0 {
			out[opKind(k)] = n
		}
	}
	return out
}

func scaled(per map[opKind]uint64, n uint64) map[opKind]uint64 {
	out := map[opKind]uint64{}
	for k, v := range per {
		out[k] = v * n
	}
	return out
}

// TestOpCounts runs every workload path a known number of times on one
// goroutine and checks that it did exactly the memory operations the path
// names, kind by kind, and no others.
func TestOpCounts(t *testing.T) {
	s := workload(t)
	const n = 777
	for _, c := range opsPerIteration {
		prog, m := compileOn(t, s, c.spec)
		resetCounts()
		var retries uint64
		for v := range uint64(n) {
			retries += prog.iterate(v)
		}
		got, want := counts(), scaled(c.ops, n)
		if !maps.Equal(got, want) {
			t.Errorf("%s: %d iterations did %v, want %v", c.spec, n, got, want)
		}
		if retries != 0 {
			t.Errorf("%s: %d seqlock retries with no writer", c.spec, retries)
		}
		m.close()
	}
}

// TestOpCountsLoop checks the worker loop, unthrottled and throttled: the
// operations are the iterations it reports times those of one iteration.
func TestOpCountsLoop(t *testing.T) {
	s := workload(t)
	for _, c := range opsPerIteration[:2] {
		for _, rate := range []float64{access.Hot, 1000} {
			prog, m := compileOn(t, s, c.spec)
			resetCounts()
			f := new(flag)
			done := make(chan [2]uint64)
			go func() {
				it, r := prog.loop(&f.stop, rate)
				done <- [2]uint64{it, r}
			}()
			time.Sleep(15 * time.Millisecond)
			f.stop.Store(true)
			res := <-done
			if got, want := counts(), scaled(c.ops, res[0]); !maps.Equal(got, want) || res[0] == 0 {
				t.Errorf("%s at rate %v: %d iterations did %v, want %v", c.spec, rate, res[0], got, want)
			}
			if res[1] != 0 {
				t.Errorf("%s: %d retries alone", c.spec, res[1])
			}
			m.close()
		}
	}
}
