package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version is set at link time (-ldflags "-X main.version=v1.2.3"); when
// empty, the module version from the build info is used.
var version = ""

// VersionOptions are the options of gcplay version.
type VersionOptions struct{}

// NewCmdVersion returns the version command.
func NewCmdVersion() *cobra.Command {
	o := &VersionOptions{}
	return &cobra.Command{
		Use:   "version",
		Short: "Print gcplay's version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.Run(cmd)
		},
	}
}

// Run prints the version, the scenario format version and the Go version.
func (o *VersionOptions) Run(cmd *cobra.Command) error {
	v := version
	if v == "" {
		v = "(devel)"
		if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
			v = bi.Main.Version
		}
	}
	_, err := fmt.Fprintf(cmd.OutOrStdout(), "gcplay %s (scenario format v1, %s)\n", v, runtime.Version())
	return err
}
