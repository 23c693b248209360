// Package ablate turns single grounding rules off, for measuring what each
// rule does on data it was not written on, and for nothing else.
//
// In every ordinary build [Off] is a constant false, so the rules are always
// on and nothing in a shipped binary can switch them. Built with the
// `ablate` tag, Off reads JUDGE_ABLATE, a comma-separated list of rule
// names, on every call:
//
//	JUDGE_ABLATE=relative-date go run -tags ablate ./bench/wice -half a FILE
//
// The rule names are the constants below; docs/grounding.md gives, for each
// rule, its effect on each half of WiCE dev measured this way.
package ablate

// The rules that can be turned off. Each names one decision of
// internal/source or internal/claim.
const (
	// YearAnywhere: a date with a year is stated by any passage giving
	// it, whatever the passage is about.
	YearAnywhere = "year-anywhere"
	// Period: a decade or century is stated by a year inside it.
	Period = "period"
	// Squeezed: a name is stated by the same letters with other spacing
	// or punctuation.
	Squeezed = "squeezed"
	// EventDate: a month given to the same event under another verb is a
	// near miss.
	EventDate = "event-date"
	// RelativeDate: a date whose best passage dates it relative to the
	// page is undecided, and such a passage's other years do not
	// contradict.
	RelativeDate = "relative-date"
	// BareHour: an hour the sources give only as a bare number is
	// undecided.
	BareHour = "bare-hour"
	// UnnamedWeekday: a weekday alone is undecided where the sources name
	// no weekday and no full date.
	UnnamedWeekday = "unnamed-weekday"
	// Age: an age ("at the age of 78", ", at 31,") is stated by the same
	// number given as an age anywhere in the sources ("dies at 78", "the
	// 31-year-old").
	Age = "age"
	// Folded: a word of a name is stated by the same word with other
	// accents ("Montréal" by "Montreal", "Andre" by "André").
	Folded = "folded"
	// YearSpan: a year inside a span a passage about the same thing
	// gives ("from 1990 to 1995" for "in 1993") is undecided, not
	// contradicted by the span's ends.
	YearSpan = "year-span"
	// Bounds: a number a passage gives only as a bound or an estimate
	// the claim keeps to ("over $100 million" for "$105 million") is
	// undecided, not contradicted.
	Bounds = "bounds"
	// WordForms: a name no passage states as written is stated by the
	// same name with a word abbreviated or written out ("Saint Mary" by
	// "St. Mary"), or without its legal form ("Manchester
	// United F.C." by "Manchester United"); claim.WordForms.
	WordForms = "word-forms"
	// BareHead: a name whose last words the sources give bare, never
	// after another capitalized word ("Election Day" for "U.S.
	// Presidential Election Day"), is undecided.
	BareHead = "bare-head"
	// PageDate: a month or day a passage gives without a year takes the
	// year nearest the page's own date, and a weekday near that date
	// leaves a day falling on it undecided.
	PageDate = "page-date"
	// GenericName: a name no passage states that is a term of English
	// made only of common words ("Bachelor of Arts", "Grand Jury";
	// lexicon.Term) is undecided, unless the sources name something
	// sharing a word with it.
	GenericName = "generic-name"
	// PlaceWords: a country of several words in a name is stated by its
	// nationality ("Saudi officials" for "officials of Saudi Arabia"),
	// not only a nationality by such a country.
	PlaceWords = "place-words"
	// Synonym: a name no passage states is stated by a passage giving,
	// alone, another name WordNet gives the same one thing ("World War
	// I" for "the Great War"; lexicon.Synonyms).
	Synonym = "synonym"
	// HyphenSpaced: a name written with spaces is stated by the same
	// letters hyphenated ("Anne Sophie" by "Anne-Sophie"): the squeezed
	// search also starts from the parts of hyphenated words.
	HyphenSpaced = "hyphen-spaced"
	// SpanEnd: a year a span gives as its end ("2016–17" for 2017) is
	// undecided, as a year inside it is, not contradicted by its start.
	SpanEnd = "span-end"
	// Demonyms: a place in a name is stated by its adjective and back,
	// for the adjectives of places WordNet gives ("Cornish" and
	// "Cornwall"; lexicon.Demonyms), as for the nationalities table.
	Demonyms = "demonyms"
	// Numeral: a name's Roman numeral is a word of it. The extractor
	// keeps an "I" after a name where the grammar rules out the pronoun
	// ("World War I", "Elizabeth I"), and a name with a numeral of one
	// letter is stated only by a passage giving the numeral after the
	// same word ("World War I" not by "World War II", "Henry V" not by
	// "Henry VI"; claim.Numerals), as is a name's final capital letter
	// alone ("Vitamin D" not by "Vitamin C"; claim.FinalLetter).
	Numeral = "numeral"
	// Designator: a country's subdivision named with its kind's word
	// ("Shizuoka Prefecture", "County Cork") is stated by its name alone
	// ("Shizuoka"), where ISO 3166-2 lists a subdivision of that name and
	// kind (lexicon.Subdivisions, from Debian's iso-codes).
	Designator = "designator"
	// Abbreviation: an abbreviation the claim's sentence defines by a
	// name in front of it ("Teaching Excellence Framework (TEF)") takes
	// that name's verdict where the sources state the name or leave it
	// undecided.
	Abbreviation = "abbreviation"
	// Initialism: a dot ending an abbreviation written with its
	// initials ("A.V.", "D.C.") ends no sentence unless a capitalized
	// function word follows ("The A.V. Club" is one sentence).
	Initialism = "initialism"
	// Coverage: a sentence of which the sources hold less than a quarter
	// of the content words is unsupported as a whole.
	Coverage = "coverage"
	// NumericDate: a date written in digits with dots, slashes or
	// hyphens ("31.12.2009", "12/31/2009", "2009/12/31") is a date, not
	// a version or three numbers (claim: numericDates).
	NumericDate = "numeric-date"
	// InitialDot: a capital letter with its dot is a word of the name
	// it stands in ("John F. Kennedy", "J. R. R. Tolkien"), not the
	// name's end.
	InitialDot = "initial-dot"
	// TitleDot: an abbreviated title or place word with its dot
	// ("Gen.", "Sen.", "Dr.", "St.", "Mt.") is the first word of the
	// name after it ("Gen. Douglas MacArthur"), a title the sources may
	// leave out; the sentence does not end at its dot.
	TitleDot = "title-dot"
	// OrdinalWords: a compound ordinal in words ("forty-fourth",
	// "twenty-first") is the number it orders, read as the same ordinal
	// in digits ("44th"), not the tens with a unit ("40 fourth").
	OrdinalWords = "ordinal-words"
	// CommonLead: a sentence's first word that is a common word (a
	// participle, an adverb, a preposition) before "the" is not a word
	// of the name after it ("Dubbed the National Bird Project" names
	// the National Bird Project).
	CommonLead = "common-lead"
	// MidThe: a run of capitalized words joined across "the" is two
	// names where two capitalized words or more follow it ("In England
	// the Shuttleworth Collection"); an epithet of one word ("Alexander
	// the Great") stays a word of the name.
	MidThe = "mid-the"
	// OrdinalNames: an ordinal in digits ("6th") is stated by a passage
	// giving it as a word ("sixth") and sharing a word with the claim's
	// sentence.
	OrdinalNames = "ordinal-names"
	// ColorWord: a colour is stated by a passage giving its word
	// capitalized ("the top Gold rating"), which the reader takes for a
	// name, and sharing a word with the claim's sentence.
	ColorWord = "color-word"
	// Apostrophe: a word written with a typographic apostrophe
	// ("O’Brien") is the same word written with a straight one
	// ("O'Brien").
	Apostrophe = "apostrophe"
	// DurationUnit: a number of a unit of time ("three years") is not
	// stated by the same number counting something else ("3 Sparrows",
	// a title), nor a count by a length of time.
	DurationUnit = "duration-unit"
	// HyphenSame: a name the extractor cut from a hyphenated word ("Blu"
	// of "Blu-ray") is stated by a passage writing the same hyphenated
	// word.
	HyphenSame = "hyphen-same"
	// WeekdayName: a weekday that is a word of a name ("The Sunday
	// Times", "Good Friday") is not a day (claim: weekdayInName).
	WeekdayName = "weekday-name"
	// DateBeforeName: a month or weekday the dates took, right before a
	// name ("In March Ona Vey left"), leaves the name after it a name;
	// it had swallowed the name (claim: names).
	DateBeforeName = "date-before-name"
	// DateRange: a range of days reads both ends as dates, each with the
	// range's year ("March 3–9, 2016": March 3 and March 9, 2016; "Aug.
	// 25 – April 1, 2018": August 25, 2017), and a day inside a range a
	// passage gives ("runs May 11–22") is not contradicted by its ends
	// (claim: dateRanges; source: dayInSpan).
	DateRange = "date-range"
	// DateWeekday: a weekday written before a full date ("Friday, October
	// 6, 1995") is stated by a passage stating that date when the calendar
	// puts the date on that weekday (source: dateWeekday).
	DateWeekday = "date-weekday"
	// OwnValue: a value a passage gives that the claim's own sentence
	// gives to another of its parts ("retired in 1996; served from 1997
	// to 2003" against "served from 1997 to 2003") does not contradict
	// the claim (source: statesOwn).
	OwnValue = "own-value"
	// Conversion: a measure and its conversion written in parentheses
	// after it ("355 feet (108 m)") are one quantity, stated where either
	// is (claim: conversions; source: Index.Check).
	Conversion = "conversion"
	// FoldStem: a word with accents and the same word without them state
	// each other also where the stemmer cuts the plain word's last letter
	// ("José" and "Jose", "Lagacé" and "Lagace"; source: foldedStem).
	FoldStem = "fold-stem"
	// ClaimBound: a number the claim gives as a bound or an estimate
	// ("over 100 countries", "about 12,000") is stated by an exact number
	// of a passage about the same thing that the bound holds of (112,
	// 12,345), which had contradicted it (source: ownBound).
	ClaimBound = "claim-bound"
	// Rounded: a number written rounded with two significant digits or
	// more ("$45 million") is stated by a more precise number of a
	// passage about the same thing that rounds to it ($45.3 million),
	// which had been a near miss (source: rounded).
	Rounded = "rounded"
	// Generational: a person's name with "Jr." or "Sr." after it is
	// stated by the name without it (claim: WordForms).
	Generational = "generational"
	// Exchange: a sum of money and its value in another currency written
	// in parentheses after it ("£5 million ($6.5 million)") are one
	// quantity, as a measure and its conversion are (claim: exchanges).
	Exchange = "exchange"
	// Undotted: a name of initials written with dots ("U.S.", "U.K.",
	// "D.C.") is stated by a passage writing the same capitals without
	// them ("US", "UK", "DC") as a word of its own, not beside another
	// word in capitals ("TELL US MORE"; source: findUndotted).
	Undotted = "undotted"
	// Spelling: a word in British spelling and the same word in American
	// spelling are one word ("Ministry of Defence" and "Ministry of
	// Defense", "Centre" and "Center", "organisation" and "organization";
	// claim: american, Stem).
	Spelling = "spelling"
	// DescribedName: a capitalized word a lower-case word joins by a
	// hyphen ("Merlin-powered", "London-based") ends the name it starts:
	// the name described comes after it ("a Merlin-powered Tolby Sea
	// Hawk" names Merlin and the Tolby Sea Hawk; claim: splitDescribed).
	DescribedName = "described-name"
	// Elision: a word a page writes after an elided particle ("Ivoire" of
	// "Côte d'Ivoire", "Arc" of "Jeanne d'Arc") is a word of the page,
	// as the claim reader takes it (source: elided).
	Elision = "elision"
)
