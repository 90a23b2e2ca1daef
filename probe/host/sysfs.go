package host

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// cpuIDs returns the numbers of the cpuN directories in cpuDir, in
// increasing order. Its other entries (cpufreq, cpuidle, online) are not
// CPUs.
func cpuIDs(cpuDir string) ([]int, error) {
	entries, err := os.ReadDir(cpuDir)
	if err != nil {
		return nil, err
	}
	var ids []int
	for _, e := range entries {
		num, ok := strings.CutPrefix(e.Name(), "cpu")
		if !ok {
			continue
		}
		if id, err := strconv.Atoi(num); err == nil && e.IsDir() {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids, nil
}

// readAttr returns the trimmed contents of one sysfs attribute; ok is false
// when the file does not exist, which the kernel does for attributes it has
// no value for.
func readAttr(path string) (s string, ok bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return strings.TrimSpace(string(data)), true, nil
}

// readInt reads an attribute holding a decimal integer.
func readInt(path string) (n int64, ok bool, err error) {
	s, ok, err := readAttr(path)
	if !ok || err != nil {
		return 0, ok, err
	}
	n, err = strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, false, fmt.Errorf("%s: %q is not a number", path, s)
	}
	return n, true, nil
}

// readSize reads a cache size, which the kernel writes in KiB with a "K"
// suffix ("48K"); other suffixes and plain byte counts are accepted too.
func readSize(path string) (n int64, ok bool, err error) {
	s, ok, err := readAttr(path)
	if !ok || err != nil {
		return 0, ok, err
	}
	digits, shift := s, 0
	if i := len(s) - 1; i > 0 {
		switch s[i] {
		case 'K':
			digits, shift = s[:i], 10
		case 'M':
			digits, shift = s[:i], 20
		case 'G':
			digits, shift = s[:i], 30
		}
	}
	n, err = strconv.ParseInt(digits, 10, 64)
	if err != nil || n < 0 {
		return 0, false, fmt.Errorf("%s: %q is not a cache size", path, s)
	}
	return n << shift, true, nil
}

// readCPUList reads an attribute holding a CPU list.
func readCPUList(path string) (cpus []int, ok bool, err error) {
	s, ok, err := readAttr(path)
	if !ok || err != nil {
		return nil, ok, err
	}
	cpus, err = ParseCPUList(s)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %v", path, err)
	}
	return cpus, true, nil
}

// cpuPath names a file in the directory of CPU id.
func cpuPath(cpuDir string, id int, elem ...string) string {
	return filepath.Join(append([]string{cpuDir, "cpu" + strconv.Itoa(id)}, elem...)...)
}
