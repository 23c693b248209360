// judge console: the trace viewer. Sends the chosen (or dropped) files to
// POST /traces with the API key through judgeAPI and shows the report the
// server renders in a sandboxed frame (its scripts, the report's filters,
// run there without the page's origin); says what happened in a status
// line, and a problem (a file too large, a malformed file) in an alert.
(function () {
  'use strict';
  var form = document.getElementById('trace-form');
  var conv = document.getElementById('tr-conv');
  var status = document.getElementById('trace-status');
  var problem = document.getElementById('trace-error');
  var frame = document.getElementById('trace-report');
  var save = document.getElementById('trace-save');
  var saveLink = document.getElementById('trace-save-link');
  var max = parseInt(form.getAttribute('data-max'), 10) || 0;
  var url = null;

  function fail(msg) {
    problem.textContent = msg;
    problem.hidden = false;
    status.textContent = '';
  }

  form.addEventListener('dragover', function (e) {
    e.preventDefault();
    form.classList.add('over');
  });
  form.addEventListener('dragleave', function () {
    form.classList.remove('over');
  });
  form.addEventListener('drop', function (e) {
    e.preventDefault();
    form.classList.remove('over');
    if (e.dataTransfer && e.dataTransfer.files.length > 0) {
      conv.files = e.dataTransfer.files;
      status.textContent = 'Conversations: ' + conv.files[0].name + '. Press Check.';
    }
  });

  form.addEventListener('submit', function (e) {
    e.preventDefault();
    problem.hidden = true;
    var data = new FormData(form);
    var size = 0;
    data.forEach(function (v) {
      size += v && v.size ? v.size : 0;
    });
    if (max > 0 && size > max) {
      fail('The files are larger than the limit of ' + form.getAttribute('data-limit') + ' (' + max + ' bytes): check a smaller file, or run judge trace --html on it.');
      return;
    }
    status.textContent = 'Checking ' + (conv.files[0] ? conv.files[0].name : '') + '…';
    var started = Date.now();
    window.judgeAPI.fetch('/traces', {method: 'POST', body: data}).then(function (resp) {
      return resp.text().then(function (text) {
        if (!resp.ok) {
          fail('The files could not be checked (' + resp.status + '): ' + text);
          return;
        }
        var n = resp.headers.get('X-Judge-Conversations') || '?';
        var took = ((Date.now() - started) / 1000).toFixed(1);
        frame.onload = function () {
          status.textContent = 'Checked ' + n + ' conversations in ' + took + ' s; the report is below.';
        };
        frame.srcdoc = text;
        frame.hidden = false;
        if (url) {
          URL.revokeObjectURL(url);
        }
        url = URL.createObjectURL(new Blob([text], {type: 'text/html'}));
        saveLink.href = url;
        save.hidden = false;
      });
    }).catch(function (err) {
      fail('The files could not be sent: ' + err.message);
    });
  });
}());
