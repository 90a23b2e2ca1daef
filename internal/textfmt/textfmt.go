// Package textfmt holds the small text layouts the renderers share:
// aligned tables and rates with SI prefixes.
package textfmt

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"
)

// Table writes rows as columns two spaces apart, each line indented; the
// last column is not padded.
func Table(b *strings.Builder, indent string, rows [][]string) {
	if len(rows) == 0 {
		return
	}
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			if i < len(widths) {
				widths[i] = max(widths[i], utf8.RuneCountInString(c))
			}
		}
	}
	for _, r := range rows {
		b.WriteString(indent)
		for i, c := range r {
			if i == len(r)-1 {
				b.WriteString(c)
			} else {
				fmt.Fprintf(b, "%s%s  ", c, strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c)))
			}
		}
		b.WriteString("\n")
	}
}

// SI writes a number with three significant digits and an SI prefix:
// 25.6M, 4.43G.
func SI(v float64) string {
	switch a := math.Abs(v); {
	case a >= 1e9:
		return fmt.Sprintf("%.3gG", v/1e9)
	case a >= 1e6:
		return fmt.Sprintf("%.3gM", v/1e6)
	case a >= 1e3:
		return fmt.Sprintf("%.3gk", v/1e3)
	}
	return fmt.Sprintf("%.3g", v)
}
