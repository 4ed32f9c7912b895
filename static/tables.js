// Phones: a wide table marked cards-on-phone shows one card a row; each cell is labelled
// with its column's heading (read here once, so the templates need not repeat it per cell).
document.querySelectorAll("table.cards-on-phone").forEach(function (table) {
  var head = table.querySelector("tr");
  if (!head) return;
  var labels = Array.prototype.map.call(head.children, function (c) { return c.textContent.trim(); });
  Array.prototype.forEach.call(table.querySelectorAll("tr"), function (tr, i) {
    if (i === 0) return;
    Array.prototype.forEach.call(tr.children, function (cell, j) {
      if (labels[j] && !cell.hasAttribute("data-label") && !cell.hasAttribute("colspan")) {
        cell.setAttribute("data-label", labels[j]);
      }
    });
  });
});
