// Package manifests holds the JSON Schemas of smile.json and of the SmileRun
// manifest, the SmileRun CustomResourceDefinition for Kubernetes (crd/), and
// example manifests (examples/). Its tests keep all of them in step with the
// Go types in package spec.
package manifests
