// Package literal is the `literal` provider: a Student that follows the
// tutorial exactly as written, with no model, no network and no outside
// knowledge, and a rule-based Mentor that explains its failures and, where it
// knows one, gives a workaround the Student replays in the next iteration.
//
// The Student turns the tutorial into steps (Plan): commands to run in one
// shell session, files to write, output to compare, blocks it cannot
// interpret, images that are missing. It runs them in order, classifies every
// failure by the seed's stuck triggers and asks the Mentor when a trigger
// that is on fires and its patience is spent.
package literal
