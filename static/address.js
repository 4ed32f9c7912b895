// A page given in the answer to a form (a save answered with the people page, not a
// redirect to it): its address becomes the page's own, so that reloading it, or coming
// back to it, shows the page instead of sending the form again; then to the row it names.
(function () {
  var main = document.querySelector("main[data-page-address]");
  if (!main || !window.history.replaceState) return;
  var address = main.getAttribute("data-page-address");
  window.history.replaceState(null, "", address);
  var hash = address.indexOf("#");
  var target = hash >= 0 ? document.getElementById(decodeURIComponent(address.slice(hash + 1))) : null;
  if (target) target.scrollIntoView();
})();
