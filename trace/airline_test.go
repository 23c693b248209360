package trace_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentjudge/judge/trace"
)

// airline builds a conversation of the airline domain message by
// message.
type airline struct {
	msgs []string
	n    int
}

func (a *airline) add(m map[string]any) *airline {
	b, _ := json.Marshal(m)
	a.msgs = append(a.msgs, string(b))
	return a
}

func (a *airline) user(text string) *airline {
	return a.add(map[string]any{"role": "user", "content": text})
}
func (a *airline) agent(text string) *airline {
	return a.add(map[string]any{"role": "assistant", "content": text})
}

// call makes a call of name with args and records result (JSON text, or
// any other text as it is).
func (a *airline) call(name, args, result string) *airline {
	a.n++
	id := fmt.Sprintf("c%d", a.n)
	a.add(map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
		"id": id, "type": "function", "function": map[string]any{"name": name, "arguments": args}}}})
	return a.add(map[string]any{"role": "tool", "tool_call_id": id, "content": result})
}

func (a *airline) json() string { return "[" + strings.Join(a.msgs, ",") + "]" }

const (
	silverUser = `{"user_id": "ada_lee_1", "membership": "silver", "dob": "1990-01-02", "name": {"first_name": "Ada", "last_name": "Lee"},
 "payment_methods": {"credit_card_1": {"source": "credit_card", "last_four": "4242", "id": "credit_card_1"}, "gift_card_2": {"source": "gift_card", "amount": 500, "id": "gift_card_2"}},
 "reservations": ["RES001"]}`
	regularUser = `{"user_id": "ada_lee_1", "membership": "regular", "dob": "1990-01-02", "payment_methods": {}, "reservations": ["RES001"]}`
)

// reservation is RES001 of ada_lee_1: JFK to SEA one way via ORD.
func reservation(cabin, insurance, created, date string) string {
	return fmt.Sprintf(`{"reservation_id": "RES001", "user_id": "ada_lee_1", "origin": "JFK", "destination": "SEA", "flight_type": "one_way",
 "cabin": %q, "insurance": %q, "created_at": %q, "total_baggages": 1, "nonfree_baggages": 0,
 "flights": [{"flight_number": "HAT001", "origin": "JFK", "destination": "ORD", "date": %q, "price": 100},
             {"flight_number": "HAT002", "origin": "ORD", "destination": "SEA", "date": %q, "price": 100}],
 "passengers": [{"first_name": "Ada", "last_name": "Lee", "dob": "1990-01-02"}]}`, cabin, insurance, created, date, date)
}

// start is a conversation that identified the user and read RES001.
func start(res string) *airline {
	a := (&airline{}).add(map[string]any{"role": "system", "content": "Airline policy: ... Each extra baggage is 50 dollars."})
	return a.user("Hi, I am ada_lee_1 and it is about reservation RES001.").
		call("get_user_details", `{"user_id": "ada_lee_1"}`, silverUser).
		call("get_reservation_details", `{"reservation_id": "RES001"}`, res)
}

// booking is a conversation in which ada_lee_1, a silver member, books
// HAT009 in economy after asking for bags (the user's words) and saying
// yes to a summary naming summaryBags, with total and nonfree checked
// bags.
func booking(bags, summaryBags string, total, nonfree int) *airline {
	return (&airline{}).user("Book JFK to SEA one way on May 20 for me, ada_lee_1, economy, "+bags+", no insurance, gift card.").
		call("get_user_details", `{"user_id": "ada_lee_1"}`, silverUser).
		call("search_direct_flight", `{"origin": "JFK", "destination": "SEA", "date": "2024-05-20"}`, `[{"flight_number": "HAT009", "origin": "JFK", "destination": "SEA", "status": "available", "prices": {"economy": 200}}]`).
		agent("Booking HAT009 on 2024-05-20 in economy for Ada Lee (1990-01-02), "+summaryBags+", no travel insurance, paid with gift_card_2. Proceed?").
		user("yes").
		call("book_reservation", fmt.Sprintf(`{"user_id": "ada_lee_1", "origin": "JFK", "destination": "SEA", "flight_type": "one_way", "cabin": "economy", "flights": [{"flight_number": "HAT009", "date": "2024-05-20"}], "passengers": [{"first_name": "Ada", "last_name": "Lee", "dob": "1990-01-02"}], "payment_methods": [{"payment_id": "gift_card_2", "amount": 200}], "total_baggages": %d, "nonfree_baggages": %d, "insurance": "no"}`, total, nonfree), `{"reservation_id": "NEW001"}`)
}

// upgrade is a conversation in which ada_lee_1 asks for business and
// says yes to summary, and RES001's cabin is changed to business on both
// its flights.
func upgrade(summary string) *airline {
	economy := reservation("economy", "no", "2024-05-01T10:00:00", "2024-05-20")
	return start(economy).user("Upgrade me to business.").agent(summary).user("yes").
		call("update_reservation_flights", `{"reservation_id": "RES001", "cabin": "business", "flights": [{"flight_number": "HAT001", "date": "2024-05-20"}, {"flight_number": "HAT002", "date": "2024-05-20"}], "payment_id": "credit_card_1"}`, economy)
}

// The example airline rules on small conversations, each breaking or
// keeping a rule of the policy text: the rule must be found broken
// exactly where the policy is broken.
func TestAirlineRules(t *testing.T) {
	t.Parallel()
	ch := tauChecker(t)
	economy := reservation("economy", "no", "2024-05-01T10:00:00", "2024-05-20")
	tests := []struct {
		name   string
		conv   *airline
		broken []string // rules that must be broken
		kept   []string // rules that must not be
	}{
		{name: "bag allowance of a silver member",
			conv:   booking("3 bags", "3 bags of which 1 paid", 3, 0),
			broken: []string{"bag_allowance"},
			kept:   []string{"confirm_before_change", "flights_listed", "payment_listed", "insurance_offered", "passengers_known", "booking_route", "flights_from_tools", "user_id_from_user"}},
		{name: "cancelled for a change of plans with insurance",
			conv: start(reservation("economy", "yes", "2024-05-01T10:00:00", "2024-05-20")).
				user("Cancel it, my plans changed.").agent("Cancel reservation RES001 (JFK to SEA), refund to the original payment. Proceed?").user("yes").
				call("cancel_reservation", `{"reservation_id": "RES001"}`, `{"reservation_id": "RES001", "status": "cancelled"}`),
			broken: []string{"cancel_allowed"},
			kept:   []string{"cancel_reason_asked", "cancel_not_flown", "reservation_named", "confirm_before_change", "user_identified", "reservation_of_user"}},
		{name: "cancelled when sick with insurance",
			conv: start(reservation("economy", "yes", "2024-05-01T10:00:00", "2024-05-20")).
				user("Cancel it, I am sick.").agent("Cancel reservation RES001, refund to the original payment. Proceed?").user("yes").
				call("cancel_reservation", `{"reservation_id": "RES001"}`, `{"reservation_id": "RES001", "status": "cancelled"}`),
			kept: []string{"cancel_allowed", "cancel_not_flown"}},
		{name: "cancelled after a segment was flown",
			conv: start(reservation("business", "no", "2024-05-01T10:00:00", "2024-05-10")).
				user("Cancel it, change of plans.").agent("Cancel reservation RES001. Proceed?").user("yes").
				call("cancel_reservation", `{"reservation_id": "RES001"}`, `{"reservation_id": "RES001", "status": "cancelled"}`),
			broken: []string{"cancel_not_flown"}, kept: []string{"cancel_allowed"}},
		{name: "destination changed",
			conv: start(economy).user("Move me to a nonstop to LAX instead.").
				call("search_direct_flight", `{"origin": "JFK", "destination": "LAX", "date": "2024-05-20"}`, `[{"flight_number": "HAT077", "origin": "JFK", "destination": "LAX", "status": "available"}]`).
				agent("Change RES001 to HAT077 on 2024-05-20, economy, paid with credit card 4242. Proceed?").user("yes").
				call("update_reservation_flights", `{"reservation_id": "RES001", "cabin": "economy", "flights": [{"flight_number": "HAT077", "date": "2024-05-20"}], "payment_id": "credit_card_1"}`, economy),
			broken: []string{"route_kept"}, kept: []string{"flights_listed", "payment_listed", "reservation_named", "change_paid_by_card", "basic_economy_flights_kept"}},
		{name: "basic economy flights changed",
			conv: start(reservation("basic_economy", "no", "2024-05-01T10:00:00", "2024-05-20")).user("Move me to the direct flight.").
				call("search_direct_flight", `{"origin": "JFK", "destination": "SEA", "date": "2024-05-20"}`, `[{"flight_number": "HAT009", "origin": "JFK", "destination": "SEA", "status": "available"}]`).
				agent("Change RES001 to HAT009 on 2024-05-20 in basic economy, paid with credit card 4242. Proceed?").user("yes").
				call("update_reservation_flights", `{"reservation_id": "RES001", "cabin": "basic_economy", "flights": [{"flight_number": "HAT009", "date": "2024-05-20"}], "payment_id": "credit_card_1"}`, economy),
			broken: []string{"basic_economy_flights_kept"}, kept: []string{"route_kept", "cabin_change_asked"}},
		{name: "basic economy upgraded first, then changed",
			conv: start(reservation("basic_economy", "no", "2024-05-01T10:00:00", "2024-05-20")).user("Upgrade me to economy, then move me to the direct flight.").
				agent("Upgrade RES001 to economy on the same flights, paid with credit card 4242. Proceed?").user("yes").
				call("update_reservation_flights", `{"reservation_id": "RES001", "cabin": "economy", "flights": [{"flight_number": "HAT001", "date": "2024-05-20"}, {"flight_number": "HAT002", "date": "2024-05-20"}], "payment_id": "credit_card_1"}`, reservation("basic_economy", "no", "2024-05-01T10:00:00", "2024-05-20")).
				call("search_direct_flight", `{"origin": "JFK", "destination": "SEA", "date": "2024-05-20"}`, `[{"flight_number": "HAT009", "origin": "JFK", "destination": "SEA", "status": "available"}]`).
				agent("Change RES001 to HAT009 on 2024-05-20 in economy, paid with credit card 4242. Proceed?").user("yes").
				call("update_reservation_flights", `{"reservation_id": "RES001", "cabin": "economy", "flights": [{"flight_number": "HAT009", "date": "2024-05-20"}], "payment_id": "credit_card_1"}`, economy),
			kept: []string{"basic_economy_flights_kept", "cabin_change_asked", "route_kept", "confirm_before_change"}},
		{name: "bags added by a silver member after an upgrade",
			conv: start(reservation("basic_economy", "no", "2024-05-01T10:00:00", "2024-05-20")).user("Upgrade me to economy and add 2 bags.").
				agent("Upgrade RES001 to economy on the same flights, paid with credit card 4242. Proceed?").user("yes").
				call("update_reservation_flights", `{"reservation_id": "RES001", "cabin": "economy", "flights": [{"flight_number": "HAT001", "date": "2024-05-20"}, {"flight_number": "HAT002", "date": "2024-05-20"}], "payment_id": "credit_card_1"}`, reservation("basic_economy", "no", "2024-05-01T10:00:00", "2024-05-20")).
				agent("Add bags to RES001: 2 in total, free for a silver member in economy, paid with credit card 4242. Proceed?").user("yes").
				call("update_reservation_baggages", `{"reservation_id": "RES001", "total_baggages": 2, "nonfree_baggages": 0, "payment_id": "credit_card_1"}`, economy),
			kept: []string{"bag_allowance", "no_bag_removal", "payment_listed"}},
		{name: "compensation for a regular member in economy",
			conv: (&airline{}).user("My flight was delayed, I am ada_lee_1, I want compensation.").
				call("get_user_details", `{"user_id": "ada_lee_1"}`, regularUser).
				call("get_reservation_details", `{"reservation_id": "RES001"}`, economy).
				call("send_certificate", `{"user_id": "ada_lee_1", "amount": 50}`, "Certificate certificate_9 added to user ada_lee_1 with amount 50."),
			broken: []string{"compensation_allowed"}, kept: []string{"compensation_not_offered_unasked"}},
		{name: "compensation offered unasked",
			conv: (&airline{}).user("My flight was delayed, I am ada_lee_1.").
				call("get_user_details", `{"user_id": "ada_lee_1"}`, silverUser).
				agent("As a silver member you can get a compensation certificate of 50 dollars."),
			broken: []string{"compensation_not_offered_unasked"}},
		{name: "amount computed without the tools",
			conv:   start(economy).user("How much did I pay for the two flights?").agent("Your two flights cost $200 in total."),
			broken: []string{"amounts_from_tools"}},
		{name: "amount from the calculate tool and the policy",
			conv: start(economy).user("How much did I pay, and what is an extra bag?").
				call("calculate", `{"expression": "100 + 100"}`, "200.0").
				agent("Your two flights cost $200.00 in total; each extra bag is $50."),
			kept: []string{"amounts_from_tools"}},
		{name: "compensation of the wrong amount",
			conv: start(reservation("business", "no", "2024-05-01T10:00:00", "2024-05-20")).user("My flight was cancelled, I want compensation.").
				call("send_certificate", `{"user_id": "ada_lee_1", "amount": 150}`, "Certificate certificate_9 added to user ada_lee_1 with amount 150."),
			broken: []string{"compensation_allowed"}},
		{name: "compensation for a cancelled flight",
			conv: start(reservation("business", "no", "2024-05-01T10:00:00", "2024-05-20")).user("My flight was cancelled, I want compensation.").
				call("send_certificate", `{"user_id": "ada_lee_1", "amount": 100}`, "Certificate certificate_9 added to user ada_lee_1 with amount 100."),
			kept: []string{"compensation_allowed", "compensation_not_offered_unasked"}},
		{name: "reservation id unknown and not looked up",
			conv:   (&airline{}).user("I want to cancel, but I don't remember the reservation id.").agent("I need the reservation id to help you."),
			broken: []string{"reservation_looked_up"}},
		{name: "user sent to another channel",
			conv: (&airline{}).user("I want to change my flight but I don't have the reservation id.").
				agent("Please check your email for the reservation id, or contact customer service."),
			broken: []string{"no_outside_procedures"}},
		{name: "user transferred, not sent elsewhere",
			conv: start(economy).user("Can you tell me why my flight was delayed?").
				agent("I cannot see the reason of a delay; I can transfer you to a human agent, who may know more.").user("yes").
				call("transfer_to_human_agents", `{"summary": "asks why the flight was delayed"}`, "Transfer successful"),
			kept: []string{"no_outside_procedures"}},
		{name: "confirmation email after a booking",
			conv: booking("no bags", "no bags", 0, 0).agent("Your reservation has been booked; please check your email for the confirmation."),
			kept: []string{"no_outside_procedures", "no_action_claimed_without_call"}},
		{name: "bags said added with no call",
			conv: start(economy).user("Upgrade me to economy and add two bags.").
				agent("Upgrade RES001 to economy on the same flights and add 2 bags, paid with credit card 4242. Proceed?").user("yes").
				call("update_reservation_flights", `{"reservation_id": "RES001", "cabin": "economy", "flights": [{"flight_number": "HAT001", "date": "2024-05-20"}, {"flight_number": "HAT002", "date": "2024-05-20"}], "payment_id": "credit_card_1"}`, economy).
				agent("Your reservation has been successfully upgraded, and two bags have been added."),
			broken: []string{"no_action_claimed_without_call"}},
		{name: "cancellation said done after the environment refused it",
			conv: start(economy).user("Cancel it, I am sick.").agent("Cancel reservation RES001, refund to the original payment. Proceed?").user("yes").
				call("cancel_reservation", `{"reservation_id": "RES001"}`, "Error: reservation RES001 cannot be cancelled").
				agent("Your reservation RES001 has been cancelled."),
			broken: []string{"no_action_claimed_without_call"}},
		{name: "actions said done after their calls, and the policy stated",
			conv: start(economy).user("Add a bag, and can I remove it later?").
				agent("Add 1 bag to RES001 (2 in total, free for a silver member in economy), paid with credit card 4242. Proceed?").user("yes").
				call("update_reservation_baggages", `{"reservation_id": "RES001", "total_baggages": 2, "nonfree_baggages": 0, "payment_id": "credit_card_1"}`, economy).
				agent("Your reservation has been updated: one bag has been added. Bags cannot be removed once they have been added."),
			kept: []string{"no_action_claimed_without_call"}},
		{name: "one yes for two listed actions",
			conv: start(reservation("basic_economy", "no", "2024-05-01T10:00:00", "2024-05-20")).user("Upgrade me to economy and add 2 bags.").
				agent("Upgrade RES001 to economy on the same flights, and add 2 bags (free for a silver member in economy), both paid with credit card 4242. Proceed?").user("yes").
				call("update_reservation_flights", `{"reservation_id": "RES001", "cabin": "economy", "flights": [{"flight_number": "HAT001", "date": "2024-05-20"}, {"flight_number": "HAT002", "date": "2024-05-20"}], "payment_id": "credit_card_1"}`, economy).
				call("update_reservation_baggages", `{"reservation_id": "RES001", "total_baggages": 2, "nonfree_baggages": 0, "payment_id": "credit_card_1"}`, economy),
			kept: []string{"confirm_before_change", "payment_listed", "reservation_named"}},
		{name: "a change without a yes",
			conv: start(economy).user("Add 2 bags, with my card 4242.").
				call("update_reservation_baggages", `{"reservation_id": "RES001", "total_baggages": 2, "nonfree_baggages": 0, "payment_id": "credit_card_1"}`, economy),
			broken: []string{"confirm_before_change"}},
		{name: "refund to the original payment method of the reservation",
			conv: start(`{"reservation_id": "RES001", "user_id": "ada_lee_1", "origin": "JFK", "destination": "SEA", "flight_type": "one_way", "cabin": "economy", "insurance": "no", "created_at": "2024-05-01T10:00:00",
 "flights": [{"flight_number": "HAT001", "origin": "JFK", "destination": "SEA", "date": "2024-05-20", "price": 300}], "passengers": [{"first_name": "Ada", "last_name": "Lee", "dob": "1990-01-02"}],
 "payment_history": [{"payment_id": "gift_card_2", "amount": 300}]}`).
				user("Move me to the cheaper direct flight.").
				call("search_direct_flight", `{"origin": "JFK", "destination": "SEA", "date": "2024-05-20"}`, `[{"flight_number": "HAT009", "origin": "JFK", "destination": "SEA", "status": "available"}]`).
				agent("Change RES001 to HAT009 on 2024-05-20, economy; the difference is refunded to your original payment method. Proceed?").user("yes").
				call("update_reservation_flights", `{"reservation_id": "RES001", "cabin": "economy", "flights": [{"flight_number": "HAT009", "date": "2024-05-20"}], "payment_id": "gift_card_2"}`, economy),
			kept: []string{"payment_listed"}},
		{name: "refund said to the original payment method, paid with another",
			conv: start(economy).user("Move me to the cheaper direct flight.").
				call("search_direct_flight", `{"origin": "JFK", "destination": "SEA", "date": "2024-05-20"}`, `[{"flight_number": "HAT009", "origin": "JFK", "destination": "SEA", "status": "available"}]`).
				agent("Change RES001 to HAT009 on the same day, economy; the difference is refunded to your original payment method. Proceed?").user("yes").
				call("update_reservation_flights", `{"reservation_id": "RES001", "cabin": "economy", "flights": [{"flight_number": "HAT009", "date": "2024-05-20"}], "payment_id": "gift_card_2"}`, economy),
			broken: []string{"payment_listed"}},
		{name: "cabin upgraded for one passenger",
			conv: start(`{"reservation_id": "RES001", "user_id": "ada_lee_1", "origin": "JFK", "destination": "SEA", "flight_type": "one_way", "cabin": "economy", "insurance": "no", "created_at": "2024-05-01T10:00:00",
 "flights": [{"flight_number": "HAT001", "origin": "JFK", "destination": "SEA", "date": "2024-05-20", "price": 100}],
 "passengers": [{"first_name": "Ada", "last_name": "Lee", "dob": "1990-01-02"}, {"first_name": "Bo", "last_name": "Lee", "dob": "1992-03-04"}]}`).
				user("Upgrade Bo Lee to business.").
				agent("Upgrade Bo Lee on RES001 to business, paid with credit card 4242. Proceed?").user("yes").
				call("update_reservation_flights", `{"reservation_id": "RES001", "cabin": "business", "flights": [{"flight_number": "HAT001", "date": "2024-05-20"}], "payment_id": "credit_card_1"}`, economy),
			broken: []string{"cabin_for_all_passengers"}, kept: []string{"cabin_change_asked", "confirm_before_change"}},
		{name: "cabin upgraded for one segment",
			conv:   upgrade("Upgrade RES001: HAT001 (business class) and HAT002 (economy class), paid with credit card 4242. Proceed?"),
			broken: []string{"cabin_for_all_passengers"}},
		{name: "cabin upgraded for the whole reservation",
			conv: upgrade("Upgrade RES001 from economy to business for Ada Lee: HAT001 (business) and HAT002 (business), paid with credit card 4242. Proceed?"),
			kept: []string{"cabin_for_all_passengers", "cabin_change_asked"}},
		{name: "cabin upgraded on every flight, the old cabin named beside each",
			conv: upgrade("Upgrade RES001 for Ada Lee: HAT001 (economy → business), HAT002 (economy → business), paid with credit card 4242. Proceed?"),
			kept: []string{"cabin_for_all_passengers"}},
		{name: "reservation id unknown and looked up",
			conv: (&airline{}).user("I want to cancel, but I don't remember the reservation id. I am ada_lee_1.").
				call("get_user_details", `{"user_id": "ada_lee_1"}`, silverUser),
			kept: []string{"reservation_looked_up"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rep := checkOne(t, ch, tt.conv.json())
			broken := slices.Clone(rep.Violations)
			for _, cr := range rep.Calls {
				broken = append(broken, cr.Violations...)
			}
			for _, is := range rep.Result.Issues {
				if strings.HasPrefix(is.Rule, trace.UndecidedRuleID) {
					t.Errorf("undecided: %s", is.Message)
				}
			}
			for _, r := range tt.broken {
				if !slices.Contains(broken, r) {
					t.Errorf("rule %s not broken; broken: %v", r, broken)
				}
			}
			for _, r := range tt.kept {
				if slices.Contains(broken, r) {
					t.Errorf("rule %s broken; broken: %v", r, broken)
				}
			}
		})
	}
}
