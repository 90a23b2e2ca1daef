// A module of its own, so that the tests can load its packages with
// go/packages and build them for any GOARCH without the main module.
module mglayout.test

go 1.24
