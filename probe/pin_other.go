//go:build !linux

package probe

import (
	"fmt"
	"runtime"
)

func pin(cpu int) error {
	runtime.LockOSThread()
	return fmt.Errorf("pinning threads to CPUs is implemented for Linux only, not %s", runtime.GOOS)
}

func affinity() ([]int, error) {
	return nil, fmt.Errorf("reading the affinity mask is implemented for Linux only, not %s", runtime.GOOS)
}
