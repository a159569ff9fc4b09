package main

import (
	"github.com/spf13/cobra"
)

// RootOptions are the options of the bare gcplay command: it opens the
// playground, as gcplay play does.
type RootOptions struct {
	Play PlayOptions
}

// NewCmdRoot returns the gcplay command with every subcommand. gcplay with
// no arguments opens the terminal UI.
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
	o.Play.AddFlags(cmd.Flags())
	o.Play.AddLangFlag(cmd.Flags())
	cmd.AddCommand(NewCmdRun(), NewCmdVersion(), NewCmdPlay())
	cmd.AddCommand(NewCmdWeb())
	cmd.AddCommand(NewCmdLessons())
	cmd.AddCommand(NewCmdWhatIf())
	cmd.AddCommand(NewCmdExport())
	return cmd
}

// Run runs the bare command: the playground on the starter world.
func (o *RootOptions) Run(cmd *cobra.Command) error {
	return o.Play.Run(cmd)
}
