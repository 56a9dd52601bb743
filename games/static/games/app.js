// The site as an app: register its service worker (games/views/app.py), which shows the offline
// page when the network is gone. Where a browser has no service workers, nothing changes.
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !("serviceWorker" in navigator) || !window.isSecureContext) { return; }
  var url = script.dataset.serviceWorker;
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(url).catch(function () {
      // No offline page then; every page still works online.
    });
  });
})();
