package falsesharing

import (
	_ "embed"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
)

//go:embed doc.go
var doc string

// Analyzer reports false sharing and fragile padding; see the package doc.
var Analyzer = &analysis.Analyzer{
	Name:       "falsesharing",
	Doc:        mustExtractDoc(doc, "falsesharing"),
	URL:        Home + "#the-go-vet-analyzer",
	Requires:   []*analysis.Analyzer{inspect.Analyzer, HotMembers},
	Run:        run,
	ResultType: reflect.TypeFor[*Result](),
}

// Flags, as go vet passes them: -falsesharing.arch and -falsesharing.lines.
var (
	archFlag     string
	linesFlag    string
	evidenceFlag string
)

func init() {
	Analyzer.Flags.StringVar(&archFlag, "arch", "", "comma-separated GOARCHes to check, each at its own line size (default: the GOARCH being built)")
	Analyzer.Flags.StringVar(&evidenceFlag, "evidence", "proven", "the least evidence a finding needs: declared (a directive or deliberate padding), proven (the concurrency model shows it), or likely (a heuristic)")
	Analyzer.Flags.StringVar(&linesFlag, "lines", "", "comma-separated line sizes to check on every GOARCH instead of its own (e.g. 64 for a fleet of 64-byte hosts; default: each GOARCH's, 64 on amd64, 128 on arm64)")
}

// hotFact records, for an exported struct type, the member paths that are
// accessed concurrently, so that packages using the type as an array
// element know which bytes of each element are hot.
type hotFact struct {
	Members []string
}

func (*hotFact) AFact() {}

func (f *hotFact) String() string { return "hot" + fmtList(f.Members) }
