package status

import (
	"fmt"
	"strconv"
)

// Cost totals LLM calls: tokens, and US dollars where known.
type Cost struct {
	Calls        int     `json:"calls"`
	InputTokens  int64   `json:"inputTokens"`
	OutputTokens int64   `json:"outputTokens"`
	USD          float64 `json:"usd"`
	// Estimated says part of USD comes from the price table rather than
	// from the provider (only Claude reports what a call cost).
	Estimated bool `json:"estimated,omitempty"`
	// Unpriced counts calls whose model had no price: USD leaves them out.
	Unpriced int `json:"unpriced,omitempty"`
}

// CostOf totals calls; it is nil when there are none.
func CostOf(calls []LLMCall) *Cost {
	if len(calls) == 0 {
		return nil
	}
	c := &Cost{}
	for _, call := range calls {
		c.Calls++
		c.InputTokens += call.InputTokens
		c.OutputTokens += call.OutputTokens
		c.USD += call.CostUSD
		c.Estimated = c.Estimated || call.Estimated
		if call.NoPrice {
			c.Unpriced++
		}
	}
	return c
}

// AddCost adds calls to the run's cost (nil until the first call).
func (st *Status) AddCost(calls []LLMCall) {
	add := CostOf(calls)
	if add == nil {
		return
	}
	if st.Cost == nil {
		st.Cost = add
		return
	}
	c := *st.Cost
	c.Calls += add.Calls
	c.InputTokens += add.InputTokens
	c.OutputTokens += add.OutputTokens
	c.USD += add.USD
	c.Estimated = c.Estimated || add.Estimated
	c.Unpriced += add.Unpriced
	st.Cost = &c
}

// String says what the calls cost in one phrase: "$0.1234 (estimated) for
// 3 LLM calls, 12000 input and 800 output tokens".
func (c *Cost) String() string {
	if c == nil {
		return "no LLM calls"
	}
	usd := "$" + strconv.FormatFloat(c.USD, 'f', 4, 64)
	switch {
	case c.Unpriced == c.Calls:
		usd = "unknown USD (no price for the model)"
	case c.Unpriced > 0:
		usd += fmt.Sprintf(" (estimated; %d of the calls had no price)", c.Unpriced)
	case c.Estimated:
		usd += " (estimated)"
	}
	return fmt.Sprintf("%s for %s, %d input and %d output tokens", usd, Plural(c.Calls, "LLM call"), c.InputTokens, c.OutputTokens)
}

// Plural counts a noun in English: "1 LLM call", "3 LLM calls".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
