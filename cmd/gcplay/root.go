package main

import (
	"github.com/spf13/cobra"
)

// RootOptions are the options of the bare gcplay command.
type RootOptions struct{}

// NewCmdRoot returns the gcplay command with every subcommand. Other
// commands are added here; the terminal UI will take over the root's
// RunE (gcplay with no arguments opens it).
func NewCmdRoot() *cobra.Command {
	o := &RootOptions{}
	cmd := &cobra.Command{
		Use:   "gcplay",
		Short: "An interactive playground for the Kubernetes garbage collector",
		Long: `gcplay teaches how Kubernetes garbage collection really works: ownerReferences,
finalizers, the three deletion policies, and the collector's own machinery
(the uidToNode graph, its queues, the absent-owner cache), one step at a time.`,
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.Run(cmd)
		},
	}
	cmd.AddCommand(NewCmdRun(), NewCmdVersion())
	return cmd
}

// Run runs the bare command: for now it prints help.
func (o *RootOptions) Run(cmd *cobra.Command) error {
	return cmd.Help()
}
