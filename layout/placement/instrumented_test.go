//go:build race || asan || msan

package placement

// instrumented is set when the race detector or a sanitizer is built in.
// They change allocation (the race detector turns off the tiny allocator
// and the size-specialized paths, ASan adds red zones around objects), so
// the tests that compare with the running runtime skip.
const instrumented = true
