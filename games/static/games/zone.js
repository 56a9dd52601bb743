// Sign-up takes the browser's time zone: the form's hidden field (data-browser-zone) gets the
// zone's IANA name ("Asia/Jakarta"), which the server keeps if it knows it. Without this
// script the account starts on UTC, and the profile page changes it, where this script
// offers the browser's zone when it is another than the one chosen.
(function () {
  "use strict";
  // Words come from the site's catalogue (/jsi18n/, then words.js: English without it).
  var gettext = window.gettext, interpolate = window.interpolate;
  var zone = "";
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch (error) {
    return;
  }
  document.querySelectorAll("input[data-browser-zone]").forEach(function (field) {
    if (!field.value) { field.value = zone; }
  });

  // The profile page: when this browser is in another zone than the one chosen (a player
  // travelling, or one who never chose), offer it; the player still saves the form.
  var choice = document.querySelector("select[data-zone-choice]");
  var offer = document.querySelector("[data-browser-zone-offer]");
  if (!choice || !offer || !zone || choice.value === zone) { return; }
  var known = Array.prototype.some.call(choice.options, function (option) {
    return option.value === zone;
  });
  if (!known) { return; }
  var button = offer.querySelector("button");
  button.textContent = interpolate(
    gettext("Use this browser's time zone: %(zone)s"), { zone: zone.replace(/_/g, " ") }, true
  );
  button.addEventListener("click", function () {
    choice.value = zone;
    offer.hidden = true;
    choice.focus();
  });
  offer.hidden = false;
})();
