// Deadline countdowns: the page says when it was made by the dashboard's clock (data-now), so
// the count stays right under a rehearsal clock too; updated every second, nothing else.
(function () {
  "use strict";
  var loaded = Date.now();
  function words(seconds) {
    var passed = seconds < 0, s = Math.floor(Math.abs(seconds));
    var d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600);
    var m = Math.floor((s % 3600) / 60), sec = s % 60, text;
    if (d) { text = d + " d " + h + " h"; }
    else if (h) { text = h + " h " + m + " min"; }
    else if (m) { text = m + " min " + sec + " s"; }
    else { text = sec + " s"; }
    return passed ? "passed " + text + " ago" : text + " left";
  }
  function tick() {
    var spans = document.querySelectorAll(".countdown[data-deadline][data-now]");
    for (var i = 0; i < spans.length; i++) {
      var deadline = Date.parse(spans[i].getAttribute("data-deadline"));
      var now = Date.parse(spans[i].getAttribute("data-now")) + (Date.now() - loaded);
      if (!isNaN(deadline) && !isNaN(now)) { spans[i].textContent = words((deadline - now) / 1000); }
    }
  }
  document.addEventListener("DOMContentLoaded", function () { tick(); setInterval(tick, 1000); });
})();
