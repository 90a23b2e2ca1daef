package report

import (
	"testing"

	"github.com/mglayout/mglayout/probe"
	"github.com/mglayout/mglayout/probe/host"
)

// TestKernelsFamily checks that the pipe workloads compared between two
// kernels of one machine are one family, corrected for their number.
func TestKernelsFamily(t *testing.T) {
	rounds := func(v float64) []float64 {
		out := make([]float64, 10)
		for i := range out {
			out[i] = v * (1 + 0.001*float64(i))
		}
		return out
	}
	report := func(release string, rates ...float64) *Report {
		k := &probe.KernelResult{Release: release}
		for i, r := range rates {
			k.Workloads = append(k.Workloads, &probe.KernelWorkload{Name: string(rune('a' + i)), Total: rounds(r)})
		}
		return &Report{Kernel: k, Host: Host{Info: &host.Info{GOARCH: "amd64"}}}
	}
	m := Merge([]Machine{{Label: "A", Report: report("6.1", 100, 100, 100)}, {Label: "B", Report: report("6.13", 90, 100, 110)}})
	if len(m.Kernels) != 3 {
		t.Fatalf("%d kernel rows, want 3", len(m.Kernels))
	}
	for _, k := range m.Kernels {
		if k.Tests != 3 || k.P < k.RawP {
			t.Errorf("%s: %d tests, want the 3 workloads as one family (p %.4f, uncorrected %.4f)", k.Workload, k.Tests, k.P, k.RawP)
		}
	}
}
