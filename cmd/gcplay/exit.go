package main

import (
	"errors"
	"fmt"
	"io"
)

// Exit statuses of gcplay.
const (
	// ExitOK: every scenario step and expectation held.
	ExitOK = 0
	// ExitFailed: a step or an expectation failed.
	ExitFailed = 1
	// ExitInvalid: a file is not a valid scenario, or the command line
	// is wrong.
	ExitInvalid = 2
	// ExitInternal: gcplay itself broke.
	ExitInternal = 3
)

// ExitError is what a command's RunE returns to end gcplay with a given
// status. Err, when set, is printed to stderr; a command that already
// reported the problem in its output leaves it nil.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit status %d", e.Code)
	}
	return e.Err.Error()
}

func (e *ExitError) Unwrap() error { return e.Err }

// exitStatus prints err (if it needs printing) and returns the exit
// status it stands for. Errors that are not ExitErrors come from Cobra's
// command-line parsing: they are usage errors.
func exitStatus(err error, stderr io.Writer) int {
	if err == nil {
		return ExitOK
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		if ee.Err != nil {
			fmt.Fprintf(stderr, "gcplay: %v\n", ee.Err)
		}
		return ee.Code
	}
	fmt.Fprintf(stderr, "gcplay: %v\nRun 'gcplay --help' for usage.\n", err)
	return ExitInvalid
}
