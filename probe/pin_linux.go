package probe

import (
	"fmt"
	"runtime"

	"golang.org/x/sys/unix"
)

// pin locks the calling goroutine to its OS thread and that thread to one
// CPU. The caller must run runtime.UnlockOSThread when done; the thread's
// affinity dies with the lock, as the runtime then retires the thread.
func pin(cpu int) error {
	runtime.LockOSThread()
	var set unix.CPUSet
	set.Set(cpu)
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return fmt.Errorf("cannot pin a thread to CPU %d: %v (run where sched_setaffinity is allowed, or pick CPUs of the affinity mask with -cpus)", cpu, err)
	}
	return nil
}

// affinity returns the CPUs the process may run on.
func affinity() ([]int, error) {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil, fmt.Errorf("reading the affinity mask: %v", err)
	}
	var cpus []int
	for cpu := range 64 * len(set) { // a CPUSet is a bit mask in 64-bit words
		if set.IsSet(cpu) {
			cpus = append(cpus, cpu)
		}
	}
	return cpus, nil
}
