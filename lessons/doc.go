// Package lessons is gcplay's course: lesson files built on the scenario
// format, the grader that compares a world with a lesson's goal and says
// why they differ, predictions, hand-ins, and the learner's progress.
//
// A lesson is a course file (content/course/NN-<id>.yaml: a scenario with
// the lesson keys goal, settled, predict, solution, wrong and minutes) and
// its words per locale (content/text/<locale>/<id>.yaml). Every part of a
// course file is parsed by scenario.Parse on the file's own lines, so a
// lesson accepts exactly what a scenario accepts. The course is embedded
// (Builtin); Load reads one laid out the same way from any fs.FS.
//
// The grader (Course.Grader) compares only what a goal names, and words
// each difference from the engine's records: who deleted an object, with
// which policy, for which reason and rule. Its sentences are in
// content/phrases/<locale>.yaml.
//
// Progress is kept by a Store: FileStore writes a JSON file atomically
// (temporary file, fsync, rename, directory fsync) and sets a damaged file
// aside as <file>.corrupt-<n> instead of overwriting it; KVStore keeps the
// same JSON under one key of a key-value store (the browser's
// localStorage).
//
// Every lesson is a test (course_test.go): its solution reaches the goal,
// each wrong answer misses it with the words it lists, its prediction
// runs and its hand-in round-trips. docs/LESSONS.md says how to write one.
package lessons
