package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// WritableDir makes a directory if it is not there and checks that files
// can be written there: before a measurement, not after it.
func WritableDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return canCreateIn(dir)
}

// WritableFile checks that a file can be written, before a measurement
// fills it: the file itself where it exists, else its directory.
func WritableFile(name string) error {
	if f, err := os.OpenFile(name, os.O_WRONLY, 0); err == nil {
		return f.Close()
	} else if !os.IsNotExist(err) {
		return err
	}
	dir := filepath.Dir(name)
	if st, err := os.Stat(dir); err != nil {
		return err
	} else if !st.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	return canCreateIn(dir)
}

// canCreateIn creates a file in dir and removes it: whether the process
// may write there is the file system's to say, whoever the user is.
func canCreateIn(dir string) error {
	f, err := os.CreateTemp(dir, ".mglayout-*")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

// WriteFile creates a file and writes it with write, naming the file in
// any error.
func WriteFile(name string, write func(io.Writer) error) error {
	f, err := os.Create(name)
	if err != nil {
		return Usagef("%v", err)
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %v", name, err)
	}
	return f.Close()
}

// WriteJSON writes v as indented JSON: the form of every -json document.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
