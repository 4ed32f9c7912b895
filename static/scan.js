// The desk's camera: where the browser has BarcodeDetector, a button scans a card's QR code
// and submits it; a keyboard-wedge scanner needs nothing (it types into the field).
(function () {
  var button = document.getElementById("scan-camera");
  if (!button || !("BarcodeDetector" in window) || !navigator.mediaDevices) return;
  button.hidden = false;
  button.addEventListener("click", function () {
    var video = document.getElementById("scan-video");
    var detector = new window.BarcodeDetector({formats: ["qr_code"]});
    navigator.mediaDevices.getUserMedia({video: {facingMode: "environment"}}).then(function (stream) {
      video.srcObject = stream; video.hidden = false; video.play();
      function look() {
        detector.detect(video).then(function (codes) {
          if (codes.length) {
            stream.getTracks().forEach(function (t) { t.stop(); });
            document.getElementById("scan-code").value = codes[0].rawValue;
            document.getElementById("scan-form").submit();
          } else { requestAnimationFrame(look); }
        }).catch(function () { requestAnimationFrame(look); });
      }
      look();
    });
  });
})();
