// Filter the types of a reference page (or the index's rows) by name, case-insensitively.
// The page's only script; the Content-Security-Policy admits nothing else.
(function () {
  "use strict";
  var input = document.getElementById("filter");
  var shown = document.getElementById("shown");
  if (!input) { return; }
  function items() {
    var rows = document.querySelectorAll("tr.type-row");
    if (rows.length) { return Array.prototype.slice.call(rows); }
    return Array.prototype.slice.call(document.querySelectorAll("div.type"));
  }
  function nameOf(el) {
    if (el.dataset && el.dataset.name) { return el.dataset.name; }
    var h = el.querySelector("h3");
    return h ? h.textContent : "";
  }
  function apply() {
    var q = input.value.trim().toLowerCase();
    var list = items();
    var n = 0;
    list.forEach(function (el) {
      var hit = !q || nameOf(el).toLowerCase().indexOf(q) !== -1;
      el.hidden = !hit;
      if (hit) { n += 1; }
    });
    document.querySelectorAll("section.ref-section").forEach(function (sec) {
      sec.hidden = !!q && !sec.querySelector("div.type:not([hidden])");
    });
    shown.textContent = n + " of " + list.length + " types";
  }
  input.addEventListener("input", apply);
  var m = /[#&]filter=([^&]*)/.exec(location.hash);
  if (m) { input.value = decodeURIComponent(m[1]); }
  apply();
})();
