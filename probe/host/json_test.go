package host

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestJSONKeys pins the schema in the package documentation: renaming or
// dropping a key breaks the reports that embed it.
func TestJSONKeys(t *testing.T) {
	info, err := DetectFrom("testdata/kunpeng920")
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(info)
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	keys := make(map[string]bool)
	collectKeys(doc, "", keys)
	want := []string{
		"affinity",
		"analysis_lines",
		"cache_line_pad", "cache_line_pad.bytes", "cache_line_pad.source",
		"caches", "caches[].cpus", "caches[].instances", "caches[].level",
		"caches[].line", "caches[].line.bytes", "caches[].line.source",
		"caches[].size_bytes", "caches[].type",
		"cpuid", "cpuid.brand", "cpuid.l1d_bytes", "cpuid.l1i_bytes", "cpuid.l2_bytes", "cpuid.l3_bytes",
		"cpuid.line", "cpuid.line.bytes", "cpuid.line.source",
		"cpuid.logical_cores", "cpuid.physical_cores", "cpuid.threads_per_core", "cpuid.vendor",
		"goarch", "goos",
		"line_sizes",
		"notes",
		"topology", "topology.cores",
		"topology.cpus", "topology.cpus[].core", "topology.cpus[].die", "topology.cpus[].id", "topology.cpus[].package",
		"topology.dies", "topology.online", "topology.packages", "topology.source", "topology.threads",
	}
	if got := slices.Sorted(maps.Keys(keys)); !slices.Equal(got, want) {
		t.Errorf("JSON keys:\n got %s\nwant %s", strings.Join(got, " "), strings.Join(want, " "))
	}

	// Decoding reads back what was encoded; the derived lists are
	// recomputed, not stored.
	var back Info
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if got, want := back.LineSizes(), []int64{64, 128}; !slices.Equal(got, want) {
		t.Errorf("decoded LineSizes() = %v, want %v", got, want)
	}
}

// collectKeys adds the dotted path of every key in v to keys, writing
// array elements as "[]".
func collectKeys(v any, prefix string, keys map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, elem := range v {
			path := k
			if prefix != "" {
				path = prefix + "." + k
			}
			keys[path] = true
			collectKeys(elem, path, keys)
		}
	case []any:
		for _, elem := range v {
			collectKeys(elem, prefix+"[]", keys)
		}
	}
}
