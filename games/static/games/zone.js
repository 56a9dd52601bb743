// Sign-up takes the browser's time zone: the form's hidden field (data-browser-zone) gets the
// zone's IANA name ("Asia/Jakarta"), which the server keeps if it knows it. Without this
// script the account starts on UTC, and the profile page changes it.
(function () {
  "use strict";
  var zone = "";
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch (error) {
    return;
  }
  document.querySelectorAll("input[data-browser-zone]").forEach(function (field) {
    if (!field.value) { field.value = zone; }
  });
})();
