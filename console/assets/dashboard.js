// judge console: the dashboard. Fetches its panels (rendered by the
// server from its history) with the API key through judgeAPI, and again
// every data-every seconds unless paused; says when it last did in a
// polite live region. Folded tables stay open across refreshes.
(function () {
  'use strict';
  var panels = document.getElementById('panels');
  var status = document.getElementById('dash-updated');
  var pause = document.getElementById('dash-pause');
  var problem = document.getElementById('dash-error');
  var every = Math.max(2, parseInt(status.getAttribute('data-every'), 10) || 10) * 1000;
  var timer = null;
  var inFlight = false;

  function refresh() {
    if (inFlight) {
      return;
    }
    inFlight = true;
    panels.setAttribute('aria-busy', 'true');
    window.judgeAPI.fetch('/dashboard/panels', {method: 'GET', headers: {'Accept': 'text/html'}}).then(function (resp) {
      return resp.text().then(function (text) {
        if (!resp.ok) {
          throw new Error('the server answered ' + resp.status + (resp.status === 401 ? ': an API key is needed' : ''));
        }
        var doc = new DOMParser().parseFromString(text, 'text/html');
        var open = {};
        panels.querySelectorAll('details[open][id]').forEach(function (d) { open[d.id] = true; });
        panels.replaceChildren.apply(panels, Array.prototype.slice.call(doc.body.childNodes));
        panels.querySelectorAll('details[id]').forEach(function (d) {
          if (open[d.id]) {
            d.open = true;
          }
        });
        var shown = panels.querySelector('.panels');
        problem.hidden = true;
        status.textContent = 'Last updated ' + (shown ? shown.getAttribute('data-updated') : '') + ' UTC' +
          (timer === null ? ', updates paused' : ', updated every ' + every / 1000 + ' s');
      });
    }).catch(function (err) {
      problem.textContent = 'The dashboard could not be updated: ' + err.message;
      problem.hidden = false;
    }).then(function () {
      inFlight = false;
      panels.setAttribute('aria-busy', 'false');
    });
  }

  function start() {
    timer = window.setInterval(refresh, every);
  }

  pause.addEventListener('click', function () {
    var paused = pause.getAttribute('aria-pressed') === 'true';
    if (paused) {
      pause.setAttribute('aria-pressed', 'false');
      start();
      refresh();
    } else {
      pause.setAttribute('aria-pressed', 'true');
      window.clearInterval(timer);
      timer = null;
      status.textContent = status.textContent.replace(/, updated every .*$/, '') + ', updates paused';
    }
  });
  start();
  refresh();
}());
