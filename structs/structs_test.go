package structs_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/mglayout/mglayout/structs"
)

// TestNames pins the set of built-in models that DESIGN.md promises.
func TestNames(t *testing.T) {
	want := []string{
		"mg_floor@v6.13",
		"shadow_timekeeper@v6.1", "shadow_timekeeper@v6.1+guohui", "timekeeper_lock@v6.1",
		"tk_core@v6.1", "tk_core@v6.1+guohui", "tk_core@v6.1+rt",
		"tk_data@v6.13", "tk_data@v6.15", "tk_data@v6.17", "tk_data@v7.1",
		"tk_fast@v6.1",
	}
	if got := structs.Names(); !slices.Equal(got, want) {
		t.Errorf("Names() = %q, want %q", got, want)
	}
}

// TestSpotChecks asserts the figures quoted in the 2023 thread and in
// kernel_truth.md one by one, so that a failure reads as the fact broken.
func TestSpotChecks(t *testing.T) {
	// tglx's pahole: seq 0 4, timekeeper 8 280, tkr_mono 8 56.
	core := lookup(t, "tk_core@v6.1")
	for _, c := range []struct {
		path      string
		off, size int64
	}{
		{"seq", 0, 4},
		{"timekeeper", 8, 280},
		{"timekeeper.tkr_mono", 8, 56},
		{"timekeeper.xtime_sec", 120, 8},
	} {
		f := core.Field(c.path)
		if f == nil || f.Offset != c.off || f.Size != c.size {
			t.Errorf("tk_core@v6.1 %s = %+v, want offset %d size %d", c.path, f, c.off, c.size)
		}
	}
	if core.Size != 320 || core.Align != 64 {
		t.Errorf("tk_core@v6.1 size %d align %d, want 320 and 64", core.Size, core.Align)
	}
	if n64, n128 := core.LineCount(64), core.LineCount(128); n64 != 5 || n128 != 3 {
		t.Errorf("tk_core@v6.1 LineCount(64) %d, LineCount(128) %d, want 5 and 3", n64, n128)
	}
	// 64-byte aligned: one phase at 64, two (0 and 64) at 128.
	if p := core.Phases(128); !slices.Equal(p, []int64{0, 64}) {
		t.Errorf("tk_core@v6.1 Phases(128) = %v, want [0 64]", p)
	}
	if p := core.Phases(64); !slices.Equal(p, []int64{0}) {
		t.Errorf("tk_core@v6.1 Phases(64) = %v, want [0]", p)
	}

	// Guo Hui's padding moves xtime_sec to 128, a line of its own at 64
	// bytes, and leaves tk_core at 320 bytes.
	gh := lookup(t, "tk_core@v6.1+guohui")
	if f := gh.Field("timekeeper.xtime_sec"); f == nil || f.Offset != 128 {
		t.Errorf("tk_core@v6.1+guohui timekeeper.xtime_sec = %+v, want offset 128", f)
	}
	if gh.Size != 320 {
		t.Errorf("tk_core@v6.1+guohui size %d, want 320", gh.Size)
	}

	// v7.1-rc1: the timekeeper grows to 304, the shadow moves to 312 and
	// the lock to 616 in a 640-byte tk_data.
	v71 := lookup(t, "tk_data@v7.1")
	if v71.Size != 640 {
		t.Errorf("tk_data@v7.1 size %d, want 640", v71.Size)
	}
	for path, off := range map[string]int64{"shadow_timekeeper": 312, "lock": 616} {
		if f := v71.Field(path); f == nil || f.Offset != off {
			t.Errorf("tk_data@v7.1 %s = %+v, want offset %d", path, f, off)
		}
	}

	// mg_floor: 8 bytes on its own 64-byte line.
	mg := lookup(t, "mg_floor@v6.13")
	if mg.Size != 8 || mg.Align != 64 {
		t.Errorf("mg_floor@v6.13 size %d align %d, want 8 and 64", mg.Size, mg.Align)
	}
}

// TestValidate runs the model invariants on every model for every
// supported GOARCH.
func TestValidate(t *testing.T) {
	for _, arch := range structs.Archs {
		for _, name := range structs.Names() {
			s := lookupArch(t, name, arch)
			if err := s.Validate(); err != nil {
				t.Errorf("%s on %s: %v", name, arch, err)
			}
			if s.Name != name || s.Arch != arch || len(s.Fields) == 0 {
				t.Errorf("Lookup(%q, %s) gave name %q arch %q with %d fields", name, arch, s.Name, s.Arch, len(s.Fields))
			}
		}
	}
}

// TestArm64SameAsAmd64: both are LP64 with 64-byte ____cacheline_aligned,
// so every model must lay out identically.
func TestArm64SameAsAmd64(t *testing.T) {
	if !slices.Contains(structs.Archs, "arm64") {
		t.Fatalf("structs.Archs = %v lacks arm64", structs.Archs)
	}
	for _, name := range structs.Names() {
		a, b := lookupArch(t, name, "amd64"), lookupArch(t, name, "arm64")
		if a.Size != b.Size || a.Align != b.Align || len(a.Fields) != len(b.Fields) {
			t.Errorf("%s: amd64 size %d align %d fields %d; arm64 %d %d %d", name, a.Size, a.Align, len(a.Fields), b.Size, b.Align, len(b.Fields))
			continue
		}
		for i := range a.Fields {
			fa, fb := a.Fields[i], b.Fields[i]
			if fa.Path != fb.Path || fa.Offset != fb.Offset || fa.Size != fb.Size || fa.Align != fb.Align || fa.Parent != fb.Parent {
				t.Errorf("%s: amd64 %s %d+%d, arm64 %s %d+%d", name, fa.Path, fa.Offset, fa.Size, fb.Path, fb.Offset, fb.Size)
			}
		}
	}
}

// TestLookupErrors: a bad name lists the valid ones; a 32-bit GOARCH is
// refused, since the models hold for 64-bit kernels only.
func TestLookupErrors(t *testing.T) {
	s, err := structs.Lookup("tk_core@v9.9", "amd64")
	if err == nil || s != nil {
		t.Fatalf("Lookup(tk_core@v9.9) = %v, %v; want an error", s, err)
	}
	for _, name := range structs.Names() {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("error %q does not name the model %s", err, name)
		}
	}
	if !strings.Contains(err.Error(), "tk_core@v9.9") {
		t.Errorf("error %q does not name the unknown model", err)
	}
	s, err = structs.Lookup("tk_core@v6.1", "386")
	if err == nil || s != nil {
		t.Fatalf("Lookup(tk_core@v6.1, 386) = %v, %v; want an error", s, err)
	}
	if !strings.Contains(err.Error(), "386") {
		t.Errorf("error %q does not name the GOARCH", err)
	}
}
