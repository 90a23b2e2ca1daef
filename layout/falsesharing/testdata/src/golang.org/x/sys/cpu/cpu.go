// Package cpu is a stub of golang.org/x/sys/cpu for the analyzer's tests:
// analysistest resolves imports GOPATH-style from testdata/src, so the
// real module cannot be imported. Like the real package, it sizes
// CacheLinePad by a per-GOARCH constant in cpu_GOARCH.go files.
package cpu

// CacheLinePad is used to pad structs to avoid false sharing.
type CacheLinePad struct{ _ [cacheLineSize]byte }
