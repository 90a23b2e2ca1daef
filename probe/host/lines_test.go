package host

import (
	"slices"
	"testing"
)

func TestLineSizes(t *testing.T) {
	cache := func(line int64, source string) Cache {
		return Cache{Level: 1, Type: "Data", Line: LineSize{line, source}}
	}
	cpuid := func(line int64) CPUID { return CPUID{Line: LineSize{line, SourceCPUID}} }
	for _, tt := range []struct {
		name     string
		info     *Info
		sizes    []int64
		defaults []int64
	}{
		{"nil", nil, nil, []int64{64, 128}},
		{"nothing known", &Info{}, nil, []int64{64, 128}},
		{"cpuid only", &Info{CPUID: cpuid(64)}, []int64{64}, []int64{64, 128}},
		{
			"sysfs wins over cpuid",
			&Info{Caches: []Cache{cache(128, SourceSysfs), cache(64, SourceSysfs), cache(128, SourceSysfs)}, CPUID: cpuid(32)},
			[]int64{64, 128}, []int64{64, 128},
		},
		{
			"unknown sysfs lines fall back to cpuid",
			&Info{Caches: []Cache{cache(0, SourceSysfs)}, CPUID: cpuid(64)},
			[]int64{64}, []int64{64, 128},
		},
		{"s390x", &Info{Caches: []Cache{cache(256, SourceSysfs)}}, []int64{256}, []int64{64, 128, 256}},
		{"old arm", &Info{Caches: []Cache{cache(32, SourceSysfs)}}, []int64{32}, []int64{32, 64, 128}},
	} {
		if tt.info != nil {
			if got := tt.info.LineSizes(); !slices.Equal(got, tt.sizes) {
				t.Errorf("%s: LineSizes() = %v, want %v", tt.name, got, tt.sizes)
			}
		}
		if got := DefaultLines(tt.info); !slices.Equal(got, tt.defaults) {
			t.Errorf("%s: DefaultLines = %v, want %v", tt.name, got, tt.defaults)
		}
	}
}
