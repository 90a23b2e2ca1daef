package kernelfacts

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestCopy checks the copy in testdata against the project's kernel
// facts, where a checkout has them beside it (../shared/kernel from the
// repository root): the copy is what the tests check against, and must
// say what the original says.
func TestCopy(t *testing.T) {
	orig := filepath.Join("..", "..", "..", "shared", "kernel")
	if _, err := os.Stat(orig); err != nil {
		t.Skipf("no original beside the repository to compare with (%s): the copy stands alone", orig)
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
