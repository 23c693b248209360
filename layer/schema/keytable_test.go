package schema

import (
	"fmt"
	"testing"
)

// A key table, and a probe table, find every name they were built of and
// nothing else; names a key table cannot spread (alike at their first,
// middle and last bytes, or too many) get a probe table; names alike at
// both ends get neither (the map serves).
func TestKeyTable(t *testing.T) {
	t.Parallel()
	many := map[string]keyInfo{}
	for i := range 200 {
		many[fmt.Sprint("field_", i)] = keyInfo{bit: i % 64}
	}
	alike := map[string]keyInfo{}
	for i := range 20 {
		alike[fmt.Sprintf("prefix_%02d_suffix", i)] = keyInfo{bit: i}
	}
	for _, tc := range []struct {
		name             string
		keys             map[string]keyInfo
		wantTable, probe bool
	}{
		{"github tool", map[string]keyInfo{"owner": {bit: 0}, "repo": {bit: 1}, "order": {bit: -1}, "page": {bit: -1}, "perPage": {bit: -1}, "": {bit: 2}}, true, true},
		{"one name", map[string]keyInfo{"q": {bit: 0}}, true, true},
		{"same summary", map[string]keyInfo{"axxb": {bit: 0}, "ayxb": {bit: 1}}, false, true},
		{"short names", map[string]keyInfo{"axxb": {bit: 0}, "ayxb": {bit: 1}, "a": {bit: 2}, "ab": {bit: 3}, "abc": {bit: 4}}, false, true},
		{"200 names", many, false, true},
		{"names alike at both ends", alike, false, false},
	} {
		tab, probe := newKeyTable(tc.keys), newProbeTable(tc.keys)
		if (tab != nil) != tc.wantTable || (probe != nil) != tc.probe {
			t.Errorf("%s: key table %v, probe table %v; want %v, %v", tc.name, tab != nil, probe != nil, tc.wantTable, tc.probe)
			continue
		}
		finds := map[string]func([]byte) (keyInfo, bool){}
		if tab != nil {
			finds["key table"] = tab.find
		}
		if probe != nil {
			finds["probe table"] = probe.find
		}
		for which, find := range finds {
			for name, info := range tc.keys {
				if got, ok := find([]byte(name)); !ok || got != info {
					t.Errorf("%s, %s: find(%q) = %v, %v; want %v", tc.name, which, name, got, ok, info)
				}
			}
			for _, other := range []string{"owner2", "x", "repO", "field_200", "fieldx0", "ownerowner", "\xff", "prefix_20_suffix", "field_", "abd"} {
				if _, in := tc.keys[other]; in {
					continue
				}
				if got, ok := find([]byte(other)); ok {
					t.Errorf("%s, %s: find(%q) = %v, found a name not in the table", tc.name, which, other, got)
				}
			}
		}
	}
}
