// Ask before what cannot be taken back: a form or its submit button with data-confirm.
document.addEventListener("submit", function (e) {
  var button = e.submitter;
  var message = (button && button.getAttribute("data-confirm")) || e.target.getAttribute("data-confirm");
  if (message && !window.confirm(message)) e.preventDefault();
});
