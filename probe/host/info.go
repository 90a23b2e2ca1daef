package host

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
)

// Sources of a line size; see the package documentation for what each one
// is worth.
const (
	SourceSysfs   = "sysfs"
	SourceCPUID   = "cpuid"
	SourceXSysCPU = "x/sys/cpu"
)

// Info is what the host reports. It is also the JSON schema of
// "mglayout cpu -json"; see the package documentation.
type Info struct {
	GOOS   string `json:"goos"`
	GOARCH string `json:"goarch"`

	// Caches holds one entry per distinct (level, type, line, size),
	// sorted by level and type. They come from sysfs, or from CPUID when
	// sysfs has none.
	Caches []Cache `json:"caches"`

	CPUID CPUID `json:"cpuid"`

	// CacheLinePad is the size of x/sys/cpu.CacheLinePad in this build.
	CacheLinePad LineSize `json:"cache_line_pad"`

	// Affinity lists the CPUs this thread may run on, in increasing
	// order; nil when the system does not say.
	Affinity []int `json:"affinity"`

	Topology Topology `json:"topology"`

	// Notes says what could not be read and what was used instead.
	Notes []string `json:"notes"`
}

// LineSize is a line size in bytes with the source that reported it.
type LineSize struct {
	Bytes  int64  `json:"bytes"` // 0 when unknown
	Source string `json:"source"`
}

// Cache describes the caches of one level and type that share a line size
// and a capacity.
type Cache struct {
	Level int      `json:"level"`
	Type  string   `json:"type"` // "Data", "Instruction" or "Unified", as sysfs spells them
	Line  LineSize `json:"line"`
	Size  int64    `json:"size_bytes"` // capacity of one cache; 0 when unknown

	// CPUs are the CPUs served by caches of this kind, in increasing
	// order, and Instances how many separate caches serve them: a private
	// L1 per core, one L3 per package. Both are empty for CPUID entries.
	CPUs      []int `json:"cpus"`
	Instances int   `json:"instances"`
}

// CPUID is what github.com/klauspost/cpuid/v2 reports. Sizes are in bytes,
// 0 when unknown.
type CPUID struct {
	Brand          string   `json:"brand"`
	Vendor         string   `json:"vendor"`
	Line           LineSize `json:"line"`
	LogicalCores   int      `json:"logical_cores"`
	PhysicalCores  int      `json:"physical_cores"`
	ThreadsPerCore int      `json:"threads_per_core"`
	L1D            int64    `json:"l1d_bytes"`
	L1I            int64    `json:"l1i_bytes"`
	L2             int64    `json:"l2_bytes"`
	L3             int64    `json:"l3_bytes"`
}

// Topology says how the online CPUs map to packages, dies and cores.
type Topology struct {
	// Source is "sysfs", "cpuid" when only CPUID's counts are known, or
	// empty when nothing is.
	Source string `json:"source"`

	// Online lists the online CPUs; nil when unknown.
	Online []int `json:"online"`

	Packages int `json:"packages"`
	Dies     int `json:"dies"` // 0 when the kernel does not report die_id
	Cores    int `json:"cores"`
	Threads  int `json:"threads"` // logical CPUs

	// CPUs has one entry per CPU with a topology directory, by ID.
	CPUs []CPU `json:"cpus"`
}

// CPU places one logical CPU.
type CPU struct {
	ID      int `json:"id"`
	Package int `json:"package"`
	Die     int `json:"die"` // -1 when unknown
	Core    int `json:"core"`
}

// Detect reports on this host, reading sysfs under /sys.
func Detect() (*Info, error) { return DetectFrom("/sys") }

// DetectFrom is Detect with sysfs mounted at sysfsRoot, so that tests and
// "mglayout cpu -sysfs" can read a copy of another machine's tree. CPUID,
// x/sys/cpu and the affinity mask always describe the running host.
//
// A missing file is not an error: what is missing is said in the notes.
// The error reports a file that exists but does not hold what the kernel
// writes there, which means sysfsRoot is not a sysfs tree.
func DetectFrom(sysfsRoot string) (*Info, error) {
	info := &Info{
		GOOS:         runtime.GOOS,
		GOARCH:       runtime.GOARCH,
		CPUID:        readCPUID(),
		CacheLinePad: cacheLinePad(),
	}
	if err := info.readSysfs(filepath.Join(sysfsRoot, "devices", "system", "cpu")); err != nil {
		return nil, err
	}
	if len(info.Caches) == 0 {
		info.Caches = info.CPUID.caches()
	}
	if info.Topology.Source == "" {
		info.Topology = info.CPUID.topology(info.Topology.Online)
	}
	if cpus, err := affinity(); err != nil {
		info.note("affinity mask: %v", err)
	} else {
		info.Affinity = cpus
	}
	info.checkCPUID()
	// Empty lists, not null, in the JSON: there is nothing to report.
	if info.Caches == nil {
		info.Caches = []Cache{}
	}
	if info.Notes == nil {
		info.Notes = []string{}
	}
	return info, nil
}

// readSysfs fills in the caches and topology that sysfs has under cpuDir.
func (info *Info) readSysfs(cpuDir string) error {
	ids, err := cpuIDs(cpuDir)
	if errors.Is(err, fs.ErrNotExist) {
		info.note("sysfs: no %s; cache levels and topology from CPUID", cpuDir)
		return nil
	}
	if err != nil {
		return err
	}
	if info.Caches, err = readCaches(cpuDir, ids, info.note); err != nil {
		return err
	}
	info.Topology, err = readTopology(cpuDir, ids, info.note)
	return err
}

func (info *Info) note(format string, args ...any) {
	info.Notes = append(info.Notes, fmt.Sprintf(format, args...))
}

// MarshalJSON adds the derived "line_sizes" and "analysis_lines" to the
// fields, so that readers of the JSON need not repeat the rules.
func (info Info) MarshalJSON() ([]byte, error) {
	type fields Info // without the method
	return json.Marshal(struct {
		fields
		LineSizes     []int64 `json:"line_sizes"`
		AnalysisLines []int64 `json:"analysis_lines"`
	}{fields(info), info.LineSizes(), DefaultLines(&info)})
}

// UnmarshalJSON reads what MarshalJSON writes, strictly: the derived
// line_sizes and analysis_lines are accepted and recomputed, anything
// else unknown is an error.
func (info *Info) UnmarshalJSON(data []byte) error {
	type fields Info // without the method
	var v struct {
		fields
		LineSizes     []int64 `json:"line_sizes"`
		AnalysisLines []int64 `json:"analysis_lines"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return err
	}
	*info = Info(v.fields)
	return nil
}
