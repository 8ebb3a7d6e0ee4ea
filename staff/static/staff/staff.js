// The staff screens' small behaviours: the notice when the live parts can't reach
// the server, the running totals of a count, and one submit per money form.
(function () {
  "use strict";
  var offline = function (lost) {
    var notice = document.getElementById("offline");
    if (notice) { notice.hidden = !lost; }
  };
  document.addEventListener("htmx:sendError", function () { offline(true); });
  document.addEventListener("htmx:timeout", function () { offline(true); });
  document.addEventListener("htmx:responseError", function () { offline(true); });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful) { offline(false); }
  });
  window.addEventListener("offline", function () { offline(true); });

  var format = function (form, cents) {
    var currency = form.dataset.currency || "EUR";
    var lang = document.documentElement.lang || "en";
    var digits = (currency === "KRW" || currency === "JPY") ? 0 : 2;
    return new Intl.NumberFormat(lang, { style: "currency", currency: currency,
      minimumFractionDigits: digits }).format(cents / Math.pow(10, digits));
  };
  var totals = function (form) {
    var sums = { note: 0, chip: 0 };
    form.querySelectorAll("input.count").forEach(function (input) {
      var n = parseInt(input.value, 10);
      var line = form.querySelector('output[data-line="' + input.name + '"]');
      var cents = (n > 0 ? n : 0) * parseInt(input.dataset.cents, 10);
      sums[input.dataset.side] += cents;
      if (line) { line.textContent = n > 0 ? format(form, cents) : ""; }
    });
    ["note", "chip"].forEach(function (side) {
      var out = form.querySelector('output[data-total="' + side + '"]');
      if (out) { out.textContent = format(form, sums[side]); }
    });
  };
  document.addEventListener("input", function (event) {
    var form = event.target.closest("form.count");
    if (form) { totals(form); }
  });
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form.count").forEach(totals);
  });
  // A second click while the first post is on its way sends nothing more; the
  // server books a form's key once anyway (staff.once).
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.dataset.sent) { event.preventDefault(); return; }
    form.dataset.sent = "1";
    window.setTimeout(function () { delete form.dataset.sent; }, 4000);
  });
})();
