// Package report builds the report of a run from its status and renders it:
// Markdown, JSON, the audit log, SARIF, GitHub annotations, JUnit and the
// one-line summary. It lives apart from status so that the in-container
// wrapper, which only speaks the protocol, links none of the renderers.
package report
