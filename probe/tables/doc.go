// Package tables writes the probe's measurements for people: the sweep,
// an experiment's cases beside its prediction, the clock reads and the
// pipe workloads, as 80-column text tables. The measuring and every
// judgement of the figures are the probe's, as data; this package words
// them, but for the sweep's verdict, one sentence (Interference.Verdict)
// that report.json carries and every format prints alike.
package tables

// textWidth is the width of the paragraphs beside the tables: reports go
// into mails.
const textWidth = 80
