// Package golangci is the falsesharing analyzer as a golangci-lint v2
// module plugin. golangci-lint custom builds it into a golangci-lint
// binary from a .custom-gcl.yml that names this package:
//
//	version: v2.15.0
//	plugins:
//	  - module: github.com/mglayout/mglayout
//	    import: github.com/mglayout/mglayout/layout/falsesharing/golangci
//	    version: latest
//
// and .golangci.yml enables it as a custom linter, with the analyzer's
// flags as settings:
//
//	version: "2"
//	linters:
//	  enable: [falsesharing]
//	  settings:
//	    custom:
//	      falsesharing:
//	        type: module
//	        settings:
//	          arch: [amd64, arm64]
//	          lines: [64, 128]
package golangci

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/mglayout/mglayout/layout/falsesharing"
)

func init() {
	register.Plugin("falsesharing", New)
}

// Settings are the plugin's settings in .golangci.yml: the analyzer's
// -falsesharing.arch and -falsesharing.lines.
type Settings struct {
	Arch  []string `json:"arch"`  // GOARCHes to check, each at its own line size; default the one being built
	Lines []int64  `json:"lines"` // line sizes to check on every GOARCH instead of its own
}

// New returns the plugin with the settings applied to the analyzer; a
// setting it does not know is an error.
func New(settings any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](settings)
	if err != nil {
		return nil, fmt.Errorf("falsesharing: %v", err)
	}
	lines := make([]string, len(s.Lines))
	for i, n := range s.Lines {
		lines[i] = strconv.FormatInt(n, 10)
	}
	// The analyzer reads its flags when it runs; set both, so that what
	// the settings leave out is the default.
	for name, value := range map[string]string{"arch": strings.Join(s.Arch, ","), "lines": strings.Join(lines, ",")} {
		if err := falsesharing.Analyzer.Flags.Set(name, value); err != nil {
			return nil, fmt.Errorf("falsesharing: settings.%s: %v", name, err)
		}
	}
	return plugin{}, nil
}

type plugin struct{}

func (plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	return []*analysis.Analyzer{falsesharing.Analyzer}, nil
}

// GetLoadMode asks for type information: the analyzer sizes types and
// follows calls into sync/atomic.
func (plugin) GetLoadMode() string { return register.LoadModeTypesInfo }
