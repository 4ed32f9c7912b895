// The arrival page waits for the worker to make the entrant's account: it asks now and
// then (less often the longer the queue ahead), and reloads once it is made.
(function () {
  var box = document.getElementById("arrival");
  if (!box) return;
  var url = box.getAttribute("data-state-url");
  var every = Math.max(2, Math.min(15, parseFloat(box.getAttribute("data-wait")) || 2)) * 1000;
  function poll() {
    fetch(url, {credentials: "same-origin", headers: {"Accept": "application/json"}})
      .then(function (r) { return r.json(); })
      .then(function (s) {
        if (s.status === "pending") { setTimeout(poll, every); } else { window.location.reload(); }
      })
      .catch(function () { setTimeout(poll, 5000); });
  }
  setTimeout(poll, every);
})();
