// judge report: the conversation filters. Everything is in the page; this
// script only hides the conversations that do not match and says how
// many are shown.
(function () {
  'use strict';
  var form = document.getElementById('filters');
  if (!form) {
    return;
  }
  var flagged = document.getElementById('f-flagged');
  var rule = document.getElementById('f-rule');
  var tool = document.getElementById('f-tool');
  var shown = document.getElementById('shown');
  var convs = Array.prototype.slice.call(document.querySelectorAll('article.conv'));
  function has(list, name) {
    return (list || '').split('\n').indexOf(name) >= 0;
  }
  function apply() {
    var n = 0;
    convs.forEach(function (c) {
      var ok = (!flagged.checked || c.getAttribute('data-flagged') === '1') &&
        (!rule.value || has(c.getAttribute('data-rules'), rule.value)) &&
        (!tool.value || has(c.getAttribute('data-tools'), tool.value));
      c.hidden = !ok;
      if (ok) {
        n++;
      }
    });
    shown.textContent = 'Showing ' + n + ' of ' + convs.length + ' conversations';
  }
  form.addEventListener('change', apply);
  form.addEventListener('submit', function (e) {
    e.preventDefault();
    apply();
  });
  apply();
}());
