//go:build !linux

package host

import (
	"errors"
	"runtime"
)

// affinity reports that only Linux's affinity mask is read.
func affinity() ([]int, error) {
	return nil, errors.New("not read on " + runtime.GOOS)
}
