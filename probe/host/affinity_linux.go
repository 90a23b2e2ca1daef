package host

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// affinity returns the CPUs in the calling thread's affinity mask, which
// every thread of the process inherits unless something pins it.
func affinity() ([]int, error) {
	var set unix.CPUSet
	// The mask holds 1024 CPUs; on larger hosts the call fails with
	// EINVAL, which ends up in a note.
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil, err
	}
	var cpus []int
	for cpu := range int(unsafe.Sizeof(set)) * 8 {
		if set.IsSet(cpu) {
			cpus = append(cpus, cpu)
		}
	}
	return cpus, nil
}
