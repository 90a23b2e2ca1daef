package probe

import (
	"context"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mglayout/mglayout/structs"
)

func TestNearestModel(t *testing.T) {
	for _, tc := range []struct {
		release, model, note string // note: a part of the note; "" for none
	}{
		{"4.19.0-26-amd64", "tk_core@v6.1", "older than the oldest modelled kernel (v5.10)"},
		{"5.4.0-150-generic", "tk_core@v6.1", "v5.4 is older"},
		{"5.10.0-28-amd64", "tk_core@v6.1", ""},
		{"5.15.0-91-generic", "tk_core@v6.1", ""},
		{"6.1.0-18-amd64", "tk_core@v6.1", ""},
		{"6.12", "tk_core@v6.1", ""},
		{"6.12.4", "tk_core@v6.1", ""},
		{"6.12.5-200.fc41.x86_64", "tk_core@v6.1", "6.12.5 carries backports"},
		{"6.13.0-rc3", "tk_data@v6.13", ""},
		{"6.14.11-300.fc42.x86_64", "tk_data@v6.13", ""},
		{"6.15.2", "tk_data@v6.15", ""},
		{"6.16.0-1-arm64", "tk_data@v6.15", ""},
		{"6.17.1", "tk_data@v6.17", ""},
		{"6.18.44-fc-v669", "tk_data@v6.17", ""},
		{"7.0.3", "tk_data@v6.17", ""},
		{"7.1.0-rc1", "tk_data@v7.1", ""},
		{"7.1.5", "tk_data@v7.1", ""},
		{"7.3.0", "tk_data@v7.1", "newer than the newest modelled kernel"},
		{"8.0", "tk_data@v7.1", "v8.0 is newer"},
		{"", "", "cannot read a kernel version"},
		{"linux", "", `from "linux"`},
	} {
		model, note := NearestModel(tc.release)
		if model != tc.model {
			t.Errorf("NearestModel(%q) = %q, want %q", tc.release, model, tc.model)
		}
		if tc.note == "" && note != "" || tc.note != "" && !strings.Contains(note, tc.note) {
			t.Errorf("NearestModel(%q) note %q, want %q", tc.release, note, tc.note)
		}
		if model != "" && !slices.Contains(structs.Names(), model) {
			t.Errorf("NearestModel(%q) = %q, which is not a built-in model (%v)", tc.release, model, structs.Names())
		}
	}
	for release, want := range map[string]string{"6.12.9": "", "6.13.0": "mg_floor@v6.13", "7.1.0-rc1": "mg_floor@v6.13", "5.10.1": "", "x": ""} {
		got := FloorModel(release)
		if got != want {
			t.Errorf("FloorModel(%q) = %q, want %q", release, got, want)
		}
		if got != "" && !slices.Contains(structs.Names(), got) {
			t.Errorf("FloorModel(%q) = %q, not a built-in model", release, got)
		}
	}
}

// openFDs counts the process's open file descriptors.
func openFDs(t *testing.T) int {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("cannot count file descriptors: %v", err)
	}
	return len(entries)
}

// settledGoroutines waits for goroutines that are exiting.
func settledGoroutines(want int) int {
	n := runtime.NumGoroutine()
	for i := 0; i < 100 && n > want; i++ {
		time.Sleep(10 * time.Millisecond)
		n = runtime.NumGoroutine()
	}
	return n
}

func TestKernel(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the kernel workloads are Linux's")
	}
	openFDs(t) // the first read may open the runtime's poller
	fds, goroutines := openFDs(t), runtime.NumGoroutine()
	r, err := Kernel(context.Background(), KernelOptions{Duration: 20 * time.Millisecond, Count: 2})
	if err != nil {
		t.Fatal(err)
	}
	if r.Rounds != 2 || r.Interrupted {
		t.Fatalf("rounds %d, interrupted %v; want 2 complete rounds", r.Rounds, r.Interrupted)
	}
	if r.Release == "" || r.Model == "" {
		t.Errorf("release %q, model %q", r.Release, r.Model)
	}
	if len(r.Workloads) != 2 {
		t.Fatalf("%d workloads, want pipe1_threads and pipe_throughput", len(r.Workloads))
	}
	for _, w := range r.Workloads {
		wantWorkers := len(r.CPUs)
		if w.Name == "pipe_throughput" {
			wantWorkers = 1
		}
		if w.Workers() != wantWorkers || len(w.Worker) != wantWorkers {
			t.Errorf("%s: %d workers (%d series), want %d", w.Name, w.Workers(), len(w.Worker), wantWorkers)
		}
		if len(w.Total) != 2 {
			t.Errorf("%s: %d samples, want 2", w.Name, len(w.Total))
		}
		for round, total := range w.Total {
			if !(total > 0) {
				t.Errorf("%s round %d: %v iterations/s", w.Name, round, total)
			}
			var sum float64
			for k := range w.Worker {
				sum += w.Worker[k][round]
			}
			if d := sum/total - 1; d > 1e-9 || d < -1e-9 {
				t.Errorf("%s round %d: the workers sum to %v, the total is %v", w.Name, round, sum, total)
			}
			if pt := w.PerThread()[round]; pt*float64(w.Workers()) != total {
				t.Errorf("%s: per thread %v × %d ≠ total %v", w.Name, pt, w.Workers(), total)
			}
		}
	}
	if got := openFDs(t); got != fds {
		t.Errorf("%d file descriptors open after the run, %d before: a pipe leaked", got, fds)
	}
	if got := settledGoroutines(goroutines); got > goroutines {
		t.Errorf("%d goroutines after the run, %d before", got, goroutines)
	}
}

func TestKernelCancel(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the kernel workloads are Linux's")
	}
	openFDs(t)
	fds := openFDs(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Cancel during the second round's first run, which then stops early.
	r, err := Kernel(ctx, KernelOptions{Duration: 200 * time.Millisecond, Count: 4, Workers: 3, Progress: func(p Progress) {
		if strings.HasPrefix(p.String(), "round 2/4, run 1/") {
			go func() { time.Sleep(20 * time.Millisecond); cancel() }()
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Interrupted || r.Rounds != 1 {
		t.Fatalf("interrupted %v after %d rounds; want interrupted after 1", r.Interrupted, r.Rounds)
	}
	for _, w := range r.Workloads {
		if len(w.Total) != 1 {
			t.Errorf("%s: %d samples, want 1 (the complete round)", w.Name, len(w.Total))
		}
		for k := range w.Worker {
			if len(w.Worker[k]) != 1 {
				t.Errorf("%s worker %d: %d samples, want 1", w.Name, k, len(w.Worker[k]))
			}
		}
	}
	if w := r.Workloads[0]; w.Workers() != 3 {
		t.Errorf("pipe1_threads with -workers 3 ran %d workers", w.Workers())
	}
	if got := openFDs(t); got != fds {
		t.Errorf("%d file descriptors open after the run, %d before: a pipe leaked", got, fds)
	}
}

func TestKernelOptions(t *testing.T) {
	for _, o := range []KernelOptions{{Duration: time.Millisecond, Count: 2}, {Duration: MinDuration}, {Duration: MinDuration, Count: 1, Workers: -1}, {Duration: MinDuration, Count: 1, CPUs: []int{1 << 20}}, {Duration: MinDuration, Count: 1, CPUs: []int{0, 0}}} {
		if _, err := Kernel(context.Background(), o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}
