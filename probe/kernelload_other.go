//go:build !linux

package probe

import (
	"context"
	"fmt"
	"runtime"
	"time"
)

func uname() (unameInfo, error) {
	return unameInfo{}, fmt.Errorf("the kernel workloads measure Linux kernels, not %s", runtime.GOOS)
}

func runPipes(ctx context.Context, cpus []int, size int, d time.Duration) ([]float64, error) {
	return nil, fmt.Errorf("the kernel workloads measure Linux kernels, not %s", runtime.GOOS)
}
