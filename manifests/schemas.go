package manifests

import _ "embed"

// The schemas' file names. SmileRunSchema refers to SmileSchema by the
// relative reference "smile.schema.json#/$defs/...", so a validator must
// register both under the same base URL with these names.
const (
	SmileSchemaFile    = "smile.schema.json"
	SmileRunSchemaFile = "smilerun.schema.json"
)

// SmileSchema is the JSON Schema (draft 2020-12) of smile.json.
//
//go:embed smile.schema.json
var SmileSchema []byte

// SmileRunSchema is the JSON Schema (draft 2020-12) of the SmileRun manifest.
//
//go:embed smilerun.schema.json
var SmileRunSchema []byte
