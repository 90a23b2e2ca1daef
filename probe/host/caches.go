package host

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// readCaches reads cpu*/cache/index* under cpuDir and merges the caches
// that agree on level, type, line and size into one entry each. A CPU
// without a cache directory (offline, or a kernel without cacheinfo for
// it) is skipped.
func readCaches(cpuDir string, ids []int, note func(string, ...any)) ([]Cache, error) {
	type key struct {
		level      int
		typ        string
		line, size int64
	}
	type served struct {
		cpus      map[int]bool
		instances map[string]bool // by shared_cpu_list
	}
	byKey := make(map[key]*served)
	var noLine []string // levels without coherency_line_size
	for _, id := range ids {
		cacheDir := cpuPath(cpuDir, id, "cache")
		entries, err := os.ReadDir(cacheDir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if !e.IsDir() || !strings.HasPrefix(e.Name(), "index") {
				continue
			}
			dir := filepath.Join(cacheDir, e.Name())
			c, shared, err := readIndex(dir)
			if err != nil {
				return nil, err
			}
			if shared == nil {
				shared = []int{id}
			}
			k := key{c.Level, c.Type, c.Line.Bytes, c.Size}
			if c.Line.Bytes == 0 {
				noLine = append(noLine, fmt.Sprintf("L%d %s", c.Level, c.Type))
			}
			s := byKey[k]
			if s == nil {
				s = &served{make(map[int]bool), make(map[string]bool)}
				byKey[k] = s
			}
			for _, cpu := range shared {
				s.cpus[cpu] = true
			}
			s.instances[FormatCPUList(shared)] = true
		}
	}
	if len(byKey) == 0 {
		note("sysfs: no cache information under %s; cache levels from CPUID", filepath.Join(cpuDir, "cpu*", "cache"))
		return nil, nil
	}
	if len(noLine) > 0 {
		slices.Sort(noLine)
		// On arm64 the line sizes come from the firmware's PPTT, which
		// may leave them out; the kernel then hides the attribute.
		note("sysfs: no coherency_line_size for %s", strings.Join(slices.Compact(noLine), ", "))
	}
	caches := make([]Cache, 0, len(byKey))
	for k, s := range byKey {
		caches = append(caches, Cache{
			Level:     k.level,
			Type:      k.typ,
			Line:      LineSize{k.line, SourceSysfs},
			Size:      k.size,
			CPUs:      slices.Sorted(maps.Keys(s.cpus)),
			Instances: len(s.instances),
		})
	}
	slices.SortFunc(caches, func(a, b Cache) int {
		return cmp.Or(
			cmp.Compare(a.Level, b.Level),
			strings.Compare(a.Type, b.Type),
			cmp.Compare(a.Line.Bytes, b.Line.Bytes),
			cmp.Compare(a.Size, b.Size))
	})
	return caches, nil
}

// readIndex reads one cache/indexN directory. Line and size are 0 when
// their files are missing; shared is nil when shared_cpu_list is.
func readIndex(dir string) (c Cache, shared []int, err error) {
	level, _, err := readInt(filepath.Join(dir, "level"))
	if err != nil {
		return c, nil, err
	}
	typ, _, err := readAttr(filepath.Join(dir, "type"))
	if err != nil {
		return c, nil, err
	}
	line, _, err := readInt(filepath.Join(dir, "coherency_line_size"))
	if err != nil {
		return c, nil, err
	}
	size, _, err := readSize(filepath.Join(dir, "size"))
	if err != nil {
		return c, nil, err
	}
	shared, _, err = readCPUList(filepath.Join(dir, "shared_cpu_list"))
	if err != nil {
		return c, nil, err
	}
	c = Cache{Level: int(level), Type: typ, Line: LineSize{line, SourceSysfs}, Size: size}
	return c, shared, nil
}
