package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	goldenfile "github.com/mglayout/mglayout/internal/golden"
)

// TestMain makes the test binary double as mglayout for the scripts, and
// as mglayout-exits, which runs mglayout and succeeds only if it exits
// with the status given first: `exec mglayout-exits 2 layout -lines 96`.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"mglayout": func() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) },
		"mglayout-exits": func() {
			want, err := strconv.Atoi(os.Args[1])
			if err != nil {
				fmt.Fprintln(os.Stderr, "usage: mglayout-exits STATUS ARGS...")
				os.Exit(2)
			}
			if got := run(os.Args[2:], os.Stdout, os.Stderr); got != want {
				fmt.Fprintf(os.Stderr, "mglayout exited with status %d, want %d\n", got, want)
				os.Exit(1)
			}
			os.Exit(0)
		},
	})
}

// TestScripts runs the command-line scripts in testdata/script, one
// txtar archive per behaviour, in the manner of cmd/go's script tests.
func TestScripts(t *testing.T) {
	goEnv := goEnv(t, "GOCACHE", "GOMODCACHE", "GOPATH", "GOROOT", "GOPROXY", "GOFLAGS")
	// The C source of the kernel structs, for scripts that compile it.
	kernelfacts, err := filepath.Abs(filepath.Join("..", "..", "internal", "kernelfacts", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	// A report recorded on a 2-core VM, for scripts that render one
	// without measuring.
	recorded, err := filepath.Abs(filepath.Join("..", "..", "internal", "report", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *goldenfile.Update,
		Setup: func(env *testscript.Env) error {
			// Loading Go packages runs the go command, which needs the
			// caches of the user running the tests and no network.
			for k, v := range goEnv {
				env.Setenv(k, v)
			}
			env.Setenv("KERNELFACTS", kernelfacts)
			env.Setenv("RECORDED", recorded)
			env.Setenv("GOPROXY", "off")
			env.Setenv("GOTOOLCHAIN", "local")
			return nil
		},
	})
}

func goEnv(t *testing.T, names ...string) map[string]string {
	out, err := exec.Command("go", append([]string{"env"}, names...)...).Output()
	if err != nil {
		t.Skipf("the go command is needed to load packages: %v", err)
	}
	values := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	env := map[string]string{}
	for i, name := range names {
		env[name] = values[i]
	}
	return env
}
