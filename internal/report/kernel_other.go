//go:build !linux

package report

func kernelRelease() string { return "" }
