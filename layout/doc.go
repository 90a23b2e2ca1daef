// Package layout is the model that every part of mglayout shares: a
// struct's memory layout as data.
//
// A [Struct] holds every member at every depth with its dotted path, type
// name, absolute offset, size and alignment, so that the static pass, the
// go vet analyzer and the probe all reason about the same bytes. From it
// follow the holes and tail padding (the figures pahole prints), the cache
// lines each member occupies for any set of line sizes, and the phases at
// which the object may start relative to a line.
//
// Loaders fill the model: package layout/gosrc reads Go packages through
// go/types for any GOARCH, and package structs provides the built-in Linux
// kernel models. Package layout/render prints it as text, JSON or Markdown.
package layout
