package reconcile

import (
	"context"

	"github.com/smile-loop/smile/reconcile/wrapperbin"
)

// checkWrapper is wrapperbin.Check for the manager's wrapper, once per image
// (the caller holds m.changing): apply refuses a run whose containers could
// not start, before any of them is tried.
func (m *Manager) checkWrapper(image string) error {
	if m.opts.WrapperPath == "" {
		return nil
	}
	if err, ok := m.wrapperChecked[image]; ok {
		return err
	}
	err := wrapperbin.Check(context.Background(), m.opts.Runtime, m.opts.WrapperPath, image)
	if m.wrapperChecked == nil {
		m.wrapperChecked = map[string]error{}
	}
	m.wrapperChecked[image] = err
	return err
}
