package agent

import (
	"encoding/json"
	"slices"

	"github.com/smile-loop/smile/status"
)

// categoryEnum is the JSON Schema enum of gap categories.
func categoryEnum() []any {
	out := make([]any, len(status.Categories))
	for i, c := range status.Categories {
		out[i] = string(c)
	}
	return out
}

// AnswerSchema is the JSON Schema of a role's answer, for CLIs that check
// the model's answer against one (claude --json-schema, codex
// --output-schema). strict is codex's dialect: every object closed, every
// property required (optional ones may be null).
func AnswerSchema(role status.Role, strict bool) []byte {
	str := map[string]any{"type": "string"}
	list := map[string]any{"type": "array", "items": str}
	integer := map[string]any{"type": "integer"}
	category := map[string]any{"type": "string", "enum": categoryEnum()}
	var props map[string]any
	var required []string
	if role == status.RoleMentor {
		props = map[string]any{
			"notes":        str,
			"resolution":   map[string]any{"type": "string", "enum": []any{"workaround", "proceed", "unresolvable"}},
			"workaround":   str,
			"quote":        str,
			"line":         integer,
			"category":     category,
			"suggestedFix": str,
		}
		required = []string{"notes", "resolution"}
	} else {
		finding := map[string]any{"type": "object", "properties": map[string]any{
			"category": category, "quote": str, "problem": str, "suggestedFix": str,
		}, "required": []string{"problem", "quote"}}
		props = map[string]any{
			"status":            map[string]any{"type": "string", "enum": []any{"completed", "ask_mentor", "cannot_complete"}},
			"currentStep":       str,
			"attemptedActions":  list,
			"problem":           str,
			"questionForMentor": str,
			"reason":            str,
			"summary":           str,
			"filesCreated":      list,
			"commandsRun":       list,
			"line":              integer,
			"quote":             str,
			"category":          category,
			"findings":          map[string]any{"type": "array", "items": finding},
		}
		required = []string{"status", "currentStep", "attemptedActions", "summary", "filesCreated", "commandsRun"}
	}
	root := map[string]any{"type": "object", "properties": props, "required": required}
	if strict {
		strictify(root)
	}
	data, _ := json.Marshal(root)
	return data
}

// strictify closes every object and requires every property, letting the
// ones that were optional be null.
func strictify(node map[string]any) {
	props, ok := node["properties"].(map[string]any)
	if !ok {
		if items, ok := node["items"].(map[string]any); ok {
			strictify(items)
		}
		return
	}
	required, _ := node["required"].([]string)
	var all []string
	for name, p := range props {
		pm := p.(map[string]any)
		cp := map[string]any{}
		for k, v := range pm {
			cp[k] = v
		}
		strictify(cp)
		if !slices.Contains(required, name) {
			cp["type"] = []any{cp["type"], "null"}
			if enum, ok := cp["enum"].([]any); ok {
				cp["enum"] = append(append([]any{}, enum...), nil)
			}
		}
		props[name] = cp
		all = append(all, name)
	}
	slices.Sort(all)
	node["required"] = all
	node["additionalProperties"] = false
}
