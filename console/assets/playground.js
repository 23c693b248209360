// judge console: the playground. It builds a POST /validate body from the
// form, sends it through judgeAPI (api.js) and shows the ValidationResult:
// the verdict and scores, the issues by severity, the criteria, the
// output with each issue's location marked (the mark and the issue link
// to each other; locate.js finds where) and the raw JSON. Every text that comes from the output
// or the result is inserted as text (textContent), never as markup.
(function () {
  'use strict';
  var form = document.getElementById('play');
  if (!form) {
    return;
  }
  var $ = function (id) { return document.getElementById(id); };
  var out = $('result');
  var busy = $('busy');
  var maxBody = Number(form.getAttribute('data-max-body')) || 0;
  var SEVERITIES = [['error', 'Errors', '✗'], ['warning', 'Warnings', '⚠'], ['info', 'Info', 'ℹ']];
  var last = null; // the last request sent: {body, fields}
  var L = window.judgeLocate;

  // el makes an element with a class and, when text is given, its text.
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) {
      e.className = cls;
    }
    if (text !== undefined && text !== null) {
      e.textContent = String(text);
    }
    return e;
  }

  function add(parent) {
    for (var i = 1; i < arguments.length; i++) {
      var c = arguments[i];
      parent.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    }
    return parent;
  }

  // ---- the request -------------------------------------------------

  function parseJSON(text) {
    try {
      return {ok: true, value: JSON.parse(text)};
    } catch (e) {
      return {ok: false, error: e.message};
    }
  }

  // fields reads the form: the request's parts and the body's JSON text.
  // Output and schema JSON are sent as typed (their numbers, their key
  // order); a text output is sent as a JSON string.
  function fields() {
    var f = {output: $('f-output').value, schema: $('f-schema').value.trim(), criteria: $('f-criteria').value.trim(),
      sources: $('f-sources').value.trim(), types: []};
    Array.prototype.forEach.call(form.querySelectorAll('input[name=types]:checked'), function (c) { f.types.push(c.value); });
    if (f.output.trim() === '') {
      return {error: 'Output is empty: give the output to validate.', field: 'f-output'};
    }
    var parts = [];
    var po = parseJSON(f.output);
    f.outputIsJSON = po.ok;
    f.outputValue = po.ok ? po.value : f.output;
    parts.push('"output": ' + (po.ok ? f.output.trim() : JSON.stringify(f.output)));
    if (f.types.length) {
      parts.push('"validation_types": ' + JSON.stringify(f.types));
    }
    if (f.schema) {
      var ps = parseJSON(f.schema);
      if (!ps.ok) {
        return {error: 'Schema is not valid JSON: ' + ps.error, field: 'f-schema'};
      }
      parts.push('"expected_schema": ' + f.schema);
    }
    f.criteriaList = [];
    if (f.criteria) {
      if (f.criteria.charAt(0) === '[') {
        var pc = parseJSON(f.criteria);
        if (!pc.ok || !Array.isArray(pc.value)) {
          return {error: 'Criteria start with "[" but are not a JSON array: ' + (pc.error || 'not an array'), field: 'f-criteria'};
        }
        f.criteriaList = pc.value;
      } else {
        f.criteriaList = f.criteria.split('\n').map(function (s) { return s.trim(); }).filter(Boolean);
      }
      parts.push('"acceptance_criteria": ' + JSON.stringify(f.criteriaList));
    }
    f.sourceList = [];
    if (f.sources) {
      var pd = f.sources.charAt(0) === '[' ? parseJSON(f.sources) : {ok: false};
      if (pd.ok && Array.isArray(pd.value)) {
        f.sourceList = pd.value.map(function (s) { return typeof s === 'string' ? {content: s} : s; });
      } else if (f.sources.charAt(0) === '[') {
        return {error: 'Sources start with "[" but are not a JSON array: ' + (pd.error || 'not an array'), field: 'f-sources'};
      } else {
        f.sourceList = [{content: $('f-sources').value}];
      }
      parts.push('"sources": ' + JSON.stringify(f.sourceList));
    }
    f.body = '{' + parts.join(', ') + '}';
    return f;
  }

  function utf8Length(s) {
    return new Blob([s]).size;
  }

  // markLink is the link from a mark to issue n.
  function markLink(n) {
    var a = el('a', 'mark-link', String(n));
    a.id = 'mark-' + n;
    a.href = '#issue-' + n;
    a.setAttribute('aria-label', 'Issue ' + n);
    return a;
  }

  // markedOutput renders text with the spans of issues marked, each mark
  // followed by a link to each of its issues.
  function markedOutput(text, located) {
    var ranges = located.filter(function (l) { return l.span.end !== undefined; })
      .map(function (l) { return {start: l.span.start, end: l.span.end, issues: [l.n]}; })
      .sort(function (a, b) { return a.start - b.start || b.end - a.end; });
    var merged = [];
    ranges.forEach(function (r) {
      var prev = merged[merged.length - 1];
      if (prev && r.start < prev.end) {
        prev.end = Math.max(prev.end, r.end);
        prev.issues = prev.issues.concat(r.issues);
      } else {
        merged.push(r);
      }
    });
    var pre = el('pre', 'marked');
    pre.id = 'marked-output';
    var at = 0;
    merged.forEach(function (r) {
      add(pre, text.slice(at, r.start));
      var mark = el('mark', 'hl', text.slice(r.start, r.end));
      add(pre, mark);
      r.issues.sort(function (a, b) { return a - b; }).forEach(function (n) { add(pre, markLink(n)); });
      at = r.end;
    });
    add(pre, text.slice(at));
    return pre;
  }

  // ---- the result --------------------------------------------------

  function num(x, digits) {
    return typeof x === 'number' ? x.toFixed(digits) : 'not given';
  }

  function renderResult(res, f) {
    var frag = document.createDocumentFragment();
    var valid = res.valid === true;
    var verdict = el('p', 'verdict ' + (valid ? 'good' : 'bad'), valid ? '✓ Valid' : '✗ Not valid');
    verdict.id = 'verdict';
    add(frag, verdict);
    var md = res.metadata || {};
    var dl = el('dl', 'scores');
    var rows = [['Confidence', num(res.confidence, 2) + (typeof res.confidence === 'number' ? ' (' + Math.round(res.confidence * 100) + '%)' : '')],
      ['Quality score', num(res.quality_score, 3)],
      ['Issues', (md.error_count || 0) + ' errors, ' + (md.warning_count || 0) + ' warnings, ' + (md.info_count || 0) + ' info'],
      ['Layers run', (md.validation_types_run || []).join(', ') || 'none'],
      ['Model', md.model || 'not given'],
      ['Checked in', typeof md.duration_ms === 'number' ? md.duration_ms.toFixed(1) + ' ms' : 'not given']];
    rows.forEach(function (r) { add(dl, el('dt', '', r[0]), el('dd', '', r[1])); });
    add(frag, dl);

    var text = f.output;
    var spans = L.jsonSpans(text, f.outputIsJSON);
    var issues = Array.isArray(res.issues) ? res.issues : [];
    var located = [];
    var ordered = [];
    SEVERITIES.forEach(function (s) {
      issues.forEach(function (is) {
        if (is && is.severity === s[0]) {
          ordered.push(is);
        }
      });
    });
    issues.forEach(function (is) {
      if (ordered.indexOf(is) < 0) {
        ordered.push(is);
      }
    });
    var passed = Array.isArray(res.passed_criteria) ? res.passed_criteria : [];
    var failed = Array.isArray(res.failed_criteria) ? res.failed_criteria : [];
    ordered.forEach(function (is, k) {
      var l = {n: k + 1, issue: is, span: is && is.location ? L.locate(String(is.location), text, spans) : {why: 'no location given'}};
      l.marked = l.span.end !== undefined;
      // A criterion of the request is marked where the result lists it.
      var c = l.span.criterion >= 0 ? f.criteriaList[l.span.criterion] : undefined;
      var name = typeof c === 'string' ? c : c && (c.description || c.id || c.rule);
      if (name && (failed.indexOf(name) >= 0 || passed.indexOf(name) >= 0)) {
        l.criterion = name;
        l.marked = true;
        l.where = failed.indexOf(name) >= 0 ? 'the failed criteria' : 'the passed criteria';
      } else if (l.marked) {
        l.where = 'the output';
      }
      located.push(l);
    });

    add(frag, el('h3', '', 'Issues (' + ordered.length + ')'));
    if (!ordered.length) {
      add(frag, el('p', 'note', 'No issues.'));
    }
    var groups = SEVERITIES.map(function (s) { return s[0]; });
    SEVERITIES.concat([['', 'Other', '•']]).forEach(function (s) {
      var mine = located.filter(function (l) {
        return s[0] ? l.issue.severity === s[0] : groups.indexOf(l.issue.severity) < 0;
      });
      if (!mine.length) {
        return;
      }
      var h = el('h4', '', s[1] + ' (' + mine.length + ')');
      h.id = 'sev-' + (s[0] || 'other');
      var ul = el('ul', 'findings');
      ul.setAttribute('aria-labelledby', h.id);
      mine.forEach(function (l) {
        var is = l.issue;
        var li = el('li', 'finding issue sev-' + (s[0] || 'other'));
        li.id = 'issue-' + l.n;
        li.tabIndex = -1;
        var head = el('p');
        add(head, el('span', 'issue-n', '#' + l.n), ' ', el('span', 'sev', s[2] + ' ' + (is.severity || 'unknown')), ' ', el('span', 'type', is.type || ''));
        if (is.rule) {
          add(head, ' ', el('code', 'rule', is.rule));
        }
        add(li, head, el('p', 'msg-text', is.message || ''));
        if (is.suggestion) {
          add(li, add(el('p', 'sugg'), el('span', 'kw', 'Suggestion:'), ' ' + is.suggestion));
        }
        if (is.location) {
          var lp = el('p', 'loc-line');
          add(lp, el('span', 'kw', 'Location: '));
          if (l.marked) {
            var a = el('a', 'loc-link', is.location);
            a.href = '#mark-' + l.n;
            a.setAttribute('aria-label', 'Location ' + is.location + ', marked in ' + l.where);
            add(lp, a, ' (marked in ' + l.where + ')');
          } else {
            add(lp, el('code', 'loc', is.location), ' (' + l.span.why + ')');
          }
          add(li, lp);
        }
        add(ul, li);
      });
      add(frag, h, ul);
    });

    add(frag, el('h3', '', 'Criteria'));
    if (!passed.length && !failed.length) {
      add(frag, el('p', 'note', 'No criteria were checked.'));
    }
    [['Passed', passed, '✓ ', 'crit-passed'], ['Failed', failed, '✗ ', 'crit-failed']].forEach(function (c) {
      if (!c[1].length) {
        return;
      }
      var h = el('h4', '', c[0] + ' (' + c[1].length + ')');
      h.id = c[3];
      var ul = el('ul', 'crit');
      ul.setAttribute('aria-labelledby', h.id);
      c[1].forEach(function (name) {
        var li = el('li', '', c[2]);
        var mine = located.filter(function (l) { return l.criterion === name; });
        if (!mine.length) {
          add(li, name);
        } else {
          add(li, el('mark', 'hl', name));
          mine.forEach(function (l) { add(li, markLink(l.n)); });
        }
        add(ul, li);
      });
      add(frag, h, ul);
    });

    add(frag, el('h3', '', 'Output, with the issues marked'));
    var nmarked = located.filter(function (l) { return l.span.end !== undefined; }).length;
    add(frag, el('p', 'hint', nmarked + ' of ' + ordered.length + ' issues marked in the output; each mark is followed by the number of its issue, a link to it.'));
    add(frag, markedOutput(text, located));

    var det = el('details');
    det.id = 'raw';
    add(det, el('summary', '', 'Raw JSON'), el('pre', 'raw', JSON.stringify(res, null, 2)));
    add(frag, det);
    return frag;
  }

  function renderProblem(r) {
    var div = el('div', 'problem');
    div.setAttribute('role', 'alert');
    var p = r.body || {};
    add(div, el('h3', '', 'The server did not validate the request (' + r.status + (p.title ? ': ' + p.title : '') + ')'));
    if (p.detail) {
      add(div, el('p', '', p.detail));
    } else if (!r.body) {
      add(div, el('pre', '', r.text.slice(0, 2000)));
    }
    if (Array.isArray(p.errors) && p.errors.length) {
      var ul = el('ul');
      p.errors.forEach(function (e) { add(ul, el('li', '', (e.field ? e.field + ': ' : '') + (e.message || ''))); });
      add(div, ul);
    }
    if (p.request_id) {
      add(div, el('p', 'note', 'Request id: ' + p.request_id));
    }
    return div;
  }

  function show(node) {
    out.replaceChildren(node);
    out.focus();
  }

  function say(msg, field) {
    var div = el('div', 'problem', msg);
    div.setAttribute('role', 'alert');
    show(div);
    if (field) {
      $(field).focus();
    }
  }

  form.addEventListener('submit', function (ev) {
    ev.preventDefault();
    var f = fields();
    if (f.error) {
      say(f.error, f.field);
      return;
    }
    if (maxBody && utf8Length(f.body) > maxBody) {
      say('The request is ' + utf8Length(f.body) + ' bytes, over the server\'s limit of ' + maxBody + ' bytes: it was not sent.');
      return;
    }
    last = f;
    var started = performance.now();
    var button = $('validate');
    button.disabled = true;
    busy.textContent = 'Validating…';
    out.setAttribute('aria-busy', 'true');
    window.judgeAPI.postJSON('/validate', f.body).then(function (r) {
      if (r.status === 200 && r.body && typeof r.body === 'object') {
        show(renderResult(r.body, f));
      } else {
        show(renderProblem(r));
      }
      $('copy').hidden = false;
      out.setAttribute('data-elapsed-ms', String(Math.round(performance.now() - started)));
      busy.textContent = r.status === 200 ? 'Done.' : 'Refused (' + r.status + ').';
    }, function (e) {
      say('The request failed: ' + e.message);
      busy.textContent = '';
    }).then(function () {
      button.disabled = false;
      out.removeAttribute('aria-busy');
    });
  });

  // Both links of a mark and its issue move the focus, so that the
  // keyboard continues from the place followed.
  document.addEventListener('click', function (ev) {
    var a = ev.target.closest && ev.target.closest('a.mark-link, a.loc-link');
    if (!a) {
      return;
    }
    var target = document.getElementById(a.getAttribute('href').slice(1));
    if (target) {
      ev.preventDefault();
      target.focus();
      target.scrollIntoView({block: 'center'});
      history.replaceState(null, '', a.getAttribute('href'));
    }
  });

  // ---- examples ------------------------------------------------------

  Array.prototype.forEach.call(document.querySelectorAll('button.example'), function (b) {
    b.addEventListener('click', function () {
      $('f-output').value = b.getAttribute('data-output');
      $('f-schema').value = b.getAttribute('data-schema');
      $('f-criteria').value = b.getAttribute('data-criteria');
      $('f-sources').value = b.getAttribute('data-sources');
      var types = (b.getAttribute('data-types') || '').split(',').filter(Boolean);
      Array.prototype.forEach.call(form.querySelectorAll('input[name=types]'), function (c) {
        c.checked = types.indexOf(c.value) >= 0;
      });
      busy.textContent = 'Loaded the example “' + b.textContent + '” (' + b.title + ').';
    });
  });

  // ---- the same request as a command -----------------------------------

  // sq quotes s for a POSIX shell.
  function sq(s) {
    return '\'' + String(s).replace(/'/g, '\'\\\'\'') + '\'';
  }

  function heredocTag(body) {
    var tag = 'JUDGE_REQUEST';
    var lines = body.split('\n');
    while (lines.indexOf(tag) >= 0) {
      tag += '_';
    }
    return tag;
  }

  function curlText(f) {
    var tag = heredocTag(f.body);
    return 'curl -sS -X POST ' + sq(location.origin + '/validate') + ' \\\n' +
      '  -H \'Content-Type: application/json\' \\\n' +
      '  -H "Authorization: Bearer $JUDGE_API_TOKEN" \\\n' +
      '  --data-binary @- <<\'' + tag + '\'\n' + f.body + '\n' + tag + '\n';
  }

  function fileName(s, k) {
    var name = String(s.id || s.title || '').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '');
    name = name || 'source-' + (k + 1);
    return /\.(txt|md|json)$/i.test(name) ? name : name + '.txt';
  }

  function judgeText(f) {
    var lines = ['dir=$(mktemp -d)'];
    var outFile = '"$dir/output.' + (f.outputIsJSON ? 'json' : 'txt') + '"';
    var args = ['judge validate ' + outFile];
    lines.push('printf \'%s\' ' + sq(f.output) + ' > ' + outFile);
    if (f.schema) {
      lines.push('printf \'%s\' ' + sq(f.schema) + ' > "$dir/schema.json"');
      args.push('--schema "$dir/schema.json"');
    }
    // Objects with a rule go to --rules; the others are plain language.
    var rules = f.criteriaList.filter(function (c) { return c && typeof c === 'object' && c.rule; });
    if (rules.length) {
      lines.push('printf \'%s\' ' + sq(JSON.stringify(rules, null, 2)) + ' > "$dir/rules.json"');
      args.push('--rules "$dir/rules.json"');
    }
    f.criteriaList.forEach(function (c) {
      var text = typeof c === 'string' ? c : c && typeof c === 'object' && !c.rule ? c.description || c.id : '';
      if (text) {
        args.push('--criteria ' + sq(text));
      }
    });
    if (f.sourceList.length) {
      lines.push('mkdir "$dir/sources"');
      f.sourceList.forEach(function (s, k) {
        var file = '"$dir/sources/' + fileName(s, k) + '"';
        lines.push('printf \'%s\' ' + sq(s.content || '') + ' > ' + file);
        args.push('--source ' + file);
      });
    }
    if (f.types.length) {
      args.push('--types ' + f.types.join(','));
    }
    args.push('--format json');
    return lines.join('\n') + '\n' + args.join(' \\\n  ') + '\n';
  }

  function copy(text) {
    var ta = $('copy-text');
    var status = $('copy-status');
    ta.value = text;
    var done = function () { status.textContent = 'Copied to the clipboard; the text is also below.'; };
    var failed = function () {
      ta.focus();
      ta.select();
      status.textContent = 'The clipboard is not available here: the text below is selected, copy it.';
    };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(done, failed);
    } else {
      failed();
    }
  }

  $('copy-curl').addEventListener('click', function () {
    if (last) {
      copy(curlText(last));
    }
  });
  $('copy-judge').addEventListener('click', function () {
    if (last) {
      copy(judgeText(last));
    }
  });
}());
