// Before the registration opens, the button waits for the opening instant by the portal's
// own clock (the page says when it is and when the page was made), counting down, and
// turns into the button at that instant: what is typed meanwhile stays in the form. The
// portal refuses an early press anyway; without this script the button is only that.
(function () {
  var button = document.querySelector("button[data-opens]");
  if (!button) return;
  var opens = Date.parse(button.getAttribute("data-opens"));
  var servedAt = Date.parse(button.getAttribute("data-now"));
  if (isNaN(opens) || isNaN(servedAt)) return;
  var at = Date.now() + (opens - servedAt);  // the opening, by this browser's clock
  var label = button.textContent, waiting = button.getAttribute("data-waiting");
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function tick() {
    var left = Math.ceil((at - Date.now()) / 1000);
    if (left <= 0) {
      button.disabled = false;
      button.textContent = label;
      return;
    }
    var h = Math.floor(left / 3600), m = Math.floor(left % 3600 / 60), s = left % 60;
    button.disabled = true;
    button.textContent = waiting + " " + (h ? h + ":" + pad(m) : m) + ":" + pad(s);
    setTimeout(tick, 250);
  }
  tick();
})();
