package falsesharing_test

import "testing"

// TestClasses checks, on a case written for each, the assumptions about
// concurrent code that held on the code the analyzer was first built
// against and failed on modules it had not seen: generic types created
// only in generic code, ... Each package of testdata/src/classes
// documents its class; they are checked at 64-byte lines on amd64 and
// 128-byte lines on arm64.
func TestClasses(t *testing.T) {
	runEach(t, "amd64,arm64", "", packagesUnder(t, "classes"))
}
