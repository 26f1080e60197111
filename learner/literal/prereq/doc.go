// Package prereq reads the prerequisites a page states: the tools its prose
// says to have or install (a "Prerequisites" heading, "you need X", an install
// link), and those only implied by its title or by most of its commands,
// which are marked as implied. It runs nothing.
package prereq
