// Person pickers: <input data-picker="/d/1/people/search?event=chess.MI">, or text inputs
// inside an element carrying data-picker (a team's table). Suggestions come from the server
// as one types; the field keeps the label, the server resolves it.
(function () {
  var timer = null;
  function listFor(input) {
    var id = input.getAttribute("list");
    var list = id && document.getElementById(id);
    if (!list) {
      id = "picker-" + Math.random().toString(36).slice(2);
      list = document.createElement("datalist");
      list.id = id;
      document.body.appendChild(list);
      input.setAttribute("list", id);
    }
    return list;
  }
  function source(input) {
    if (!input.matches || !input.matches("input")) return null;
    var holder = input.closest("[data-picker]");
    return holder && (input.type === "text" || !input.getAttribute("type")) ? holder.getAttribute("data-picker") : null;
  }
  function suggest(input) {
    var url = source(input);
    input.setAttribute("autocomplete", "off");
    var q = input.value || "";
    fetch(url + (url.indexOf("?") < 0 ? "?" : "&") + "q=" + encodeURIComponent(q), {credentials: "same-origin"})
      .then(function (r) { return r.ok ? r.json() : []; })
      .then(function (rows) {
        var list = listFor(input);
        list.textContent = "";
        rows.forEach(function (row) {
          var o = document.createElement("option");
          o.value = row.label;
          list.appendChild(o);
        });
      })
      .catch(function () {});
  }
  document.addEventListener("input", function (e) {
    var input = e.target;
    if (!source(input)) return;
    clearTimeout(timer);
    timer = setTimeout(function () { suggest(input); }, 150);
  });
  document.addEventListener("focusin", function (e) {
    var input = e.target;
    if (source(input) && !input.getAttribute("list")) suggest(input);
  });
})();
