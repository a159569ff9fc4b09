package tui

import "github.com/gcplay/gcplay/fakeapi"

// The playground is made of components, each with its own state (below),
// its own key map (keys.go), its key handler and its view:
//
//	component      state            keys                 handler, view
//	world tree     worldTree        worldKeys, paneKeys  move, worldPane
//	collector      collectorState   collectorKeys        doStep, collectorView
//	inspector      inspectorState   paneKeys             move, inspectorView
//	timeline       timelineState    timelineKeys         timelineTo, timelinePane
//	(every pane)                    globalKeys           normalKey
//	command bar    commandBar       commandKeys          commandKey, commandLine
//	delete picker  deletePicker     pickerKeys           pickerKey, pickerLines
//	help, explain  overlays         overlayKeys          overlayKey, helpLines,
//	                                                     explainLines
//	resume offer   Options.Resume   resumeKeys           resumeKey, resumeLines
//	lesson pane    LessonModel      lessonKeys           lessonKey, paneLines
//	lesson         LessonModel      lessonOverlayKeys    overlayKey, textOverlay,
//	overlays                                             pickerOverlay, ...
//
// viewKeys (Model's and LessonModel's) lists the keys of the view shown;
// help (?), the help line and every hint on screen are drawn from them.

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

// autoplay is autoplay and a run in progress: gen tells stale ticks from
// current ones.
type autoplay struct {
	playing bool
	speed   int
	gen     int
	running *settleRun
}
