"use strict";
// Filters for the history matrices: a name filter (substring, case-insensitive) and a
// "changed only" switch that hides rows whose cells all say present/absent. Counts follow.
(function () {
  var text = document.getElementById("name-filter");
  var changed = document.getElementById("changed-only");
  var rows = Array.prototype.slice.call(document.querySelectorAll(".matrix tr[data-name]"));

  function apply() {
    var needle = text.value.trim().toLowerCase();
    var shown = {};
    rows.forEach(function (tr) {
      var ok = (needle === "" || tr.getAttribute("data-name").toLowerCase().indexOf(needle) >= 0) &&
        (!changed.checked || tr.getAttribute("data-changed") === "1");
      tr.hidden = !ok;
      var grid = tr.closest("section").id;
      shown[grid] = (shown[grid] || 0) + (ok ? 1 : 0);
    });
    document.querySelectorAll("[data-shown-for]").forEach(function (el) {
      el.textContent = String(shown[el.getAttribute("data-shown-for")] || 0);
    });
  }

  text.addEventListener("input", apply);
  changed.addEventListener("change", apply);
  apply();
})();
