// Follows a background job: polls its status, moves the progress bar, shows the download.
(function () {
  var box = document.getElementById("job");
  if (!box) return;
  var url = box.getAttribute("data-status-url");
  var texts = {queued: "排队中，马上开始……", running: "正在生成……", done: "已完成。", failed: "生成失败："};
  if (document.documentElement.lang === "en") {
    texts = {queued: "Queued, starting shortly…", running: "Working…", done: "Done.", failed: "Failed: "};
  }
  function poll() {
    fetch(url, {credentials: "same-origin", headers: {"Accept": "application/json"}})
      .then(function (r) { return r.json(); })
      .then(function (s) {
        document.getElementById("job-progress").value = s.percent;
        document.getElementById("job-percent").textContent = s.percent + "%";
        document.getElementById("job-state").textContent = texts[s.status] + (s.error || "");
        if (s.status === "done") {
          var download = document.getElementById("job-download");
          if (!download.hasAttribute("data-not-a-file")) { download.hidden = false; }
          document.querySelectorAll("[data-when-done]").forEach(function (el) { el.hidden = false; });
        } else if (s.status !== "failed") {
          setTimeout(poll, 700);
        }
      })
      .catch(function () { setTimeout(poll, 3000); });
  }
  poll();
})();
