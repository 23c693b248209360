package source_test

import (
	"testing"

	"github.com/agentjudge/judge/internal/source"
)

// TestConversionVerdicts checks that a measure written with its
// conversion in parentheses is stated where the source gives the
// quantity in either unit, and that each number of the pair stays flagged
// where the source gives neither, or gives another quantity; a number in
// parentheses that is no conversion is not helped by the one before it.
// A sum of money with its value in another currency is read alike.
// The sentences are written for this test.
func TestConversionVerdicts(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "hall.txt", Content: "In measurements, the Tolby hall is 108 metres long across the front and 120 metres deep.\n" +
		"The Marrow office covers 180,000 square feet on two floors.\n" +
		"The Corla club paid £5 million for the striker.\n" +
		"The Vessey estate covers 10,000 hectares of moor.\n" +
		"The Pell fund raised ¥10 billion in its first round and 10 billion yuan in its second.\n" +
		"The Ardley barn is 300 feet long.\nA plaque in the Ardley barn gives 120 m."})
	tests := []struct {
		text, number string
		status       source.Status // or flagged
	}{
		{"The front of the Tolby hall measures 355 feet (108 m) across.", "355", source.Supported},
		{"The front of the Tolby hall measures 355 feet (108 m) across.", "108", source.Supported},
		{"The Tolby hall is 390 ft (120 m) deep.", "390", source.Supported},
		{"The Marrow office covers 180,000 square feet (17,000 m) on two floors.", "17,000", source.Supported},
		{"The Corla club paid £5 million ($6.5 million) for the striker.", "$6.5 million", source.Supported},
		// The source gives neither, or another quantity.
		{"The Corla club paid £7 million ($9 million) for the striker.", "$9 million", flagged},
		{"The front of the Tolby hall measures 400 feet (122 m) across.", "400", flagged},
		{"The front of the Tolby hall measures 400 feet (122 m) across.", "122", flagged},
		{"The Marrow office covers 150,000 square feet (14,000 m) on two floors.", "14,000", flagged},
		// A conversion rounded to one significant digit is one only where
		// the measure converted has no more: 36,000 acres is 14,569 ha,
		// which no converter writes "10,000 ha".
		{"The Vessey estate covers 25,000 acres (10,000 ha) of moor.", "25,000", source.Supported},
		{"The Vessey estate covers 36,000 acres (10,000 ha) of moor.", "36,000", flagged},
		// "¥" is the yen or the yuan, some eighteen times apart: no rate
		// reads it; the currency named in words does.
		{"The Pell fund raised 10 billion yuan ($1.4 billion) in its second round.", "$1.4 billion", source.Supported},
		{"The Pell fund raised ¥10 billion ($1 billion) in its first round.", "$1 billion", flagged},
		// A measure the source gives otherwise stays contradicted, whatever
		// its conversion finds.
		{"The Ardley barn is 300 feet (120 m) long.", "300", source.Supported},
		{"The Ardley barn is 390 feet (120 m) long.", "390", flagged},
		// Not a conversion: "(108 rooms)" is not the hall's length.
		{"The front of the Tolby hall measures 355 feet (108 rooms) across.", "355", flagged},
	}
	for _, tt := range tests {
		checkVerdicts(t, ix, []verdictCase{{tt.text, tt.status}}, numberWritten(tt.number), nil)
	}
}
