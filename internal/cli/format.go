package cli

import (
	"flag"
	"slices"
	"strings"
)

// Format is how every command that prints results chooses its output:
// -format NAME among the formats it writes (the first is the default),
// and -json as the shorthand of -format json. Given together they must
// agree.
type Format struct {
	formats []string
	format  string
	json    bool
}

// Register declares -format on fs for the formats given, and -json where
// json is one of them.
func (f *Format) Register(fs *flag.FlagSet, formats ...string) {
	f.formats = formats
	fs.StringVar(&f.format, "format", "", "output format: "+strings.Join(formats, ", ")+" (default "+formats[0]+")")
	if slices.Contains(formats, "json") {
		fs.BoolVar(&f.json, "json", false, "shorthand for -format json")
	}
}

// Name returns the format chosen, or a usage error naming the flag.
func (f *Format) Name() (string, error) {
	format := f.format
	if format == "markdown" {
		format = "md"
	}
	switch {
	case f.json && format != "" && format != "json":
		return "", Usagef("-json and -format %s disagree (use one of them)", f.format)
	case f.json:
		format = "json"
	case format == "":
		format = f.formats[0]
	}
	if !slices.Contains(f.formats, format) {
		return "", Usagef("-format %q is not one of %s", f.format, strings.Join(f.formats, ", "))
	}
	return format, nil
}
