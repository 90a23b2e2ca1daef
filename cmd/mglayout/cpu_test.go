package main

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

const kunpengTree = "../../probe/host/testdata/kunpeng920"

func runCPU(t *testing.T, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	status = run(append([]string{"cpu"}, args...), &out, &errOut)
	return status, out.String(), errOut.String()
}

func TestCPUText(t *testing.T) {
	status, out, stderr := runCPU(t, "-sysfs", kunpengTree)
	if status != 0 {
		t.Fatalf("exit status %d: %s", status, stderr)
	}
	for _, want := range []string{
		"LEVEL  TYPE         LINE  SIZE  SOURCE  CPUS  CACHES\n",
		"L1     Data         64    64K   sysfs   0-7   8 × 1 CPU\n",
		"L3     Unified      128   32M   sysfs   0-7   2 × 4 CPUs\n",
		"topology:                2 packages, 8 cores, 8 threads (sysfs)\n",
		"online:                  0-7\n",
		"\nline sizes for analysis: 64, 128\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestCPUJSON(t *testing.T) {
	for _, args := range [][]string{{"-json"}, {"-format", "json"}, {"-json", "-format", "json"}} {
		status, out, stderr := runCPU(t, append(args, "-sysfs", kunpengTree)...)
		if status != 0 {
			t.Fatalf("%v: exit status %d: %s", args, status, stderr)
		}
		var doc struct {
			Caches []struct {
				Level int `json:"level"`
				Line  struct {
					Bytes  int64  `json:"bytes"`
					Source string `json:"source"`
				} `json:"line"`
			} `json:"caches"`
			LineSizes     []int64 `json:"line_sizes"`
			AnalysisLines []int64 `json:"analysis_lines"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%v: %v:\n%s", args, err, out)
		}
		if len(doc.Caches) != 4 || doc.Caches[3].Level != 3 || doc.Caches[3].Line.Bytes != 128 || doc.Caches[3].Line.Source != "sysfs" {
			t.Errorf("%v: caches = %+v, want L3 with 128-byte lines from sysfs last of 4", args, doc.Caches)
		}
		if want := []int64{64, 128}; !slices.Equal(doc.LineSizes, want) || !slices.Equal(doc.AnalysisLines, want) {
			t.Errorf("%v: line_sizes %v, analysis_lines %v; want %v for both", args, doc.LineSizes, doc.AnalysisLines, want)
		}
	}
}

func TestCPUUsageErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-format", "yaml"}, `mglayout cpu: -format "yaml" is not one of text, json`},
		{[]string{"-json", "-format", "text"}, "mglayout cpu: -json and -format text disagree"},
		{[]string{"-sysfs", "testdata/no-such-tree"}, "mglayout cpu: -sysfs testdata/no-such-tree is not a directory"},
		{[]string{"extra"}, `mglayout cpu: cpu takes no arguments, got "extra"`},
		{[]string{"-lines", "64"}, "mglayout cpu: flag provided but not defined: -lines"},
	} {
		status, out, stderr := runCPU(t, tt.args...)
		if status != 2 || out != "" || !strings.HasPrefix(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("cpu %v: status %d, stdout %q, stderr %q; want status 2 and one line starting %q",
				tt.args, status, out, stderr, tt.want)
		}
	}
}
