// The desk's camera: a button scans a card's QR code and submits it. BarcodeDetector where
// the browser has it, else jsQR (vendored from the npm registry, static/vendor/jsQR.js,
// Apache-2.0) on the video's frames. A keyboard-wedge scanner needs nothing (it types into
// the field).
(function () {
  var button = document.getElementById("scan-camera");
  if (!button || !navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) return;
  var native = "BarcodeDetector" in window;
  if (!native && !window.jsQR) return;
  button.hidden = false;
  function done(stream, text) {
    stream.getTracks().forEach(function (t) { t.stop(); });
    document.getElementById("scan-code").value = text;
    document.getElementById("scan-form").submit();
  }
  button.addEventListener("click", function () {
    var video = document.getElementById("scan-video");
    navigator.mediaDevices.getUserMedia({video: {facingMode: "environment"}}).then(function (stream) {
      video.srcObject = stream; video.hidden = false; video.play();
      if (native) {
        var detector = new window.BarcodeDetector({formats: ["qr_code"]});
        (function look() {
          detector.detect(video).then(function (codes) {
            if (codes.length) done(stream, codes[0].rawValue); else requestAnimationFrame(look);
          }).catch(function () { requestAnimationFrame(look); });
        })();
        return;
      }
      var canvas = document.createElement("canvas");
      var context = canvas.getContext("2d", {willReadFrequently: true});
      (function look() {
        if (video.readyState >= 2 && video.videoWidth) {
          canvas.width = video.videoWidth; canvas.height = video.videoHeight;
          context.drawImage(video, 0, 0, canvas.width, canvas.height);
          var frame = context.getImageData(0, 0, canvas.width, canvas.height);
          var code = window.jsQR(frame.data, frame.width, frame.height, {inversionAttempts: "dontInvert"});
          if (code && code.data) { done(stream, code.data); return; }
        }
        requestAnimationFrame(look);
      })();
    }).catch(function () { button.disabled = true; });
  });
})();
