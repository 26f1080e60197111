// Package learner holds the learners SMILE can run, each in a package of its
// own (the literal one and its reader and Mentor, the model-backed ones, the
// shell session they share), and the one place that picks a learner by the
// provider's name and plays a task's role with it (For, Play, SafePlay),
// whether in a container (smile-wrapper) or in the controller (the
// in-process brains).
package learner
