// Package render prints layouts for people and programs: text in the
// manner of pahole with a column per line size, Markdown for a pull request
// or a patch discussion, and JSON in the schema that DESIGN.md fixes.
//
// Every renderer takes the same Options and writes deterministic output,
// so golden files can hold it.
package render
