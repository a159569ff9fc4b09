package tui

import "github.com/gcplay/gcplay/fakeapi"

// The playground is made of components, each with its own state (below),
// its keys and its view. A component's keys are a table of actions
// (actions.go): a key.Binding and what it does. The same table is its key
// handler (dispatch) and its part of help (?), so help lists exactly the
// keys that work (TestHelpListsTheKeysThatWork presses every key).
//
//	component      state            keys (actions.go)       view
//	(every pane)                    globalActions
//	status bar     statusBar        (esc clears its         statusBar.statusLine,
//	                                message)                .msgLines, .helpLine
//	world tree     worldTree        worldTree.actions,      worldTree.view
//	                                worldActions (any pane)
//	collector      collectorState   collectorState.actions, collectorState.view
//	                                collectorActions (any pane)
//	inspector      inspectorState   inspectorState.actions  inspectorState.view
//	timeline       timelineState    timelineState.actions,  timelineState.view
//	                                timelineActions (any pane)
//	command bar    commandBar       commandActions          commandBar.view
//	delete picker  deletePicker     pickerActions           deletePicker.lines
//	help, explain  overlays         overlayActions          overlays.helpLines,
//	                                                        overlays.explainLines
//	resume offer   Options.Resume   resumeActions           resumeLines
//	lesson pane    lessonPane       lessonPane.actions      lessonPane.view
//	lesson text    textOverlay      textOverlay.actions     textOverlay.draw
//	lesson list    pickerOverlay    pickerOverlay.actions   pickerOverlay.draw
//	solution       solutionOverlay  solutionOverlay.actions solutionOverlay.draw
//	prediction     predictOverlay   predictOverlay.actions  predictOverlay.draw
//	its result     resultOverlay    resultOverlay.actions   resultOverlay.draw
//	goal reached   doneOverlay      doneOverlay.actions     doneOverlay.draw
//
// The lesson pane (lessonpane.go) and the lesson's overlays (the
// lessonOverlayComponent interface, lessonoverlays.go) take their keys as
// lessonActions: LessonModel composes them (pane, lessonOverlays), offers
// the pane the keys of the playground's normal mode and adds Ctrl+C to
// the open overlay's keys (overlayActions).
//
// The four panes are the component interface (actions.go): Model.pane
// returns the one with the focus.
//
// The focused pane's actions (moving its cursor, enter) come first in
// help's "Move around" column, named for what they do there. viewKeys
// (Model's and LessonModel's) lists the keys of the view shown; help (?),
// the help line and every hint on screen are drawn from them. In normal
// mode the help line is the one-line help: the actions that carry a place
// in it (shortEntry), so it names only keys that work
// (TestShortHelpKeysAct). Ctrl+C is an action of every view. Update
// changes the model; View only draws it (TestViewIsPure).

// worldTree is the world tree's selection and scroll.
type worldTree struct {
	sel      int
	selUID   string
	worldTop int
}

// collectorState is the collector pane's scroll offset.
type collectorState struct{ colTop int }

// inspectorState is the inspector's scroll offset.
type inspectorState struct{ inspTop int }

// timelineState is the timeline's scroll offset and cursor (a position: 0
// is the start, i is after record i).
type timelineState struct{ tlTop, tlCur int }

// commandBar is the command line being typed, its history and its
// completion.
type commandBar struct {
	cmd      lineEditor
	cmdHist  []string
	histPos  int
	histSave string
	compl    completion
}

// deletePicker is the delete picker: the object, the policies offered
// and the one chosen.
type deletePicker struct {
	ref     fakeapi.Ref
	name    string
	choices []policyChoice
	sel     int
	header  string
}

// overlays is the help and explain views' scroll offset and the record
// explained.
type overlays struct{ overlayTop, explainIdx int }

// statusBar is the lines around the panes: the status line above them
// (step, time, what the next step does, autoplay and breakpoints), and
// below them the message line (the last thing said, and how) and the help
// line (the keys of the view shown). Its state is the message; cache is a
// memo, not state: its views fill it and draw the same with or without
// it, so View leaves the model itself unchanged.
type statusBar struct {
	msg     string
	msgKind msgKind
	cache   *statusBarCache
}

// autoplay is autoplay and a run in progress: gen tells stale ticks from
// current ones.
type autoplay struct {
	playing bool
	speed   int
	gen     int
	running *settleRun
}
