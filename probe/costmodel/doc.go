// Package costmodel is the static cost of a shared line on one host: what
// the host's own calibration run says a reader, and the writer beside it,
// do per second when the writer's word sits on the reader's line, on the
// adjacent line of a prefetched pair, or far away, for each pair of
// operation kinds; and, from it, the prediction of what moving two words
// from one relation to another changes.
//
// The calibration is measured by the probe itself, over two words and
// the same loops that replay a layout, so that a prediction and a probe
// measurement differ only by what the layout adds: its other members, its
// placement, the run's noise. A calibration names its host, line size,
// rounds and run length, and is saved as JSON to be passed to commands
// that only predict (check, diff); without one, a prediction says it is
// uncalibrated.
package costmodel
