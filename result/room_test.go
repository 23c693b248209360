package result

import (
	"reflect"
	"slices"
	"testing"
	"time"
)

// A result built in a room and its issues are one allocation, for one
// issue and for two.
func TestRoomAllocations(t *testing.T) {
	issues := typicalIssues()
	for n := 1; n <= 2; n++ {
		if got := testing.AllocsPerRun(100, func() {
			room := NewRoom(n)
			copy(room.Issues(), issues)
			room.Found("schema", 1, time.Microsecond, nil, room.Issues())
		}); got != 1 {
			t.Errorf("NewRoom(%d) and its Found: %v allocations, want 1", n, got)
		}
	}
}

// A result built in a room keeps to its own: its issues have no spare
// capacity (an append copies them out of the block, the room's other
// issues untouched), a second Found of the room or of issues not its own
// gives a result of its own, and the zero Room's Found is Found.
func TestRoomAliasing(t *testing.T) {
	t.Parallel()
	issues := typicalIssues()
	room := NewRoom(2)
	if got := room.Issues(); len(got) != 2 || cap(got) != 2 {
		t.Fatalf("NewRoom(2).Issues(): len %d cap %d, want 2 and 2", len(got), cap(got))
	}
	copy(room.Issues(), issues)
	second := room.Issues()[1]
	r := room.Found("schema", 1, time.Microsecond, nil, room.Issues()[:1])
	if len(r.Issues) != 1 || cap(r.Issues) != 1 || &r.Issues[0] != &room.Issues()[0] {
		t.Fatalf("Room.Found of the room's first issue: issues %p len %d cap %d, want the room's, len and cap 1",
			r.Issues, len(r.Issues), cap(r.Issues))
	}
	grown := append(r.Issues, Issue{Severity: Error, Type: InvalidType, Location: "x", Message: "Field 'x' has type number, expected string"})
	if &grown[0] == &r.Issues[0] {
		t.Error("an append to the result's issues wrote into the room")
	}
	if room.Issues()[1] != second {
		t.Errorf("the room's second issue changed: %+v, want %+v", room.Issues()[1], second)
	}
	want := NewBuilder().SelfCheck(nil).Ran("schema").Add(issues[0]).Confidence(1).Duration(time.Microsecond).Build()
	if !reflect.DeepEqual(r, want) {
		t.Errorf("Room.Found = %+v, want %+v", r, want)
	}

	// The room's result is taken: a second Found builds another.
	again := room.Found("other", 0.5, time.Millisecond, nil, room.Issues())
	if again == r {
		t.Fatal("a second Found of the room gave the first result")
	}
	if !reflect.DeepEqual(r, want) {
		t.Errorf("a second Found of the room changed the first result: %+v, want %+v", r, want)
	}
	if w := NewBuilder().SelfCheck(nil).Ran("other").Add(issues...).Confidence(0.5).Duration(time.Millisecond).Build(); !reflect.DeepEqual(again, w) {
		t.Errorf("second Room.Found = %+v, want %+v", again, w)
	}

	// Issues not the room's, and the zero Room.
	other := slices.Clone(issues)
	fresh := NewRoom(2)
	if got := fresh.Found("schema", 1, time.Microsecond, nil, other); &got.Issues[0] != &other[0] {
		t.Error("Room.Found of issues not its own did not take them over as Found does")
	}
	var zero Room
	if zero.Issues() != nil {
		t.Errorf("the zero Room's issues: %+v, want nil", zero.Issues())
	}
	w := Found("schema", 1, time.Microsecond, nil, slices.Clone(issues))
	if got := zero.Found("schema", 1, time.Microsecond, nil, slices.Clone(issues)); !reflect.DeepEqual(got, w) {
		t.Errorf("zero Room.Found = %+v, want %+v", got, w)
	}
	if got := NewRoom(3).Issues(); len(got) != 3 {
		t.Errorf("NewRoom(3).Issues(): %d issues, want 3", len(got))
	}
}
