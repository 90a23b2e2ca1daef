package host

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// The trees under testdata are copies of the five attributes per cache and
// three per CPU that detection reads, from hosts of the shapes below.
func TestDetectFromTrees(t *testing.T) {
	sysfs := func(line int64) LineSize { return LineSize{line, SourceSysfs} }
	for _, tt := range []struct {
		tree      string
		caches    []Cache
		topology  Topology // without CPUs
		lineSizes []int64
	}{{
		// One package, two cores with two threads each: cpu0 and cpu2
		// share a core and its L1 and L2.
		tree: "x86",
		caches: []Cache{
			{1, "Data", sysfs(64), 48 << 10, []int{0, 1, 2, 3}, 2},
			{1, "Instruction", sysfs(64), 32 << 10, []int{0, 1, 2, 3}, 2},
			{2, "Unified", sysfs(64), 1280 << 10, []int{0, 1, 2, 3}, 2},
			{3, "Unified", sysfs(64), 12 << 20, []int{0, 1, 2, 3}, 1},
		},
		topology:  Topology{Source: SourceSysfs, Online: []int{0, 1, 2, 3}, Packages: 1, Dies: 1, Cores: 2, Threads: 4},
		lineSizes: []int64{64},
	}, {
		// Two packages of four cores; 64-byte lines in the private
		// L1 and L2, 128-byte lines in each package's L3. arm64 has no
		// die_id.
		tree: "kunpeng920",
		caches: []Cache{
			{1, "Data", sysfs(64), 64 << 10, []int{0, 1, 2, 3, 4, 5, 6, 7}, 8},
			{1, "Instruction", sysfs(64), 64 << 10, []int{0, 1, 2, 3, 4, 5, 6, 7}, 8},
			{2, "Unified", sysfs(64), 512 << 10, []int{0, 1, 2, 3, 4, 5, 6, 7}, 8},
			{3, "Unified", sysfs(128), 32 << 20, []int{0, 1, 2, 3, 4, 5, 6, 7}, 2},
		},
		topology:  Topology{Source: SourceSysfs, Online: []int{0, 1, 2, 3, 4, 5, 6, 7}, Packages: 2, Dies: 0, Cores: 8, Threads: 8},
		lineSizes: []int64{64, 128},
	}} {
		t.Run(tt.tree, func(t *testing.T) {
			info, err := DetectFrom(filepath.Join("testdata", tt.tree))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(info.Caches, tt.caches) {
				t.Errorf("caches:\n got %+v\nwant %+v", info.Caches, tt.caches)
			}
			topo := info.Topology
			topo.CPUs = nil
			if !reflect.DeepEqual(topo, tt.topology) {
				t.Errorf("topology:\n got %+v\nwant %+v", topo, tt.topology)
			}
			if got := info.LineSizes(); !slices.Equal(got, tt.lineSizes) {
				t.Errorf("LineSizes() = %v, want %v", got, tt.lineSizes)
			}
			for _, n := range info.Notes {
				if strings.HasPrefix(n, "sysfs:") {
					t.Errorf("unexpected note on a complete tree: %s", n)
				}
			}
		})
	}
}

func TestDetectFromKunpengTopology(t *testing.T) {
	info, err := DetectFrom("testdata/kunpeng920")
	if err != nil {
		t.Fatal(err)
	}
	want := []CPU{
		{0, 0, -1, 0}, {1, 0, -1, 1}, {2, 0, -1, 2}, {3, 0, -1, 3},
		{4, 1, -1, 4}, {5, 1, -1, 5}, {6, 1, -1, 6}, {7, 1, -1, 7},
	}
	if !slices.Equal(info.Topology.CPUs, want) {
		t.Errorf("CPUs:\n got %v\nwant %v", info.Topology.CPUs, want)
	}
	if got, want := DefaultLines(info), []int64{64, 128}; !slices.Equal(got, want) {
		t.Errorf("DefaultLines = %v, want %v", got, want)
	}
}

// cpuidLineSizes is what LineSizes falls back to without sysfs.
func cpuidLineSizes() []int64 {
	if line := readCPUID().Line.Bytes; line > 0 {
		return []int64{line}
	}
	return nil
}

func TestDetectFromWithoutCaches(t *testing.T) {
	info, err := DetectFrom("testdata/nocache")
	if err != nil {
		t.Fatal(err)
	}
	wantNote(t, info, "sysfs: no cache information under testdata/nocache/devices/system/cpu/cpu*/cache")
	for _, c := range info.Caches {
		if c.Line.Source != SourceCPUID || c.CPUs != nil {
			t.Errorf("cache %+v does not come from CPUID", c)
		}
	}
	if got, want := info.LineSizes(), cpuidLineSizes(); !slices.Equal(got, want) {
		t.Errorf("LineSizes() = %v, want CPUID's %v", got, want)
	}
	// The topology is still there.
	if got := info.Topology; got.Source != SourceSysfs || got.Cores != 2 || got.Threads != 2 {
		t.Errorf("topology = %+v, want 2 cores and 2 threads from sysfs", got)
	}
}

func TestDetectFromMissingTree(t *testing.T) {
	info, err := DetectFrom("testdata/missing")
	if err != nil {
		t.Fatal(err)
	}
	wantNote(t, info, "sysfs: no testdata/missing/devices/system/cpu; cache levels and topology from CPUID")
	if got, want := info.Caches, info.CPUID.caches(); len(want) > 0 && !reflect.DeepEqual(got, want) {
		t.Errorf("caches = %+v, want CPUID's %+v", got, want)
	}
	if got, want := info.LineSizes(), cpuidLineSizes(); !slices.Equal(got, want) {
		t.Errorf("LineSizes() = %v, want CPUID's %v", got, want)
	}
	if src := info.Topology.Source; src == SourceSysfs {
		t.Errorf("topology source = %q without sysfs", src)
	}
	if info.Topology.Online != nil {
		t.Errorf("online = %v without sysfs", info.Topology.Online)
	}
}

// writeTree writes files (path relative to devices/system/cpu → contents)
// under a new sysfs root and returns it.
func writeTree(t *testing.T, files map[string]string) string {
	root := t.TempDir()
	for name, data := range files {
		path := filepath.Join(root, "devices", "system", "cpu", name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// l1d is one CPU's L1 data cache as the kernel writes it.
func l1d() map[string]string {
	return map[string]string{
		"cpu0/cache/index0/level":               "1",
		"cpu0/cache/index0/type":                "Data",
		"cpu0/cache/index0/coherency_line_size": "64",
		"cpu0/cache/index0/size":                "32K",
		"cpu0/cache/index0/shared_cpu_list":     "0",
	}
}

// When the firmware leaves the line size out, the kernel hides the
// attribute; the cache is still listed, and CPUID supplies the line size.
func TestDetectFromWithoutLineSize(t *testing.T) {
	files := l1d()
	delete(files, "cpu0/cache/index0/coherency_line_size")
	delete(files, "cpu0/cache/index0/shared_cpu_list")
	info, err := DetectFrom(writeTree(t, files))
	if err != nil {
		t.Fatal(err)
	}
	want := []Cache{{1, "Data", LineSize{0, SourceSysfs}, 32 << 10, []int{0}, 1}}
	if !reflect.DeepEqual(info.Caches, want) {
		t.Errorf("caches = %+v, want %+v", info.Caches, want)
	}
	wantNote(t, info, "sysfs: no coherency_line_size for L1 Data")
	if got, want := info.LineSizes(), cpuidLineSizes(); !slices.Equal(got, want) {
		t.Errorf("LineSizes() = %v, want CPUID's %v", got, want)
	}
}

func TestDetectFromMalformed(t *testing.T) {
	for _, tt := range []struct {
		file, data string
	}{
		{"cpu0/cache/index0/level", "one"},
		{"cpu0/cache/index0/coherency_line_size", "64 bytes"},
		{"cpu0/cache/index0/size", "32KiB"},
		{"cpu0/cache/index0/shared_cpu_list", "3-1"},
		{"online", "0-"},
		{"cpu0/topology/physical_package_id", "x"},
	} {
		files := l1d()
		files[tt.file] = tt.data
		_, err := DetectFrom(writeTree(t, files))
		if err == nil || !strings.Contains(err.Error(), filepath.FromSlash(tt.file)) {
			t.Errorf("%s = %q: error %v, want one naming the file", tt.file, tt.data, err)
		}
	}
}

func wantNote(t *testing.T, info *Info, prefix string) {
	t.Helper()
	for _, n := range info.Notes {
		if strings.HasPrefix(n, filepath.FromSlash(prefix)) {
			return
		}
	}
	t.Errorf("no note %q in %q", prefix, info.Notes)
}
