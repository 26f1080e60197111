package planner

import (
	"strings"
	"testing"

	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
)

func TestPostedLLMCallsAddToTheCost(t *testing.T) {
	st := &status.Status{}
	post := func(calls ...status.LLMCall) *Posted {
		return &Posted{Student: &wire.StudentResultRequest{Audit: &status.Audit{LLMCalls: calls}}}
	}
	var none *Posted
	for _, p := range []*Posted{
		post(status.LLMCall{InputTokens: 100, OutputTokens: 10, CostUSD: 0.25}),
		{Mentor: &wire.MentorResultRequest{Audit: &status.Audit{LLMCalls: []status.LLMCall{{InputTokens: 50, CostUSD: 0.1, Estimated: true}, {NoPrice: true, Estimated: true}}}}},
		post(),
		none,
	} {
		st.AddCost(p.LLMCalls())
	}
	c := st.Cost
	if c == nil || c.Calls != 3 || c.InputTokens != 150 || c.OutputTokens != 10 || c.USD < 0.349 || c.USD > 0.351 || !c.Estimated || c.Unpriced != 1 {
		t.Errorf("cost = %+v", c)
	}
	if got := c.String(); !strings.Contains(got, "$0.3500 (estimated; 1 of the calls had no price) for 3 LLM calls") {
		t.Errorf("String() = %q", got)
	}
}
