// Narrow screens: the header menu folds under a "菜单" button (CSS shows the button and
// hides the menu below 700 px; without script the menu stays visible).
(function () {
  var button = document.querySelector(".menu-toggle");
  var header = document.querySelector("header.top");
  if (!button || !header) return;
  header.classList.add("foldable");
  button.addEventListener("click", function () {
    var open = header.classList.toggle("menu-open");
    button.setAttribute("aria-expanded", open ? "true" : "false");
  });
})();
