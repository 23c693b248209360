package claim_test

import "testing"

// TestWeekdayInName: a weekday that is a word of a name (after a
// capitalized word mid-sentence, or after "the", "a" or an opening quote
// and before a capitalized word) is read with the name, not as a day;
// a weekday after "on", "last" or a sentence's start, before a month or
// a person's name, or before a common word stays a day. The sentences are
// written for this test.
func TestWeekdayInName(t *testing.T) {
	t.Parallel()
	tests := []struct{ text, want string }{
		{`After "The Sunday Courier" printed the letter, Vey sued it.`, "name Sunday Courier; name Vey"},
		{"She wrote for the Monday Ledger in 1990.", "name Monday Ledger; date 1990"},
		{"Queues formed on Grey Friday at the Tolby mall.", "name Grey Friday; name Tolby"},
		{"The Good Friday Accord of Tolby was signed.", "name Good Friday Accord of Tolby"},
		{"On Sunday March 5 it rained.", "date Sunday; date March 5"},
		{"He left on Sunday, March 5.", "date Sunday; date March 5"},
		{"Last Friday the club met.", "date Friday"},
		{"Friday was cold.", "date Friday"},
		{"She was born on a Sunday.", "date Sunday"},
		{"The Tuesday meeting was cancelled.", "date Tuesday"},
		{"It opened on the Sunday before Easter.", "date Sunday; name Easter"},
	}
	for _, tt := range tests {
		if g := shown(tt.text, kindText); g != tt.want {
			t.Errorf("%q: got %q, want %q", tt.text, g, tt.want)
		}
	}
}

// TestDateBeforeName: a month or weekday read as a date right before a
// name leaves the name after it a name (it had swallowed it); a name
// that only the date's word precedes after a comma, and a weekday of a
// name, are read as before. The sentences are written for this test.
func TestDateBeforeName(t *testing.T) {
	t.Parallel()
	tests := []struct{ text, want string }{
		{"On Friday Ona Vey left Tolby.", "date Friday; name Ona Vey; name Tolby"},
		{"In March Ona Vey left.", "date March; name Ona Vey"},
		{"By Monday Tolby Council had voted.", "date Monday; name Tolby Council"},
		{"March 5 Ona Vey left.", "date March 5; name Ona Vey"},
		{"On Friday, Ona Vey left.", "date Friday; name Ona Vey"},
		{"She wrote for the Monday Ledger.", "name Monday Ledger"},
	}
	for _, tt := range tests {
		if g := shown(tt.text, kindText); g != tt.want {
			t.Errorf("%q: got %q, want %q", tt.text, g, tt.want)
		}
	}
}
