package vet

import (
	"encoding/json"
	"os"
	"runtime/debug"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/mglayout/mglayout/layout/falsesharing"
)

// IsTool reports whether go vet runs the binary as its tool: -V=full for its
// identity, -flags for the analyzer's flags, or the analyzer's flags and
// one *.cfg file per package. A command line of mglayout starts with a
// command's name, never with a flag or a .cfg file.
func IsTool(args []string) bool {
	if len(args) == 0 {
		return false
	}
	if args[0] == "-V=full" || args[0] == "-flags" {
		return true
	}
	last := args[len(args)-1]
	return strings.HasSuffix(last, ".cfg") && (len(args) == 1 || strings.HasPrefix(args[0], "-"))
}

// unitGOGC is the collector's GOGC for a unit go vet runs the tool on,
// unless the environment sets one. A unit is a short process: at the
// default, most of go vet std's units collect once or twice for a heap
// of a few megabytes, and runtime's collects for a tenth of its 2.7 s.
// At 400 the heap may grow to five times the live data before a
// collection, against twice at the default: runtime's unit peaked at
// 422 MB instead of 317 MB.
const unitGOGC = 400

// TuneGC sets the collector for a unit: GOGC=unitGOGC where the
// environment leaves GOGC unset.
func TuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(unitGOGC)
	}
}

// UnitAnalyzer returns the analyzer to run on the unit go vet gives the
// tool. go vet also gives it every dependency of the packages it vets,
// test variants included, for the facts their importers read alone
// (VetxOnly); unitchecker runs falsesharing there too, since it requires
// HotMembers, which has facts, and then drops its findings. Such a unit
// gets falsesharing with nothing of its own to run.
func UnitAnalyzer(args []string) *analysis.Analyzer {
	if !factsOnly(args[len(args)-1]) {
		return falsesharing.Analyzer
	}
	a := *falsesharing.Analyzer
	a.Requires = []*analysis.Analyzer{falsesharing.HotMembers}
	a.Run = func(*analysis.Pass) (any, error) { return nil, nil }
	return &a
}

// factsOnly reports whether a unit's config file asks only for facts.
// A file it cannot read is unitchecker's to report.
func factsOnly(cfgFile string) bool {
	if !strings.HasSuffix(cfgFile, ".cfg") {
		return false
	}
	data, err := os.ReadFile(cfgFile)
	if err != nil {
		return false
	}
	var cfg unitchecker.Config
	return json.Unmarshal(data, &cfg) == nil && cfg.VetxOnly
}
