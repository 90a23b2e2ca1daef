//go:build !amd64 && !arm64

package cpu

const cacheLineSize = 64
