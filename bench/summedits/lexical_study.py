#!/usr/bin/env python3
"""Lexical features on SummEdits: does any separate the two classes?

For each feature, prints the share of inconsistent and of consistent
summaries it fires on, and its balanced accuracy as the only rule. A feature that fires on both at the same rate
cannot raise balanced accuracy, however it is combined with others.

Reads WordNet 3.0 from Debian's wordnet-base (/usr/share/wordnet) and the
SummEdits files given; Python 3 standard library only. Takes about a
minute.

    python3 bench/summedits/lexical_study.py ../shared/testdata/summedits-dev/summedits_*.json
"""
import collections
import json
import re
import sys

WN = "/usr/share/wordnet/"
POS = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}

synsets = {}  # (pos, offset) -> (lemmas, pointers, lexfile)
senses = {}  # (pos, lemma) -> offsets, most frequent sense first
for pos, name in POS.items():
    with open(WN + "data." + name, encoding="latin-1") as f:
        for line in f:
            if line.startswith("  "):
                continue
            p = line.split(" | ")[0].split()
            n = int(p[3], 16)
            lemmas = [re.sub(r"\(.*\)$", "", p[4 + 2 * i].lower()) for i in range(n)]
            i = 4 + 2 * n
            ptrs = []
            for _ in range(int(p[i])):
                sym, off, ps = p[i + 1], p[i + 2], p[i + 3]
                ptrs.append((sym, "a" if ps == "s" else ps, off))
                i += 4
            synsets[("a" if p[2] == "s" else p[2], p[0])] = (lemmas, ptrs, int(p[1]))
    with open(WN + "index." + name, encoding="latin-1") as f:
        for line in f:
            if line.startswith("  "):
                continue
            p = line.split()
            senses[(pos, p[0])] = p[6 + int(p[3]):]

exceptions = {}
for pos in "nva":
    with open(WN + POS[pos] + ".exc") as f:
        for line in f:
            a = line.split()
            exceptions[(pos, a[0])] = a[1]
SUFFIXES = {
    "n": [("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"), ("ies", "y")],
    "v": [("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", "")],
    "a": [("er", ""), ("est", ""), ("er", "e"), ("est", "e")],
}


def morphy(w, pos):
    out = []
    if (pos, w) in exceptions:
        out.append(exceptions[(pos, w)])
    if (pos, w) in senses:
        out.append(w)
    for a, b in SUFFIXES[pos]:
        if w.endswith(a) and (pos, w[: len(w) - len(a)] + b) in senses:
            out.append(w[: len(w) - len(a)] + b)
    return out


def lemmas(w):
    s = {w}
    for pos in "nva":
        s.update(morphy(w, pos))
    return s


STOP = set("""a an the and or but if of in on at to for from by with about as into over after before under between
through during without within upon is are was were be been being has have had do does did will would shall should
can could may might must i me my we our you your he him his she her it its they them their this that these those there
here who whom whose which what when where why how not no nor so than too very just also only even still yet all any both
each few more most other some such own same one two three first new said says say""".split())


def tokens(t):
    return re.findall(r"[A-Za-z][A-Za-z'-]*", t)


def lemma_set(text):
    s = set()
    for w in tokens(text):
        w = w.lower().strip("'")
        for x in [w] + w.split("-"):
            s |= lemmas(x)
    return s


def walk(key, syms, depth):
    out, frontier = set(), [key]
    for _ in range(depth):
        frontier = [(ps, o) for k in frontier for sym, ps, o in synsets[k][1] if sym in syms]
        out.update(frontier)
    return out


HYPER, HYPO = ("@", "@i"), ("~", "~i")
DERIV = ("+", "\\", "=", "&", "^", "$", "<", "*", ">")


def related(w, level):
    """Lemmas WordNet relates to word w: 1 synonyms, 2 + hypernyms and
    hyponyms, 3 + derivations and similar-to."""
    r = set()
    for pos in "nva":
        for lem in morphy(w, pos):
            for off in senses.get((pos, lem), []):
                k = (pos, off)
                ks = {k}
                if level >= 2:
                    ks |= walk(k, HYPER, 1) | walk(k, HYPO, 1)
                if level >= 3:
                    ks |= {(ps, o) for sym, ps, o in synsets[k][1] if sym in DERIV}
                for kk in ks:
                    for l in synsets[kk][0]:
                        r.add(l)
                        r.update(l.split("_"))
    return r


def novel_words(doc, summ, level, nouns_only):
    """Words of the summary the document has in no form, nor (level > 0)
    any word WordNet relates to them."""
    ds = lemma_set(doc)
    out = []
    for w in tokens(summ):
        lw = w.lower().strip("'")
        if lw in STOP or len(lw) < 3 or w[0].isupper() or lemmas(lw) & ds:
            continue
        if nouns_only and not morphy(lw, "n"):
            continue
        if level and related(lw, level) & ds:
            continue
        out.append(lw)
    return out


CONCRETE = {5, 6, 8, 13, 15, 17, 20, 27}  # animal, artifact, body, food, location, object, plant, substance


def concrete_novel(doc, summ):
    for w in novel_words(doc, summ, 3, True):
        offs = senses.get(("n", morphy(w, "n")[0]), [])
        if offs and synsets[("n", offs[0])][2] in CONCRETE:
            return True
    return False


TOPS = set()
for l in ("entity", "physical_entity", "abstraction", "object", "whole", "artifact", "person", "organism", "causal_agent",
          "matter", "psychological_feature", "event", "act", "attribute", "group", "relation", "communication", "measure",
          "state", "thing", "instrumentality", "location", "cognition", "content", "activity", "social_group", "unit"):
    TOPS.update(senses.get(("n", l), [])[:1])


def sibling_swap(doc, summ, depth):
    """A novel summary noun that shares a hypernym (within depth) with a
    document noun the summary does not use: 'burger' where the document
    says 'pizza'."""
    ss = lemma_set(summ)
    ancestors = collections.defaultdict(set)
    for w in tokens(doc):
        lw = w.lower()
        if w[0].isupper() or lw in STOP:
            continue
        for l in morphy(lw, "n"):
            if l not in ss:
                for off in senses.get(("n", l), [])[:2]:
                    for a in walk(("n", off), HYPER, depth):
                        ancestors[a].add(l)
    for w in novel_words(doc, summ, 1, True):
        for l in morphy(w, "n"):
            for off in senses.get(("n", l), [])[:2]:
                if any(a in ancestors and a[1] not in TOPS for a in walk(("n", off), HYPER, depth)):
                    return True
    return False


antonyms = collections.defaultdict(set)
for (pos, off), (lem, ptrs, _) in synsets.items():
    for sym, ps, o in ptrs:
        if sym == "!":
            for a in lem:
                antonyms[a].update(synsets[(ps, o)][0])


def antonym_in_doc(doc, summ):
    """A summary word the document lacks whose WordNet antonym it has."""
    ds, ss = lemma_set(doc), lemma_set(summ)
    for w in tokens(summ):
        lw = w.lower()
        if lw in STOP or lemmas(lw) & ds:
            continue
        if any(a in ds and a not in ss for l in lemmas(lw) for a in antonyms[l]):
            return True
    return False


def sentences(t):
    return [s for s in re.split(r"(?<=[.!?])\s+|\n+", t) if s.strip()]


def content(text):
    return {l for w in tokens(text) if w.lower() not in STOP and len(w) > 2 for l in lemmas(w.lower())}


def misplaced_entity(doc, summ):
    """A capitalized word or number of the summary that the document has,
    but only in sentences sharing at most one other word with the
    summary's sentence, while another document sentence shares four."""
    dsents = sentences(doc)
    dcont = [content(s) for s in dsents]
    for s in sentences(summ):
        sc = content(s)
        if max((len(d & sc) for d in dcont), default=0) < 4:
            continue
        toks = re.findall(r"[A-Za-z][A-Za-z'.-]*|\d[\d,.]*", s)
        for i, t in enumerate(toks):
            e = t.rstrip(".'")
            if not e or not (e[0].isdigit() or (e[0].isupper() and i > 0 and e.lower() not in STOP)):
                continue
            idx = [k for k, d in enumerate(dsents) if re.search(r"(?<![A-Za-z0-9])" + re.escape(e) + r"(?![A-Za-z0-9])", d)]
            if idx and max(len((dcont[k] & sc) - content(e)) for k in idx) <= 1:
                return True
    return False


FEATURES = [
    ("a word the document has in no form", lambda d, s: bool(novel_words(d, s, 0, False))),
    ("  ... nouns only", lambda d, s: bool(novel_words(d, s, 0, True))),
    ("  ... nor any WordNet synonym", lambda d, s: bool(novel_words(d, s, 1, False))),
    ("  ... nor hypernym or hyponym", lambda d, s: bool(novel_words(d, s, 2, False))),
    ("  ... nor derivation or similar-to", lambda d, s: bool(novel_words(d, s, 3, False))),
    ("  ... two such words", lambda d, s: len(novel_words(d, s, 3, False)) >= 2),
    ("  ... a concrete noun (food, animal, artifact, ...)", concrete_novel),
    ("a noun that is a co-hyponym of a dropped document noun (depth 1)", lambda d, s: sibling_swap(d, s, 1)),
    ("  ... depth 2", lambda d, s: sibling_swap(d, s, 2)),
    ("a word whose WordNet antonym the document has instead", antonym_in_doc),
    ("a name or number the document has only elsewhere", misplaced_entity),
]


def main(files):
    rows = [r for f in files for r in json.load(open(f))]
    n = collections.Counter(r["label"] for r in rows)
    print(f"SummEdits, {len(rows)} summaries ({n[0]} inconsistent, {n[1]} consistent)\n")
    print("| fires when the summary has | on inconsistent | on consistent | balanced accuracy alone |")
    print("|---|---|---|---|")
    for name, f in FEATURES:
        hits = collections.Counter(r["label"] for r in rows if f(r["doc"], r["summary"]))
        inc, con = 100 * hits[0] / n[0], 100 * hits[1] / n[1]
        print(f"| {name} | {inc:.1f}% | {con:.1f}% | {(inc + 100 - con) / 2:.1f}% |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
