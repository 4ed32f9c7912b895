// A page given in the answer to a form, not a redirect to it (a save answered with the
// people page, a registration with its arrival page): its address becomes the page's own,
// so that reloading it, or coming back to it, shows the page instead of sending the form
// again. The row it names after "#" is marked, and brought into view only when out of
// sight (the address is set without it: the browser would scroll every such row to the
// top, the save's message off screen).
(function () {
  var main = document.querySelector("main[data-page-address]");
  if (!main || !window.history.replaceState) return;
  var address = main.getAttribute("data-page-address");
  var hash = address.indexOf("#");
  window.history.replaceState(null, "", hash >= 0 ? address.slice(0, hash) : address);
  var target = hash >= 0 ? document.getElementById(decodeURIComponent(address.slice(hash + 1))) : null;
  if (target) {
    target.classList.add("just-saved");
    if (target.getBoundingClientRect().bottom > window.innerHeight) target.scrollIntoView({block: "center"});
  }
})();
