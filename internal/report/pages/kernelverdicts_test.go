package pages

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/mglayout/mglayout/probe"
)

// TestKernelVerdicts checks the static verdicts printed beside the kernel
// workloads against kernel_truth.md §3: the coarse REALTIME reader that
// current_time() uses touches lines 0+1 at 64 B in v6.1 and in v6.13+,
// line 0 only at 128 B phase 0 in both (xtime_sec is at core 120 in v6.1,
// and in line 1 at 64 B from v6.13), and no line is falsely shared.
func TestKernelVerdicts(t *testing.T) {
	for _, tc := range []struct {
		release string
		want    []string // regular expressions, one per line
	}{
		{"6.1.0-18-amd64", []string{
			`^static verdicts \(mglayout check tk_core@v6.1\):$`,
			`^tk_core@v6.1 \(amd64\): lines each path touches$`,
			`^  ktime_get_coarse_real_ts64 \* +0-1 +0 +0-1$`,
			`^  tick +0-4 +0-2 +0-2$`,
			`^  64 B: no false sharing at any phase$`,
		}},
		{"6.13.2", []string{
			`^static verdicts \(mglayout check tk_data@v6.13 mg_floor@v6.13\):$`,
			`^  ktime_get_coarse_real_ts64_mg \* +0-1 +0 +0-1$`,
			`^mg_floor@v6.13 \(amd64\): lines each path touches$`,
			`^  ktime_get_coarse_real_ts64_mg \* +0 +0 +0$`,
		}},
	} {
		r := &probe.KernelResult{Release: tc.release}
		r.Model, _ = probe.NearestModel(tc.release)
		r.Floor = probe.FloorModel(tc.release)
		var out bytes.Buffer
		if err := WriteKernelVerdicts(&out, r); err != nil {
			t.Fatal(err)
		}
		for _, re := range tc.want {
			if !regexp.MustCompile("(?m)" + re).MatchString(out.String()) {
				t.Errorf("%s: no line matches %s in\n%s", tc.release, re, out.String())
			}
		}
		if strings.Contains(out.String(), "FALSE SHARING") {
			t.Errorf("%s: false sharing reported:\n%s", tc.release, out.String())
		}
	}
}
