//go:build !race && !asan && !msan

package placement

// instrumented: see instrumented_test.go.
const instrumented = false
