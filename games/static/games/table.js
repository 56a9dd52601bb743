// Keyboard help at the table: arrow keys move between cards, and focus stays in the hand
// after htmx replaces it. Every action works without this file; it only saves key presses.
(function () {
  "use strict";

  // Words come from the site's catalogue (/jsi18n/, then words.js: English without it).
  var gettext = window.gettext, ngettext = window.ngettext, interpolate = window.interpolate;

  // Every card is in the arrow keys' round, the ones that may not be played too: focused, each
  // of those reads out why (its aria-describedby).
  function cardControls(hand) {
    return Array.from(hand.querySelectorAll("button.playing-card, .pass-choice input"));
  }

  function playableCards(hand) {
    return Array.from(hand.querySelectorAll('button.playing-card:not([aria-disabled="true"]), .pass-choice input'));
  }

  // A card that may not be played stays focusable (aria-disabled), so a press must not send
  // it; the reason it points to is shown instead. Without this file the server refuses it with
  // the same reason.
  document.addEventListener("click", function (event) {
    var card = event.target.closest && event.target.closest('button.playing-card[aria-disabled="true"]');
    if (!card) { return; }
    event.preventDefault();
    // Its reason comes first; a card received in the pass also points to who passed it.
    var reason = document.getElementById((card.getAttribute("aria-describedby") || "").split(" ")[0]);
    if (!reason) { return; }
    reason.classList.remove("is-flagged");
    void reason.offsetWidth;  // restart the highlight when the same reason is asked for again
    reason.classList.add("is-flagged");
  });

  document.addEventListener("keydown", function (event) {
    var keys = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };
    var step = keys[event.key];
    var hand = event.target.closest && event.target.closest(".hand");
    if (!step || !hand) { return; }
    var controls = cardControls(hand);
    var index = controls.indexOf(event.target);
    if (index < 0) { return; }
    event.preventDefault();
    controls[(index + step + controls.length) % controls.length].focus();
  });

  // T opens every trick of the hand in play (the link beside the last trick).
  document.addEventListener("keydown", function (event) {
    if (event.key !== "t" && event.key !== "T") { return; }
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    if (event.target.closest && event.target.closest("input, textarea, select, [contenteditable]")) { return; }
    var link = document.querySelector("a[data-tricks-link]");
    if (link) { event.preventDefault(); link.click(); }
  });

  // A pass is exactly three cards: a fourth choice is undone with a word why, and the form is
  // only sent with three. The server checks it all the same.
  var PASS_SIZE = 3;

  function countPassChoices(form, said) {
    var out = form.querySelector("[data-pass-count]");
    if (!out) { return; }
    var chosen = form.querySelectorAll(".pass-choice input:checked").length;
    out.textContent = said || interpolate(gettext("%(chosen)s of %(size)s chosen"), { chosen: chosen, size: PASS_SIZE }, true);
  }

  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest("[data-pass-form]");
    if (!form) { return; }
    var chosen = form.querySelectorAll(".pass-choice input:checked").length;
    if (event.target.checked && chosen > PASS_SIZE) {
      event.target.checked = false;
      countPassChoices(form, gettext("You pass three cards: take one back first."));
      return;
    }
    countPassChoices(form);
  });

  document.addEventListener("submit", function (event) {
    var form = event.target.closest && event.target.closest("[data-pass-form]");
    if (!form) { return; }
    var chosen = form.querySelectorAll(".pass-choice input:checked").length;
    if (chosen !== PASS_SIZE) {
      // Caught on the way down, before htmx's own listener on the form sends it.
      event.preventDefault();
      event.stopPropagation();
      countPassChoices(form, interpolate(gettext("Choose %(size)s cards to pass: %(chosen)s chosen."),
        { size: PASS_SIZE, chosen: chosen }, true));
    }
  }, true);

  // Deadlines count down between the server's updates; the server wrote each one's seconds
  // left, so this page's own clock is never compared with the server's.
  function durationWords(seconds) {
    var days = Math.floor(seconds / 86400), hours = Math.floor(seconds % 86400 / 3600);
    var minutes = Math.floor(seconds % 3600 / 60), secs = Math.floor(seconds % 60);
    function words(text, count) { return interpolate(text, { count: count }, true); }
    var dayWords = words(ngettext("%(count)s day", "%(count)s days", days), days);
    var hourWords = words(gettext("%(count)s h"), hours);
    var minuteWords = words(gettext("%(count)s min"), minutes);
    var secondWords = words(gettext("%(count)s s"), secs);
    if (days) { return dayWords + (hours ? " " + hourWords : ""); }
    if (hours) { return hourWords + (minutes ? " " + minuteWords : ""); }
    if (minutes) { return minuteWords + (secs && minutes < 10 ? " " + secondWords : ""); }
    return secondWords;
  }

  function tickDeadlines() {
    var now = Date.now();
    document.querySelectorAll("time[data-seconds-left]").forEach(function (clock) {
      if (!clock.dataset.shownAt) { clock.dataset.shownAt = String(now); }
      var left = Number(clock.dataset.secondsLeft) - (now - Number(clock.dataset.shownAt)) / 1000;
      var text = left > 0 ? interpolate(gettext("%(time)s left"), { time: durationWords(left) }, true)
        : gettext("time is up");
      if (clock.textContent !== text) { clock.textContent = text; }
      clock.classList.toggle("is-up", left <= 0);
    });
  }
  tickDeadlines();
  setInterval(tickDeadlines, 1000);

  var handHadFocus = false;
  document.addEventListener("htmx:beforeSwap", function () {
    var hand = document.getElementById("hand");
    handHadFocus = !!(hand && hand.contains(document.activeElement));
  });
  document.addEventListener("htmx:afterSettle", function () {
    var hand = document.getElementById("hand");
    if (!hand) { return; }
    var form = hand.querySelector("[data-pass-form]");
    if (form) { countPassChoices(form); }
    if (!handHadFocus || hand.contains(document.activeElement)) { return; }
    handHadFocus = false;
    var target = playableCards(hand)[0] || hand.querySelector("button:not(:disabled)");
    if (target) { target.focus(); }
  });
})();
