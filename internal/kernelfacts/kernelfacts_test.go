package kernelfacts

import (
	"bytes"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	_ "github.com/mglayout/mglayout/internal/golden" // -update, which go test ./... -update gives every package
)

// original is where the project's kernel facts are, for TestCopy.
var original = flag.String("original", "", "check testdata against the kernel facts in `dir` (../shared/kernel from the repository root, where a checkout has it)")

// TestCopy checks the copy in testdata against the project's kernel
// facts: the copy is what the tests check against, and must say what
// the original says. It runs where the original is, named by -original:
//
//	go test ./internal/kernelfacts -run TestCopy -original ../../../shared/kernel
func TestCopy(t *testing.T) {
	if *original == "" {
		t.Skip("compares testdata with the original kernel facts: go test ./internal/kernelfacts -run TestCopy -original DIR")
	}
	orig := *original
	if st, err := os.Stat(orig); err != nil || !st.IsDir() {
		t.Fatalf("-original %s is not a directory: name the directory of the kernel facts (../shared/kernel from the repository root)", orig)
	}
	n := 0
	err := filepath.WalkDir(orig, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(orig, path)
		want, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		got, err := os.ReadFile(filepath.Join(Dir(), rel))
		if err != nil {
			t.Errorf("%s is not copied into testdata: cp %s %s", rel, path, filepath.Join(Dir(), rel))
			return nil
		}
		if !bytes.Equal(got, want) {
			t.Errorf("testdata/%s differs from %s: copy it again", rel, path)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatalf("no files in %s", orig)
	}
}

// TestDir checks that the facts the tests open are there.
func TestDir(t *testing.T) {
	for _, f := range []string{"kernel_truth.md", "tk_layout.c", "layouts_x86_64.csv", "BUILD.txt", "pahole/pahole_tk64.txt"} {
		if _, err := os.Stat(filepath.Join(Dir(), f)); err != nil {
			t.Error(err)
		}
	}
}
