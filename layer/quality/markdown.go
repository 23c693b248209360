package quality

import (
	"regexp"
	"strings"
)

// markdown follows, line by line, the Markdown blocks that decide by
// CommonMark's rules whether an indented line starts a code block: an
// indented line continues a paragraph and never interrupts one, and
// inside a list item code is indented four columns past the item's
// content, so that text indented under an item is the item's text.
type markdown struct {
	// para is set after a line of a paragraph (a list item's first line
	// included): an indented line after it continues it.
	para bool
	// items are the content columns of the list items open, innermost
	// last.
	items []int
}

// codeIndent is the indentation, in columns past the content of the
// block that holds it, of an indented code block.
const codeIndent = 4

var (
	// listMarker matches the start of a list item, after its indentation:
	// the marker and the spaces after it.
	listMarker = regexp.MustCompile(`^([-*+]|\d{1,9}[.)])([ \t]+|$)`)
	// atxHeading and thematicBreak match lines that end a paragraph.
	atxHeading    = regexp.MustCompile(`^#{1,6}([ \t]|$)`)
	thematicBreak = regexp.MustCompile(`^(-[ \t]*){3,}$|^(\*[ \t]*){3,}$|^(_[ \t]*){3,}$`)
)

// indentation returns the columns of a line's leading spaces and tabs (a
// tab advances to the next multiple of 4).
func indentation(line string) int {
	cols := 0
	for _, c := range line {
		switch c {
		case ' ':
			cols++
		case '\t':
			cols += 4 - cols%4
		default:
			return cols
		}
	}
	return cols
}

// dedent removes n columns of indentation from line, and returns the rest
// and how many characters a position in the rest moves right in line: the
// bytes removed, less the spaces a tab that reaches past column n leaves
// for the columns past n.
func dedent(line string, n int) (string, int) {
	cols := 0
	for i, c := range line {
		if cols >= n {
			return line[i:], i
		}
		switch c {
		case ' ':
			cols++
		case '\t':
			cols += 4 - cols%4
		default:
			return line[i:], i
		}
		if cols > n {
			return strings.Repeat(" ", cols-n) + line[i+1:], i + 1 - (cols - n)
		}
	}
	return strings.TrimLeft(line, " \t"), len(line) - len(strings.TrimLeft(line, " \t"))
}

func blank(line string) bool { return strings.TrimSpace(line) == "" }

// indentedCode reads lines[i], a line outside fenced blocks. When it starts
// an indented code block, indentedCode returns the index of the line after
// the block's last line (blank lines after it are not part of it) and the
// block as a piece of code, its indentation removed, its language not yet
// known.
func (md *markdown) indentedCode(lines []string, i int) (int, piece, bool) {
	line := lines[i]
	if blank(line) {
		md.para = false
		return 0, piece{}, false
	}
	cols := indentation(line)
	if !md.para {
		// Past a blank line, a line indented less than an item's content
		// is outside that item.
		for len(md.items) > 0 && cols < md.items[len(md.items)-1] {
			md.items = md.items[:len(md.items)-1]
		}
	}
	codeCol := codeIndent
	if len(md.items) > 0 {
		codeCol += md.items[len(md.items)-1]
	}
	if !md.para && cols >= codeCol {
		return md.codeBlock(lines, i, codeCol)
	}
	rest := strings.TrimRight(strings.TrimLeft(line, " \t"), "\r\n")
	switch m := listMarker.FindStringSubmatch(rest); {
	case m != nil && !thematicBreak.MatchString(rest):
		for len(md.items) > 0 && md.items[len(md.items)-1] > cols {
			md.items = md.items[:len(md.items)-1]
		}
		// The item's content starts past the marker and the spaces after
		// it, or one column past the marker when the item starts empty
		// or with indented code.
		content := cols + len(m[1]) + 1
		if spaces := indentation(m[2]); !blank(rest[len(m[0]):]) && spaces <= codeIndent {
			content = cols + len(m[1]) + max(spaces, 1)
		}
		md.items = append(md.items, content)
		md.para = !blank(rest[len(m[0]):])
	case atxHeading.MatchString(rest), thematicBreak.MatchString(rest):
		md.para = false
	default:
		md.para = true
	}
	return 0, piece{}, false
}

// codeBlock reads the indented code block that starts at lines[i], each of
// its lines indented codeCol columns or more.
func (md *markdown) codeBlock(lines []string, i, codeCol int) (int, piece, bool) {
	end := i
	for j := i; j < len(lines); j++ {
		if blank(lines[j]) {
			continue
		}
		if indentation(lines[j]) < codeCol {
			break
		}
		end = j + 1
	}
	pc := piece{lineOffset: i, indent: make([]int, 0, end-i)}
	var b strings.Builder
	for _, l := range lines[i:end] {
		if blank(l) {
			b.WriteString(strings.TrimLeft(l, " \t"))
			pc.indent = append(pc.indent, 0)
			continue
		}
		rest, n := dedent(l, codeCol)
		b.WriteString(rest)
		pc.indent = append(pc.indent, n)
	}
	pc.text = b.String()
	md.para = false
	return end, pc, true
}

// container returns line without the indentation of the innermost list
// item that holds it, where a fence would be read, and that item's content
// column (0 outside lists).
func (md *markdown) container(line string) (string, int) {
	cols := indentation(line)
	for k := len(md.items) - 1; k >= 0; k-- {
		if md.items[k] <= cols {
			rest, _ := dedent(line, md.items[k])
			return rest, md.items[k]
		}
	}
	return line, 0
}

// fence records a fenced block opened at column cols: it leaves the list
// items indented further, and no paragraph continues past it.
func (md *markdown) fence(cols int) {
	for len(md.items) > 0 && md.items[len(md.items)-1] > cols {
		md.items = md.items[:len(md.items)-1]
	}
	md.para = false
}
