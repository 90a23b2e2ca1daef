package golangci_test

import (
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/mglayout/mglayout/layout/falsesharing"
	_ "github.com/mglayout/mglayout/layout/falsesharing/golangci"
)

// plugin builds the plugin as golangci-lint does: by its registered name,
// from the settings decoded from .golangci.yml.
func plugin(t *testing.T, settings any) (register.LinterPlugin, error) {
	t.Helper()
	newPlugin, err := register.GetPlugin("falsesharing")
	if err != nil {
		t.Fatal(err)
	}
	// The settings go to the analyzer's flags, which outlive the test.
	t.Cleanup(func() {
		if _, err := newPlugin(nil); err != nil {
			t.Error(err)
		}
	})
	return newPlugin(settings)
}

func TestPlugin(t *testing.T) {
	p, err := plugin(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.GetLoadMode(); got != register.LoadModeTypesInfo {
		t.Errorf("GetLoadMode() = %q, want %q", got, register.LoadModeTypesInfo)
	}
	analyzers, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	if len(analyzers) != 1 || analyzers[0] != falsesharing.Analyzer {
		t.Fatalf("BuildAnalyzers() = %v, want [falsesharing]", analyzers)
	}
	analysistest.Run(t, analysistest.TestData(), analyzers[0], "shards")
}

func TestPluginSettings(t *testing.T) {
	// As golangci-lint passes them: decoded from YAML into generic values.
	settings := map[string]any{"arch": []any{"amd64", "arm64"}, "lines": []any{64, 128}}
	if _, err := plugin(t, settings); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"arch": "amd64,arm64", "lines": "64,128"} {
		if got := falsesharing.Analyzer.Flags.Lookup(name).Value.String(); got != want {
			t.Errorf("-falsesharing.%s = %q, want %q", name, got, want)
		}
	}
}

func TestPluginBadSettings(t *testing.T) {
	for _, settings := range []any{
		map[string]any{"archs": []any{"arm64"}}, // a typo
		map[string]any{"lines": []any{"64"}},    // not a number
		map[string]any{"arch": "amd64,arm64"},   // not a list
	} {
		if _, err := plugin(t, settings); err == nil {
			t.Errorf("New(%v) succeeded, want an error", settings)
		}
	}
}
