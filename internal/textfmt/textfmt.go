// Package textfmt holds the small text layouts the renderers share:
// aligned tables, rates with SI prefixes, wrapped paragraphs and runs of
// line indexes.
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

// Wrap breaks text into lines of at most width columns at spaces; a word
// longer than width stands on a line of its own.
func Wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		if line != "" && len(line)+1+len(word) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	return append(lines, line)
}

// Fill writes text wrapped at spaces to width columns, counted in runes
// and including the indentation: the first line indented by first, the
// others by rest.
func Fill(b *strings.Builder, text, first, rest string, width int) {
	line, empty := first, true
	for _, word := range strings.Fields(text) {
		if !empty && utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) > width {
			b.WriteString(line + "\n")
			line, empty = rest, true
		}
		if !empty {
			line += " "
		}
		line += word
		empty = false
	}
	b.WriteString(line + "\n")
}

// Ranges writes sorted line indexes with runs as ranges: 0-2,4; "-" for
// none.
func Ranges(xs []int64) string {
	if len(xs) == 0 {
		return "-"
	}
	var parts []string
	for i := 0; i < len(xs); {
		j := i
		for j+1 < len(xs) && xs[j+1] == xs[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", xs[i], xs[j]))
		} else {
			parts = append(parts, fmt.Sprint(xs[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// Plural is one or many, as n says.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// JoinWords joins words as prose: "a", "a and b", "a, b and c".
func JoinWords(xs []string) string {
	if len(xs) > 1 {
		return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
	}
	return strings.Join(xs, "")
}
