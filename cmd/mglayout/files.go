package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// writableDir makes a directory if it is not there and checks that files
// can be written there: before a measurement, not after it.
func writableDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return canCreateIn(dir)
}

// writableFile checks that a file can be written, before a measurement
// fills it: the file itself where it exists, else its directory.
func writableFile(name string) error {
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

// writeFile creates a file and writes it with write, naming the file in
// any error.
func writeFile(name string, write func(*os.File) error) error {
	f, err := os.Create(name)
	if err != nil {
		return usagef("%v", err)
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %v", name, err)
	}
	return f.Close()
}
