// judge console: where an issue's location is in the output a person
// typed (docs/locations.md), for the playground's marks. No DOM: it runs
// in the page and, for the tests, in Node.
//
// One global, judgeLocate, with:
//   jsonSpans(text, isJSON) -> the spans of the JSON judge reads in the
//     output text (the whole text, or the first ```json fence of a text):
//     {path JSON: {start, end, keyStart, keyEnd, container}}, or null.
//   locate(location, text, spans) -> {start, end} to mark in text, or
//     {why} saying why it cannot be marked (with criterion: i when it is
//     the request's acceptance_criteria[i]).
//   valueAt(text, location) -> the index in the JSON text where the value
//     the location names starts, or -1 (the tests compare it with judge's
//     own locator, internal/jsonpos).
// Offsets are indices into the JavaScript string (UTF-16 code units).
(function (root) {
  'use strict';
  var REQUEST_FIELDS = {acceptance_criteria: 'criterion', expected_schema: 'schema', sources: 'source', trusted_sources: 'trusted source', context: 'context', schemas: 'schemas'};

  // scanJSON returns the span of every value of the JSON text (offsets in
  // text plus base), by its path (the JSON of its keys and indices):
  // {start, end, keyStart, keyEnd, container}. null when text is not JSON.
  function scanJSON(text, base) {
    var spans = {};
    var i = 0;
    var depth = 0;
    function ws() {
      while (i < text.length && ' \t\r\n'.indexOf(text.charAt(i)) >= 0) {
        i++;
      }
    }
    function str() {
      var s = i;
      i++;
      while (i < text.length && text.charAt(i) !== '"') {
        i += text.charAt(i) === '\\' ? 2 : 1;
      }
      if (i >= text.length) {
        throw new Error('unterminated string');
      }
      i++;
      return JSON.parse(text.slice(s, i));
    }
    function value(path, keyStart, keyEnd) {
      ws();
      var start = i;
      var c = text.charAt(i);
      var container = c === '{' || c === '[';
      if (++depth > 512) {
        throw new Error('too deep');
      }
      if (c === '{') {
        i++;
        ws();
        if (text.charAt(i) === '}') {
          i++;
        } else {
          for (;;) {
            ws();
            var ks = i;
            var key = str();
            var ke = i;
            ws();
            if (text.charAt(i) !== ':') {
              throw new Error('want :');
            }
            i++;
            value(path.concat([key]), ks, ke);
            ws();
            if (text.charAt(i) === ',') {
              i++;
              continue;
            }
            if (text.charAt(i) !== '}') {
              throw new Error('want }');
            }
            i++;
            break;
          }
        }
      } else if (c === '[') {
        i++;
        ws();
        if (text.charAt(i) === ']') {
          i++;
        } else {
          for (var n = 0; ; n++) {
            value(path.concat([n]), -1, -1);
            ws();
            if (text.charAt(i) === ',') {
              i++;
              continue;
            }
            if (text.charAt(i) !== ']') {
              throw new Error('want ]');
            }
            i++;
            break;
          }
        }
      } else if (c === '"') {
        str();
      } else {
        var m = /^(-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 400));
        if (!m) {
          throw new Error('bad value');
        }
        i += m[0].length;
      }
      depth--;
      // A field given twice keeps its last value, as judge reads it.
      spans[JSON.stringify(path)] = {start: base + start, end: base + i, keyStart: keyStart < 0 ? -1 : base + keyStart,
        keyEnd: base + keyEnd, container: container};
    }
    try {
      value([], -1, -1);
      return spans;
    } catch (e) {
      return null;
    }
  }

  // parseLocation reads a location of docs/locations.md: root, a field
  // path (with what follows it), or a code location.
  function parseLocation(loc) {
    if (!loc || loc === 'N/A') {
      return {kind: 'none'};
    }
    if (loc === 'root') {
      return {kind: 'path', tokens: []};
    }
    var code = /^(?:function:([^:\s]+)(?::line:(\d+))?|line:(\d+)(?::column:\d+)?|file:.+?:line:(\d+))/.exec(loc);
    if (code) {
      if (code[3]) {
        return {kind: 'line', line: Number(code[3])};
      }
      if (code[2]) {
        return {kind: 'line', line: Number(code[2])};
      }
      if (code[1]) {
        return {kind: 'function', name: code[1]};
      }
      return {kind: 'none'};
    }
    var tokens = [];
    var i = 0;
    var name = /^[\p{L}_][\p{L}\p{N}_]*/u;
    while (i < loc.length) {
      var c = loc.charAt(i);
      var m;
      if (c === '[' && loc.charAt(i + 1) === '"') {
        var j = i + 2;
        while (j < loc.length && loc.charAt(j) !== '"') {
          j += loc.charAt(j) === '\\' ? 2 : 1;
        }
        try {
          tokens.push(JSON.parse(loc.slice(i + 1, j + 1)));
        } catch (e) {
          return {kind: 'none'};
        }
        if (loc.charAt(j + 1) !== ']') {
          return {kind: 'none'};
        }
        i = j + 2;
      } else if (c === '[' && (m = /^\[(\d+)\]/.exec(loc.slice(i)))) {
        tokens.push(Number(m[1]));
        i += m[0].length;
      } else if ((c === '.' && tokens.length) || (i === 0 && c !== ':')) {
        m = name.exec(loc.slice(c === '.' ? i + 1 : i));
        if (!m) {
          return {kind: 'none'};
        }
        tokens.push(m[0]);
        i += m[0].length + (c === '.' ? 1 : 0);
      } else {
        break; // ":key" or ":line:N" inside the field: the field is marked
      }
    }
    return {kind: 'path', tokens: tokens};
  }

  // lineSpan is the span of line n (1-based) of text, without its newline.
  function lineSpan(text, n) {
    var start = 0;
    for (var k = 1; k < n; k++) {
      start = text.indexOf('\n', start);
      if (start < 0) {
        return null;
      }
      start++;
    }
    var end = text.indexOf('\n', start);
    end = end < 0 ? text.length : end;
    return end > start ? {start: start, end: end} : null;
  }

  // jsonSpans finds the JSON judge read in the output text: the whole
  // text, or in auto mode the first ```json fence of a text.
  function jsonSpans(text, isJSON) {
    if (isJSON) {
      return scanJSON(text, 0);
    }
    var m = /```json[^\n]*\n([\s\S]*?)```/.exec(text);
    if (!m) {
      return null;
    }
    return scanJSON(m[1], m.index + m[0].indexOf('\n') + 1);
  }

  // locate returns where issue's location is in the output text, as
  // {start, end}, or {why} saying why it is not marked.
  function locate(loc, text, spans) {
    var p = parseLocation(loc);
    if (p.kind === 'line') {
      return lineSpan(text, p.line) || {why: 'the output has no line ' + p.line};
    }
    if (p.kind === 'function') {
      var re = new RegExp('^[ \\t]*(?:async\\s+)?(?:def|function|func|fn|sub)\\s+' + p.name.replace(/[^\w$]/g, '\\$&') + '\\b', 'm');
      var fm = re.exec(text);
      if (!fm) {
        return {why: 'no definition of ' + p.name + ' found in the output'};
      }
      return lineSpan(text, text.slice(0, fm.index).split('\n').length);
    }
    if (p.kind !== 'path') {
      return {why: 'nowhere in particular'};
    }
    var s = spans && spans[JSON.stringify(p.tokens)];
    if (!s) {
      var what = p.tokens.length && typeof p.tokens[0] === 'string' ? REQUEST_FIELDS[p.tokens[0]] : '';
      if (what) {
        var n = typeof p.tokens[1] === 'number' ? ' ' + (p.tokens[1] + 1) : '';
        return {why: 'in the request (' + what + n + '), not in the output', criterion: p.tokens[0] === 'acceptance_criteria' && p.tokens.length === 2 ? p.tokens[1] : -1};
      }
      return {why: spans ? 'the output has no such field' : 'the output is not JSON'};
    }
    if (!s.container) {
      return {start: s.start, end: s.end};
    }
    if (s.keyStart >= 0) {
      return {start: s.keyStart, end: s.keyEnd};
    }
    return {start: s.start, end: s.start + 1};
  }

  var scanned = {text: null, spans: null};
  function valueAt(text, loc) {
    var p = parseLocation(loc);
    if (scanned.text !== text) {
      scanned = {text: text, spans: scanJSON(text, 0)};
    }
    var spans = scanned.spans;
    var s = p.kind === 'path' && spans && spans[JSON.stringify(p.tokens)];
    return s ? s.start : -1;
  }

  root.judgeLocate = Object.freeze({jsonSpans: jsonSpans, locate: locate, valueAt: valueAt});
}(typeof window !== 'undefined' ? window : globalThis));
