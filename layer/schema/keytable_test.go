package schema

import (
	"fmt"
	"testing"
)

// A key table finds every name it was built of and nothing else; names it
// cannot tell apart by their summary (alike at both ends) get no table
// (the map serves).
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
		name      string
		keys      map[string]keyInfo
		wantTable bool
	}{
		{"github tool", map[string]keyInfo{"owner": {bit: 0}, "repo": {bit: 1}, "order": {bit: -1}, "page": {bit: -1}, "perPage": {bit: -1}, "": {bit: 2}}, true},
		{"one name", map[string]keyInfo{"q": {bit: 0}}, true},
		{"short names", map[string]keyInfo{"axxb": {bit: 0}, "ayxb": {bit: 1}, "a": {bit: 2}, "ab": {bit: 3}, "abc": {bit: 4}}, true},
		{"200 names", many, true},
		{"names alike at both ends", alike, false},
	} {
		tab := newKeyTable(tc.keys)
		if (tab != nil) != tc.wantTable {
			t.Errorf("%s: table %v, want %v", tc.name, tab != nil, tc.wantTable)
			continue
		}
		if tab == nil {
			continue
		}
		for name, info := range tc.keys {
			if got, ok := tab.find([]byte(name)); !ok || got != info {
				t.Errorf("%s: find(%q) = %v, %v; want %v", tc.name, name, got, ok, info)
			}
		}
		for _, other := range []string{"owner2", "x", "repO", "field_200", "fieldx0", "ownerowner", "\xff", "prefix_20_suffix", "field_", "abd"} {
			if _, in := tc.keys[other]; in {
				continue
			}
			if got, ok := tab.find([]byte(other)); ok {
				t.Errorf("%s: find(%q) = %v, found a name not in the table", tc.name, other, got)
			}
		}
	}
}
