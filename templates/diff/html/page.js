"use strict";
// Filters for the diff page: levels (checkboxes), method (select), subject (text). A finding is
// shown when it passes all three. `#method=NAME` / `#type=NAME` in the address preselect one.
(function () {
  var boxes = Array.prototype.slice.call(document.querySelectorAll("input[name=level]"));
  var method = document.getElementById("method-filter");
  var subject = document.getElementById("subject-filter");
  var shown = document.getElementById("shown-count");
  var echoes = document.getElementById("echo-filter");  // absent when the report marks none
  var findings = Array.prototype.slice.call(document.querySelectorAll(".finding"));
  var roots = {};
  findings.forEach(function (el) { roots[el.getAttribute("data-root")] = true; });

  function matchesSubject(el, text) {
    if (!text) return true;
    if (roots[text]) return el.getAttribute("data-root") === text;
    return el.getAttribute("data-subject").toLowerCase().indexOf(text.toLowerCase()) >= 0;
  }

  function apply() {
    var levels = {};
    boxes.forEach(function (b) { if (b.checked) levels[b.value] = true; });
    var m = method.value, text = subject.value.trim(), n = 0;
    findings.forEach(function (el) {
      var methods = JSON.parse(el.getAttribute("data-methods"));
      var ok = levels[el.getAttribute("data-level")] === true &&
        (m === "" || methods.indexOf(m) >= 0) && matchesSubject(el, text) &&
        (echoes === null || echoes.checked || el.getAttribute("data-echo") !== "1");
      el.hidden = !ok;
      if (ok) n += 1;
    });
    document.querySelectorAll(".group").forEach(function (g) {
      g.hidden = g.querySelector(".finding:not([hidden])") === null;
    });
    shown.textContent = String(n);
  }

  function reset() {
    boxes.forEach(function (b) { b.checked = true; });
    if (echoes !== null) echoes.checked = true;
    method.value = ""; subject.value = "";
  }

  // `#<finding id>` (a summary link): open that finding, and show it whatever the filters say.
  function reveal(id) {
    var el = document.getElementById(id);
    if (el === null || !el.classList.contains("finding")) return;
    if (el.hidden) { reset(); apply(); }
    for (var p = el; p !== null; p = p.parentElement) {
      if (p.tagName === "DETAILS") p.open = true;
    }
    el.scrollIntoView();
  }

  function fromHash() {
    var hash = window.location.hash.slice(1);
    var eq = hash.indexOf("=");
    if (eq < 0) { reveal(decodeURIComponent(hash)); return; }
    var key = hash.slice(0, eq), value = decodeURIComponent(hash.slice(eq + 1));
    if (key === "method") {
      var known = Array.prototype.some.call(method.options, function (o) { return o.value === value; });
      method.value = known ? value : "";
    } else if (key === "type") {
      subject.value = value;
    }
  }

  boxes.forEach(function (b) { b.addEventListener("change", apply); });
  method.addEventListener("change", apply);
  subject.addEventListener("input", apply);
  document.querySelectorAll("button[data-method]").forEach(function (b) {
    b.addEventListener("click", function () {
      method.value = b.getAttribute("data-method");
      apply();
      document.getElementById("details").scrollIntoView();
    });
  });
  if (echoes !== null) echoes.addEventListener("change", apply);
  document.getElementById("reset-filters").addEventListener("click", function () {
    reset(); apply();
  });
  window.addEventListener("hashchange", function () { fromHash(); apply(); });
  apply();
  fromHash();
  apply();
})();
