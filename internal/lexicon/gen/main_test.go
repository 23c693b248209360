package main

import (
	"reflect"
	"strings"
	"testing"
)

// TestParseSynset reads lines of WordNet 3.0's data files (copied from
// Debian's wordnet-base, gloss removed as eachLine removes it): the
// offset, lexicographer file, words without an adjective's marker and
// pointers; a line whose counts promise more than it holds gives what it
// holds; a count that is no number is an error naming the file.
func TestParseSynset(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		want synset
		err  string
	}{
		{"02704345 01 a 01 Cornish 0 001 \\ 08881398 n 0101", synset{offset: "02704345", lexfile: "01",
			words: []string{"Cornish"}, pointers: []pointer{{symbol: "\\", offset: "08881398", file: "n", source: 1, target: 1}}}, ""},
		{"00019731 00 s 02 handy 0 ready_to_hand(p) 0 002 & 00019131 a 0000 + 04718999 n 0101", synset{offset: "00019731", lexfile: "00",
			words: []string{"handy", "ready_to_hand"}, pointers: []pointer{
				{symbol: "&", offset: "00019131", file: "a"}, {symbol: "+", offset: "04718999", file: "n", source: 1, target: 1}}}, ""},
		// Counts past the fields, a pointer field that is not four hex digits.
		{"08881398 15 n 03 Cornwall 0", synset{offset: "08881398", lexfile: "15", words: []string{"Cornwall"}}, ""},
		{"08881398 15 n 01 Cornwall 0 009 @i 08546183 n 0000 #p 08871007 n 01 %m 1 n zz00 !", synset{offset: "08881398", lexfile: "15",
			words: []string{"Cornwall"}, pointers: []pointer{{symbol: "@i", offset: "08546183", file: "n"}}}, ""},
		{"08881398 15 n xx Cornwall 0", synset{}, `data.noun: word count "xx"`},
		{"08881398 15 n 01 Cornwall 0 many", synset{}, `data.noun: pointer count "many"`},
	}
	for _, tt := range tests {
		got, err := parseSynset("data.noun", strings.Fields(tt.line))
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: error %v, want one containing %q", tt.line, err, tt.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: %+v, %v; want %+v", tt.line, got, err, tt.want)
		}
	}
}

// FuzzParseSynset checks that any line of four fields or more is read
// without a panic, into no more words than its fields hold and pointers
// whose word numbers are those of two hexadecimal digits.
func FuzzParseSynset(f *testing.F) {
	for _, s := range []string{
		"02704345 01 a 01 Cornish 0 001 \\ 08881398 n 0101",
		"00019731 00 s 02 handy 0 ready_to_hand(p) 0 002 & 00019131 a 0000 + 04718999 n 0101",
		"0 0 n ffffffff a", "0 0 n 1 ( 0 -1", "0 0 n 0 2 ! 1 n 0 ! 1 n ffff", "0 0 n 01 w 0 1 ! 1 n +1f0",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		fields := strings.Fields(line)
		if len(fields) < 4 {
			return
		}
		s, err := parseSynset("data.x", fields)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "data.x: ") {
				t.Fatalf("%q: error %v does not name the file", line, err)
			}
			return
		}
		if 4+2*len(s.words) > len(fields) || 4+4*len(s.pointers) > len(fields) {
			t.Fatalf("%q: %d words and %d pointers from %d fields", line, len(s.words), len(s.pointers), len(fields))
		}
		for _, p := range s.pointers {
			if p.source < 0 || p.source > 0xff || p.target < 0 || p.target > 0xff {
				t.Fatalf("%q: pointer %+v", line, p)
			}
		}
	})
}
