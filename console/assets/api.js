// judge console: API calls, shared by every console page.
//
// One global, judgeAPI, with:
//   judgeAPI.fetch(path, init) -> Promise<Response>
//     window.fetch for a path of this server (it must start with "/"; no
//     other origin is ever asked). When this tab holds an API key it is
//     sent as "Authorization: Bearer <key>". On a 401 answer the person is
//     asked for the key once (the #judge-key dialog of the shell); the key
//     is kept in this tab's sessionStorage and the request is sent again.
//     A key the server refuses is forgotten and asked for again; Cancel
//     gives the 401 answer back. No cookie is ever set or sent
//     (credentials: "omit").
//   judgeAPI.postJSON(path, text) -> Promise<{status, ok, body, text}>
//     POSTs text (a JSON document) as application/json; body is the
//     parsed answer (null when it is not JSON), text the answer as sent.
//   judgeAPI.getJSON(path) -> the same for a GET.
//   judgeAPI.forgetKey() removes the key from this tab.
(function () {
  'use strict';
  var KEY = 'judge.apiKey';
  var asking = null;

  function stored() {
    try {
      return window.sessionStorage.getItem(KEY) || '';
    } catch (e) {
      return '';
    }
  }

  function keep(key) {
    try {
      window.sessionStorage.setItem(KEY, key);
    } catch (e) { /* storage refused: the key lives until the page closes */ }
  }

  function forgetKey() {
    try {
      window.sessionStorage.removeItem(KEY);
    } catch (e) { /* nothing kept */ }
  }

  // ask shows the key dialog and resolves with the key typed, or '' when
  // the person cancels. Calls made meanwhile share the one dialog.
  function ask(refused) {
    if (asking) {
      return asking;
    }
    var dlg = document.getElementById('judge-key');
    if (!dlg || typeof dlg.showModal !== 'function') {
      return Promise.resolve('');
    }
    var form = document.getElementById('judge-key-form');
    var input = document.getElementById('judge-key-input');
    var err = document.getElementById('judge-key-err');
    var cancel = document.getElementById('judge-key-cancel');
    var back = document.activeElement;
    asking = new Promise(function (resolve) {
      function done(key) {
        form.removeEventListener('submit', onSubmit);
        cancel.removeEventListener('click', onCancel);
        dlg.removeEventListener('cancel', onCancel);
        dlg.close();
        input.value = '';
        asking = null;
        if (back && typeof back.focus === 'function') {
          back.focus();
        }
        resolve(key);
      }
      function onSubmit(e) {
        e.preventDefault();
        var key = input.value.trim();
        if (key) {
          done(key);
        }
      }
      function onCancel(e) {
        e.preventDefault();
        done('');
      }
      form.addEventListener('submit', onSubmit);
      cancel.addEventListener('click', onCancel);
      dlg.addEventListener('cancel', onCancel);
      err.textContent = refused ? 'The server refused that key; give it again.' : '';
      dlg.showModal();
      input.focus();
    });
    return asking;
  }

  function send(path, init) {
    var opts = {};
    var k;
    for (k in init || {}) {
      opts[k] = init[k];
    }
    var headers = new Headers(opts.headers || {});
    var key = stored();
    if (key) {
      headers.set('Authorization', 'Bearer ' + key);
    }
    opts.headers = headers;
    opts.credentials = 'omit';
    opts.cache = 'no-store';
    opts.redirect = 'error';
    return window.fetch(path, opts).then(function (resp) {
      return {resp: resp, sentKey: key};
    });
  }

  function apiFetch(path, init) {
    if (typeof path !== 'string' || path.charAt(0) !== '/' || path.charAt(1) === '/') {
      return Promise.reject(new Error('judgeAPI: ' + path + ' is not a path of this server'));
    }
    function attempt() {
      return send(path, init).then(function (r) {
        if (r.resp.status !== 401) {
          return r.resp;
        }
        if (r.sentKey) {
          forgetKey();
        }
        return ask(Boolean(r.sentKey)).then(function (key) {
          if (!key) {
            return r.resp;
          }
          keep(key);
          return attempt();
        });
      });
    }
    return attempt();
  }

  function read(resp) {
    return resp.text().then(function (text) {
      var body = null;
      try {
        body = JSON.parse(text);
      } catch (e) { /* not JSON: body stays null */ }
      return {status: resp.status, ok: resp.ok, body: body, text: text};
    });
  }

  window.judgeAPI = Object.freeze({
    fetch: apiFetch,
    postJSON: function (path, text) {
      return apiFetch(path, {method: 'POST', headers: {'Content-Type': 'application/json'}, body: text}).then(read);
    },
    getJSON: function (path) {
      return apiFetch(path, {method: 'GET', headers: {'Accept': 'application/json'}}).then(read);
    },
    forgetKey: forgetKey
  });
}());
