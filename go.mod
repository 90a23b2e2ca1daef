module github.com/mglayout/mglayout

go 1.26.0

require (
	github.com/klauspost/cpuid/v2 v2.4.2
	github.com/rogpeppe/go-internal v1.16.0
	golang.org/x/sys v0.50.0
	golang.org/x/tools v0.52.0
)

require (
	github.com/golangci/plugin-module-register v0.1.2 // indirect
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
)
