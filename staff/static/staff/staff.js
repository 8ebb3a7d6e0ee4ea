// The staff screens' small behaviours: the notice when the live parts can't reach
// the server, the floor's room clock and call countdowns, and one submit per money
// form. A count's running totals come from the server (htmx), written by the one
// money formatter.
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

  // The floor's clocks run on the server's time, never the browser's: each page
  // and each refreshed list says what the server's clock read, and the offset
  // from the browser's clock is kept. The room clock shows the room's time zone;
  // a countdown shows what is left before the call's deadline (WL2).
  var skew = 0;
  var synced = function (root) {
    var source = root.querySelector ? root.querySelector("[data-server-ms]") : null;
    if (root.dataset && root.dataset.serverMs) { source = root; }
    if (source) { skew = parseInt(source.dataset.serverMs, 10) - Date.now(); }
  };
  var serverNow = function () { return Date.now() + skew; };
  var two = function (n) { return (n < 10 ? "0" : "") + n; };
  var tick = function () {
    var clock = document.getElementById("room-clock");
    if (clock) {
      clock.textContent = new Intl.DateTimeFormat(document.documentElement.lang || "en", {
        hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23",
        timeZone: clock.dataset.zone }).format(new Date(serverNow()));
    }
    document.querySelectorAll(".countdown[data-deadline]").forEach(function (el) {
      var left = Math.max(Math.floor((parseInt(el.dataset.deadline, 10) - serverNow()) / 1000), 0);
      el.textContent = left > 0 ? Math.floor(left / 60) + ":" + two(left % 60) : el.dataset.done;
      el.classList.toggle("late", left <= 30);
    });
  };
  document.addEventListener("DOMContentLoaded", function () {
    synced(document);
    tick();
    window.setInterval(tick, 1000);
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    synced(event.detail.target);
    tick();
  });
  // A live part is refreshed only while the person isn't typing in it.
  window.staffIdle = function (id) {
    var part = document.getElementById(id);
    return !(part && part.contains(document.activeElement) &&
             document.activeElement.matches("input, select, textarea"));
  };

  // A second click while the first post is on its way sends nothing more; the
  // server books a form's key once anyway (staff.common.once).
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.dataset.sent) { event.preventDefault(); return; }
    form.dataset.sent = "1";
    window.setTimeout(function () { delete form.dataset.sent; }, 4000);
  });
})();
