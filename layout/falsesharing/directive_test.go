package falsesharing_test

import "testing"

// TestDirectiveErrors checks that a //mglayout: directive that cannot be
// used is reported at its own line (the `// want +N` comments point at
// it) with the forms accepted there: a misspelt type directive, a
// misspelt field directive, //mglayout:ignore without a reason, and a
// directive inside a function, where none applies. Each is a package of
// its own, because the analyzer stops at the first bad directive of a
// package.
func TestDirectiveErrors(t *testing.T) {
	runEach(t, "amd64", "", packagesUnder(t, "directive"))
}
