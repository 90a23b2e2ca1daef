//go:build !probecount

package probe

// countOp counts memory operations in a test build (-tags probecount);
// here it is empty and vanishes when inlined.
func countOp(opKind) {}
