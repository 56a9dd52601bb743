// Keyboard for a hand's replay: ← → a step, ↑ ↓ a trick, Home and End. Each key follows the
// replay's own link for it, so the keys do what the links do, and without this file the links
// still work. After htmx swaps in the next step, focus returns to the control that was used.
(function () {
  "use strict";

  function typing(target) {
    return target && target.closest && target.closest("input, textarea, select, [contenteditable]");
  }

  var KEYS = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"];

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || typing(event.target)) { return; }
    var replay = document.querySelector("[data-replay]");
    if (!replay || KEYS.indexOf(event.key) < 0) { return; }
    // The page must not scroll under the reader, even at the first or last step.
    event.preventDefault();
    if (busy) {
      // The step asked for last is still on its way: this key applies to the step it brings.
      pendingKey = event.key;
      return;
    }
    follow(replay, event.key);
  });

  function follow(replay, key) {
    var link = replay.querySelector('a[data-replay-key="' + key + '"]');
    if (link) { link.click(); }
  }

  var usedKey = null;
  var busy = false;
  var pendingKey = null;
  document.addEventListener("htmx:beforeRequest", function (event) {
    var source = event.detail.elt;
    usedKey = source && source.dataset ? source.dataset.replayKey || null : null;
    if (usedKey) { busy = true; }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!event.detail.successful) { busy = false; pendingKey = null; }
  });
  document.addEventListener("htmx:afterSettle", function () {
    busy = false;
    var replay = document.querySelector("[data-replay]");
    if (replay && pendingKey) {
      var key = pendingKey;
      pendingKey = null;
      follow(replay, key);
      return;
    }
    // The control that was used went with the old step: give focus to its successor.
    if (!usedKey || (document.activeElement && document.activeElement !== document.body)) { return; }
    var again = replay && replay.querySelector('a[data-replay-key="' + usedKey + '"]');
    if (again) { again.focus({ preventScroll: true }); }
  });
})();
