// Deadline countdowns: the page says when it was made by the dashboard's clock (data-now), so
// the count stays right under a rehearsal clock too; updated every second, nothing else. The
// words are the page's own (data-units, data-left, data-passed), in the host's language.
(function () {
  "use strict";
  var loaded = Date.now();
  function words(span, seconds) {
    var u = (span.getAttribute("data-units") || "d h min s").split(" ");
    var passed = seconds < 0, s = Math.floor(Math.abs(seconds));
    var d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600);
    var m = Math.floor((s % 3600) / 60), sec = s % 60, text;
    if (d) { text = d + " " + u[0] + " " + h + " " + u[1]; }
    else if (h) { text = h + " " + u[1] + " " + m + " " + u[2]; }
    else if (m) { text = m + " " + u[2] + " " + sec + " " + u[3]; }
    else { text = sec + " " + u[3]; }
    var form = span.getAttribute(passed ? "data-passed" : "data-left");
    if (!form) { form = passed ? "passed {span} ago" : "{span} left"; }
    return form.replace("{span}", text);
  }
  function tick() {
    var spans = document.querySelectorAll(".countdown[data-deadline][data-now]");
    for (var i = 0; i < spans.length; i++) {
      var deadline = Date.parse(spans[i].getAttribute("data-deadline"));
      var now = Date.parse(spans[i].getAttribute("data-now")) + (Date.now() - loaded);
      if (!isNaN(deadline) && !isNaN(now)) { spans[i].textContent = words(spans[i], (deadline - now) / 1000); }
    }
  }
  document.addEventListener("DOMContentLoaded", function () { tick(); setInterval(tick, 1000); });
})();
