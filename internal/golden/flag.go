package golden

import "flag"

// Update is the -update flag: rewrite the golden files instead of
// comparing with them. Every test package of the module registers it,
// importing this package for its golden files or, where it has none, for
// the flag alone, so that `go test ./... -update` runs in all of them.
var Update = flag.Bool("update", false, "rewrite the golden files in testdata")
