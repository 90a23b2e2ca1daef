package gosrc

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// BuildEnv is the environment the go command builds a GOARCH with: the
// GOARCH, and the GOOS it pairs with (wasm runs on js, as the compiler
// builds it; the others on the host's GOOS, or $GOOS).
func BuildEnv(arch string) []string {
	goos := os.Getenv("GOOS")
	if goos == "" {
		goos = runtime.GOOS
	}
	if arch == "wasm" && goos != "js" && goos != "wasip1" {
		goos = "js"
	}
	return append(os.Environ(), "GOARCH="+arch, "GOOS="+goos)
}

// NoPackages says why patterns matched no package, from dir ("" for the
// working directory): outside a module, or a pattern that names nothing.
func NoPackages(dir string, patterns []string) error {
	cmd := exec.Command("go", "env", "GOMOD")
	cmd.Dir = dir
	if out, err := cmd.Output(); err == nil {
		if gomod := strings.TrimSpace(string(out)); gomod == "" || gomod == os.DevNull {
			where := dir
			if where == "" {
				where, _ = os.Getwd()
			}
			return fmt.Errorf("%s is in no Go module (no go.mod there or above): run mglayout inside a module, or go mod init one there", where)
		}
	}
	return fmt.Errorf("no Go packages match %s (check the pattern, e.g. ./...)", strings.Join(patterns, " "))
}
