// Package packages is the literal provider's table of which package provides
// a command under each package manager (apt, apk, dnf, microdnf, yum), and
// how to install one: what the Mentor suggests and what the prerequisites
// reader knows an install command brings.
package packages
