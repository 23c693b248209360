package main

import (
	"slices"
	"strings"
	"testing"
)

// TestSubdivisions: a subdivision's name with the last word of its type;
// a name in several languages or inverted left out, a mark that is no
// word dropped; a word ending three names or more of one type in one
// country, and half of them, also dropped (the type in the country's
// language: "Sheng", "-do"), but not one ending fewer ("Pradesh" of 3 of
// 7 states); invalid JSON an error.
func TestSubdivisions(t *testing.T) {
	t.Parallel()
	doc := `{"3166-2": [
		{"code": "JP-22", "name": "Shizuoka", "type": "Prefecture"},
		{"code": "IE-CO", "name": "Cork", "type": "County"},
		{"code": "GB-KEN", "name": "Kent", "type": "Two-tier county"},
		{"code": "CN-AH", "name": "Anhui Sheng", "type": "Province"},
		{"code": "CN-FJ", "name": "Fujian Sheng", "type": "Province"},
		{"code": "CN-GD", "name": "Guangdong Sheng", "type": "Province"},
		{"code": "CN-BJ", "name": "Beijing Shi", "type": "Municipality"},
		{"code": "IN-AP", "name": "Andhra Pradesh", "type": "State"},
		{"code": "IN-AR", "name": "Arunāchal Pradesh", "type": "State"},
		{"code": "IN-MP", "name": "Madhya Pradesh", "type": "State"},
		{"code": "IN-AS", "name": "Assam", "type": "State"},
		{"code": "IN-BR", "name": "Bihār", "type": "State"},
		{"code": "IN-GA", "name": "Goa", "type": "State"},
		{"code": "IN-KL", "name": "Kerala", "type": "State"},
		{"code": "KR-41", "name": "Gyeonggi-do", "type": "Province"},
		{"code": "KR-42", "name": "Gangwon-do", "type": "Province"},
		{"code": "KR-43", "name": "Chungcheongbuk-do", "type": "Province"},
		{"code": "KR-11", "name": "Seoul-teukbyeolsi", "type": "Special city"},
		{"code": "MK-802", "name": "Aerodrom †", "type": "Municipality"},
		{"code": "NP-P1", "name": "Province 1", "type": "Province"},
		{"code": "MH-KIL", "name": "Bikini & Kili", "type": "Municipality"},
		{"code": "GB-AGY", "name": "Isle of Anglesey [Sir Ynys Môn GB-YNM]", "type": "Unitary authority"},
		{"code": "RU-AD", "name": "Adygeja, Respublika", "type": "Republic"},
		{"code": "XX-1", "name": "  ", "type": "State"},
		{"code": "XX-2", "name": "Nowhere", "type": ""}
	]}`
	got, err := subdivisions([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	want := []string{"Aerodrom|municipality", "Andhra Pradesh|state", "Anhui Sheng|province", "Anhui|province", "Arunāchal Pradesh|state",
		"Assam|state", "Beijing Shi|municipality", "Bihār|state", "Bikini & Kili|municipality", "Chungcheongbuk-do|province",
		"Chungcheongbuk|province", "Cork|county", "Fujian Sheng|province", "Fujian|province", "Gangwon-do|province", "Gangwon|province",
		"Goa|state", "Guangdong Sheng|province", "Guangdong|province", "Gyeonggi-do|province", "Gyeonggi|province", "Kent|county",
		"Kerala|state", "Madhya Pradesh|state", "Province 1|province", "Seoul-teukbyeolsi|city", "Shizuoka|prefecture"}
	if !slices.Equal(got, want) {
		t.Errorf("subdivisions = %q, want %q", got, want)
	}
	if _, err := subdivisions([]byte(`{"3166-2": [`)); err == nil || !strings.Contains(err.Error(), "iso_3166-2") {
		t.Errorf("truncated JSON: error %v, want one naming iso_3166-2", err)
	}
}

// FuzzSubdivisions: any JSON gives lines of a name and a kind, neither
// empty nor holding a "|" or a line break, or an error; never a panic.
func FuzzSubdivisions(f *testing.F) {
	f.Add(`{"3166-2": [{"code": "JP-22", "name": "Shizuoka", "type": "Prefecture"}]}`)
	f.Add(`{"3166-2": [{"code": "CN-AH", "name": "Anhui Sheng", "type": "Province"}, {"code": "CN-FJ", "name": "Fujian Sheng", "type": "Province"}, {"code": "CN-GD", "name": "Guangdong Sheng", "type": "Province"}]}`)
	f.Add(`{"3166-2": [{"name": "a|b", "type": "x\ny"}]}`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, data string) {
		got, err := subdivisions([]byte(data))
		if err != nil {
			if !strings.Contains(err.Error(), "iso_3166-2") {
				t.Fatalf("error %v does not name the file", err)
			}
			return
		}
		for _, l := range got {
			name, kind, ok := strings.Cut(l, "|")
			if !ok || name == "" || kind == "" || strings.Contains(kind, "|") || strings.ContainsAny(l, "\n\r") {
				t.Fatalf("line %q is not name|kind on one line", l)
			}
		}
	})
}
