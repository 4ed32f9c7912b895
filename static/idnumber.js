// Fill birth date and gender from an 18-digit resident ID number as it is typed
// (the server checks it again on save; this only saves typing).
(function () {
  var input = document.getElementById("id_number");
  if (!input) return;
  var W = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2], C = "10X98765432";
  var note = document.getElementById("id-note");
  // The server's own message on the number, when the page comes back with one: the note
  // would say it twice until the number is changed.
  var told = input.closest(".has-err");
  function fill(event) {
    var n = input.value.replace(/\s/g, "").toUpperCase();
    if (note) note.textContent = "";
    if (n.length !== 18 || !/^\d{17}[\dX]$/.test(n)) return;
    var s = 0; for (var i = 0; i < 17; i++) s += +n[i] * W[i];
    if (C[s % 11] !== n[17]) { if (note && (event || !told)) note.textContent = note.dataset.bad; return; }
    var birth = document.getElementById("birth_date"), gender = document.getElementById("gender");
    if (birth && !birth.value) birth.value = n.slice(6, 10) + "-" + n.slice(10, 12) + "-" + n.slice(12, 14);
    if (gender && !gender.value) gender.value = (+n[16] % 2) ? "M" : "F";
  }
  input.addEventListener("input", fill);
  // A number typed (or restored by the browser) before this script ran is read too.
  if (input.value) fill(null);
})();
