// The live socket: one WebSocket per page, reopened with backoff when it drops. On a match page
// it follows that match and, when the match moves on, fetches the page's own regions over HTTP
// (rendered for this viewer; events never carry cards). On every page it shows turn notices.
// Everything still works without this file: pages poll, and links lead to the same places.
(function () {
  "use strict";

  // Words come from the site's catalogue (/jsi18n/, then words.js: English without it).
  var gettext = window.gettext, ngettext = window.ngettext, interpolate = window.interpolate;

  var live = document.querySelector("[data-live]");
  if (!live || !("WebSocket" in window)) { return; }

  var FIRST_DELAY = 1000;
  var MAX_DELAY = 30000;
  var NOTIFY_KEY = "hearts.notify";
  var MAX_TOASTS = 3;
  var me = Number(live.dataset.user);
  var main = document.getElementById("main");
  var followed = main && main.dataset.match ? Number(main.dataset.match) : null;
  var pageStatus = main ? main.dataset.status : "";
  var shown = followed ? Number(main.dataset.version) : 0; // the version the page shows
  var wanted = shown; // the newest version announced
  var inFlight = 0; // htmx requests to this match not yet answered
  var fetching = false; // one of them is ours, catching up
  var leaving = false;
  var attempts = 0;
  var socket = null;

  // ----- the match on screen -----

  function matchPath(id) { return "/matches/" + id + "/"; }

  // The chat's requests are not the table's: they carry no version, and wait for nothing.
  function isThisMatch(path) {
    return followed !== null && typeof path === "string" && path.indexOf(matchPath(followed)) === 0 &&
      path.indexOf(matchPath(followed) + "chat/") !== 0;
  }

  // Fetch only when no request to this match is pending: an action's own answer often
  // carries the very version an event announces.
  function catchUp() {
    if (leaving || inFlight > 0 || wanted <= shown) { return; }
    var url = matchPath(followed);
    if (!window.htmx) { window.location.reload(); return; }
    fetching = true;
    if (pageStatus === "open") {
      // While seats fill, the answer is the whole page: take the seats region from it.
      window.htmx.ajax("GET", url, { target: "#table", select: "#table", swap: "outerHTML" });
    } else {
      // The htmx GET answers every region out of band; nothing else is swapped.
      window.htmx.ajax("GET", url, { swap: "none" });
    }
  }

  function onMatchChange(version, status) {
    if (version < shown) { return; }
    // The page may show this version already (the answer to its own last card, which swaps
    // the regions in) yet not its status: the page of a finished match has other parts.
    if (status && status !== pageStatus) {
      // Starting or ending a match changes which regions the page has: load it anew.
      leaving = true;
      window.location.reload();
      return;
    }
    if (version === shown) { return; }
    wanted = Math.max(wanted, version);
    catchUp();
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (isThisMatch(event.detail.requestConfig && event.detail.requestConfig.path)) { inFlight += 1; }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var config = event.detail.requestConfig;
    if (!isThisMatch(config && config.path)) { return; }
    inFlight = Math.max(0, inFlight - 1);
    var ours = fetching;
    fetching = false;
    // Every answer from the match's views says which version its regions show.
    var xhr = event.detail.xhr;
    var version = xhr && Number(xhr.getResponseHeader("X-Match-Version"));
    if (version) { shown = Math.max(shown, version); }
    // A failed catch-up is not retried in a loop: the next event or reconnect tries again.
    if (version || !ours) { catchUp(); }
  });

  // Others passing while this player is still choosing refreshes the hand: keep the ticks.
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var detail = event.detail;
    if (!detail.target || detail.target.id !== "hand") { return; }
    detail.target.querySelectorAll(".pass-choice input:checked").forEach(function (box) {
      var same = detail.fragment.querySelector('.pass-choice input[value="' + box.value + '"]');
      if (same) { same.checked = true; }
    });
  });
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    // The pass form counts its ticks; let it count the kept ones.
    var form = document.querySelector("#hand [data-pass-form]");
    if (form && event.target.id === "hand") {
      form.dispatchEvent(new Event("change", { bubbles: true }));
    }
  });

  // ----- turn notices -----

  var counter = document.querySelector("[data-turn-count]");
  var waiting = new Set(
    counter ? counter.dataset.matches.split(" ").filter(Boolean).map(Number) : []
  );
  var baseTitle = document.title.replace(/^\(\d+\) /, "");

  function showCount() {
    var count = waiting.size;
    if (counter) {
      counter.querySelector("[data-turn-number]").textContent = String(count);
      counter.hidden = count === 0;
    }
    document.title = (count ? "(" + count + ") " : "") + baseTitle;
    showNext();
  }

  // ----- the next match waiting (templates/games/_next_match.html) -----

  var AUTO_KEY = "hearts.next.auto";
  var AUTO_SECONDS = 3;
  var autoTimer = null;
  var secondsLeft = 0;
  var stayed = false; // "Stay here" was pressed: this page goes nowhere by itself

  function autoOn(value) {
    try {
      if (value !== undefined) { window.localStorage.setItem(AUTO_KEY, value ? "on" : "off"); }
      return window.localStorage.getItem(AUTO_KEY) === "on";
    } catch (error) {
      return false;
    }
  }

  // The first waiting match after this one, going round: the player works through them in turn.
  function nextWaiting() {
    var others = Array.from(waiting).filter(function (id) { return id !== followed; });
    if (!others.length) { return null; }
    others.sort(function (a, b) { return a - b; });
    var after = others.filter(function (id) { return id > followed; });
    return (after.length ? after : others)[0];
  }

  function stopCountdown() {
    if (autoTimer) { window.clearInterval(autoTimer); }
    autoTimer = null;
  }

  function showNext() {
    var box = document.querySelector("[data-next-match]");
    var next = box ? nextWaiting() : null;
    if (!box || next === null) {
      if (box) { box.hidden = true; }
      stopCountdown();
      return;
    }
    var link = box.querySelector("[data-next-link]");
    link.href = matchPath(next);
    link.textContent = interpolate(gettext("Next match waiting for you: match %(match)s"), { match: next }, true);
    box.hidden = false;
    var auto = box.querySelector("[data-next-auto]");
    auto.checked = autoOn();
    if (auto.checked && !stayed && !autoTimer) {
      secondsLeft = AUTO_SECONDS;
      autoTimer = window.setInterval(tick, 1000);
    }
    var counting = autoTimer !== null;
    box.querySelector("[data-next-countdown]").textContent = counting ? interpolate(gettext("Going there in %(seconds)s s"), { seconds: secondsLeft }, true) : "";
    box.querySelector("[data-next-stay]").hidden = !counting;
  }

  function tick() {
    secondsLeft -= 1;
    var box = document.querySelector("[data-next-match]");
    if (!box || box.hidden) { stopCountdown(); return; }
    if (secondsLeft > 0) { showNext(); return; }
    stopCountdown();
    leaving = true;
    window.location.href = box.querySelector("[data-next-link]").href;
  }

  document.addEventListener("change", function (event) {
    if (!event.target.matches || !event.target.matches("[data-next-auto]")) { return; }
    autoOn(event.target.checked);
    stayed = false;
    if (!event.target.checked) { stopCountdown(); }
    showNext();
  });
  document.addEventListener("click", function (event) {
    if (!event.target.closest || !event.target.closest("[data-next-stay]")) { return; }
    stayed = true;
    stopCountdown();
    showNext();
  });
  // The hand is drawn anew as the match moves on: fill in its control again.
  document.addEventListener("htmx:afterSettle", showNext);
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    if (event.target && event.target.id === "hand") { showNext(); }
  });

  var announcer = live.querySelector("[data-announcer]");
  function announce(text) {
    // Clear first, so the same words said twice are read twice.
    announcer.textContent = "";
    window.setTimeout(function () { announcer.textContent = text; }, 50);
  }

  // Storage can be switched off (some private windows throw): then nobody has opted in.
  function stored(value) {
    try {
      if (value) { window.localStorage.setItem(NOTIFY_KEY, value); }
      return window.localStorage.getItem(NOTIFY_KEY);
    } catch (error) {
      return null;
    }
  }
  function canNotify() { return "Notification" in window; }
  function notifying() {
    return canNotify() && Notification.permission === "granted" && stored() === "on";
  }

  // The offer to notify in this browser is made once, in one toast, never again after it.
  var OFFERED_KEY = "hearts.notify.offered";
  function offerNotifying() {
    if (!canNotify() || notifying() || Notification.permission === "denied") { return false; }
    try {
      if (window.localStorage.getItem(OFFERED_KEY)) { return false; }
      window.localStorage.setItem(OFFERED_KEY, "yes");
    } catch (error) {
      return false;
    }
    return true;
  }

  function optInButton() {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "link-button toast-optin";
    button.textContent = gettext("Notify me in this browser");
    button.addEventListener("click", function () {
      Promise.resolve(Notification.requestPermission()).then(function (permission) {
        if (permission === "granted") { stored("on"); }
        document.querySelectorAll(".toast-optin").forEach(function (other) { other.remove(); });
      });
    });
    return button;
  }

  function toast(matchId, text, href) {
    var box = live.querySelector("[data-toasts]");
    var old = box.querySelector('[data-toast-match="' + matchId + '"]');
    if (old) { old.remove(); }
    var item = document.createElement("div");
    item.className = "toast";
    item.dataset.toastMatch = String(matchId);
    var link = document.createElement("a");
    link.href = href || matchPath(matchId);
    link.textContent = text;
    var close = document.createElement("button");
    close.type = "button";
    close.className = "toast-close";
    close.setAttribute("aria-label", gettext("Dismiss"));
    close.textContent = "×";
    close.addEventListener("click", function () { item.remove(); });
    item.append(link, close);
    if (offerNotifying()) { item.append(optInButton()); }
    box.append(item);
    // A few at most, the newest last: older ones make way.
    while (box.children.length > MAX_TOASTS) { box.firstElementChild.remove(); }
  }

  // One toast says where it is your turn, however many matches wait; none for the match on
  // screen, whose own page says so already.
  function onTurn(matchId) {
    waiting.add(matchId);
    showCount();
    if (matchId === followed) { return; }
    var others = Array.from(waiting).filter(function (id) { return id !== followed && id !== matchId; });
    var turn = interpolate(gettext("Your turn in match %(match)s"), { match: matchId }, true);
    var text = turn + (others.length ? " " + interpolate(
      ngettext("(and %(count)s more)", "(and %(count)s more)", others.length),
      { count: others.length }, true) : "");
    toast("turn", text, matchPath(matchId));
    announce(turn);
    if (notifying()) {
      // One tag per match: several open tabs raise one notification, not one each.
      var note = new Notification("Hearts", { body: text, tag: "hearts-turn-" + matchId });
      note.onclick = function () { window.focus(); window.location.href = matchPath(matchId); };
    }
  }

  // A tournament seated this player: say where, with a link to the match (or the tournament).
  function onSeated(data) {
    var text = interpolate(gettext("%(tournament)s, round %(round)s: you are seated at table %(table)s"),
      { tournament: data.tournament, round: data.round, table: data.table }, true);
    toast("seated-" + data.url, text, data.url);
    announce(text);
  }

  // A notice about one of this player's matches (nudged, given up, challenged): its words, a
  // link (a challenge's leads to the challenges to answer).
  function onNotice(data) {
    // A challenge's notice carries how many challenges now wait for this player's answer.
    var challenges = document.querySelector("[data-challenge-count]");
    if (challenges && typeof data.challenges === "number") {
      challenges.querySelector("[data-challenge-number]").textContent = String(data.challenges);
      challenges.hidden = data.challenges === 0;
    }
    toast("notice-" + data.match + "-" + data.kind, data.text, data.url || matchPath(data.match));
    announce(data.text);
  }

  // ----- the chat -----

  // A room of the followed match has a new message: the event names the room and the
  // message's id, never the words. The page asks for the messages after the newest it shows,
  // as this viewer may read them (appended to their rooms: games/_chat_news.html), or for the
  // whole region when it shows none yet; the server answers the whole region too when more
  // came than a room's list keeps. A page that already shows the message (its sender's, whose
  // answer drew it) asks nothing.
  function scrollChat() {
    document.querySelectorAll("#chat .chat-messages").forEach(function (list) {
      list.scrollTop = list.scrollHeight;
    });
  }

  // One request to the chat region at a time (a fetch, or a message sent, a mute): the answer
  // of one replaces the region the other swaps its answer into, which is then lost. Requests
  // that overlapped fetch the whole region again once none is out; news heard meanwhile is
  // fetched then, unless the region by then shows it. Counted by their XHR: htmx's own events
  // about a request whose region was replaced never reach the document.
  var chatBusy = 0;
  var chatAgain = false; // requests overlapped: the whole region, once none is out
  var chatHeard = []; // the messages announced since the last fetch: { id, room }
  var chatPosting = 0; // the viewer's own requests out (a message sent, a mute, a report)
  // Taken just before a fetched region is swapped in: what the viewer was typing (put back
  // after the swap) and the newest message of someone else's then shown.
  var typing = null;
  var newestBefore = 0;

  function isChatRequest(event) {
    return event.detail.target && event.detail.target.id === "chat";
  }

  // The newest message shown whose [attribute] holds its id: data-message, every message's;
  // data-others, someone else's.
  function newestShown(attribute) {
    var newest = 0;
    document.querySelectorAll("#chat [" + attribute + "]").forEach(function (item) {
      newest = Math.max(newest, Number(item.getAttribute(attribute)));
    });
    return newest;
  }

  function newestFromOthers() { return newestShown("data-others"); }

  function showsMessage(id) {
    return document.querySelector('#chat [data-message="' + Number(id) + '"]') !== null;
  }

  // Appended messages: the "No messages yet." line goes, and each list keeps the newest the
  // server would show (data-chat-shown), as the whole region does.
  function trimChat() {
    var chat = document.getElementById("chat");
    var most = chat ? Number(chat.dataset.chatShown) : 0;
    if (!most) { return; }
    chat.querySelectorAll(".chat-messages").forEach(function (list) {
      var items = list.querySelectorAll(".chat-message");
      if (items.length) {
        list.querySelectorAll(".chat-empty").forEach(function (item) { item.remove(); });
      }
      for (var index = 0; index < items.length - most; index += 1) { items[index].remove(); }
    });
  }

  function chatInView() {
    var chat = document.getElementById("chat");
    if (!chat) { return false; }
    var box = chat.getBoundingClientRect();
    return box.bottom > 0 && box.top < window.innerHeight;
  }

  function restoreTyping() {
    var box = document.getElementById("chat-text");
    if (typing && box && !box.value) {
      box.value = typing.value;
      if (typing.focused) {
        box.focus();
        box.setSelectionRange(typing.start, typing.end);
      }
    }
    typing = null;
  }

  function fetchChat(whole) {
    var chat = document.getElementById("chat");
    if (!chat || !chat.dataset.chatUrl || !window.htmx) { return; }
    chatAgain = false;
    chatHeard = [];
    var newest = newestShown("data-message");
    var url = chat.dataset.chatUrl;
    if (!whole && newest > 0) { url += "?after=" + newest; }
    window.htmx.ajax("GET", url, { target: "#chat", swap: "outerHTML" })
      .then(function () {
        trimChat();
        scrollChat();
        restoreTyping();
        // Someone else's words arrived out of sight (a phone shows the table first): say so.
        if (newestFromOthers() > newestBefore && !chatInView()) {
          toast("chat", gettext("New message in the chat"), "#chat");
        }
      });
  }

  // No chat request is out: fetch what was heard meanwhile and is not shown, or the whole
  // region after requests that overlapped. A message announced in a room the page shows that
  // is older than the newest shown, yet not shown, may have been committed late, after a newer
  // one a fetch brought: only the whole region has it (or it is one this viewer does not read).
  function settleChat() {
    var newest = newestShown("data-message");
    var whole = chatAgain;
    var lacking = chatHeard.filter(function (heard) { return !showsMessage(heard.id); });
    chatHeard = [];
    if (!whole && !lacking.length) { chatAgain = false; return; }
    lacking.forEach(function (heard) {
      var shownRoom = document.getElementById("chat-messages-" + heard.room) !== null;
      if (typeof heard.id !== "number" || (shownRoom && heard.id <= newest)) { whole = true; }
    });
    fetchChat(whole);
  }

  function onChat(data) {
    if (data.match !== followed) { return; }
    chatHeard.push({ id: data.message, room: data.room });
    if (chatBusy === 0) { settleChat(); }
  }

  document.addEventListener("htmx:beforeSend", function (event) {
    var xhr = event.detail.xhr;
    if (!isChatRequest(event) || !xhr) { return; }
    var config = event.detail.requestConfig;
    var posting = Boolean(config && config.verb !== "get");
    if (chatBusy > 0) { chatAgain = true; }
    chatBusy += 1;
    if (posting) { chatPosting += 1; }
    // "loadend" follows htmx's own handling of the answer (its swap), or an error or abort.
    xhr.addEventListener("loadend", function () {
      chatBusy = Math.max(0, chatBusy - 1);
      if (posting) { chatPosting = Math.max(0, chatPosting - 1); }
      if (chatBusy === 0 && (chatAgain || chatHeard.length)) { settleChat(); }
    });
  });
  // A fetched region replaces the form being typed in: keep the words, the caret, the focus.
  // (A message sent answers with an empty form: what was sent is not put back. Appended
  // messages leave the form as it is.)
  document.addEventListener("htmx:beforeSwap", function (event) {
    var config = event.detail.requestConfig;
    if (!isChatRequest(event) || !config || config.verb !== "get") { return; }
    // A fetch answered while the viewer's own request is out would replace the region that
    // request answers into (its answer lost, the words sent put back in the box): dropped, the
    // region is fetched whole once none is out.
    if (chatPosting > 0) {
      event.detail.shouldSwap = false;
      typing = null;
      newestBefore = newestFromOthers();
      return;
    }
    var box = document.getElementById("chat-text");
    typing = box && box.value ? { value: box.value, focused: document.activeElement === box,
      start: box.selectionStart, end: box.selectionEnd } : null;
    newestBefore = newestFromOthers();
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.detail.target && event.detail.target.id === "chat") { scrollChat(); }
  });
  scrollChat();

  // Once the chat is in sight, its toast has said what it had to.
  window.addEventListener("scroll", function () {
    var told = live.querySelector('[data-toast-match="chat"]');
    if (told && chatInView()) { told.remove(); }
  }, { passive: true });

  // ----- playing a finished match again (templates/games/_rematch.html) -----

  // Someone answered "Play again": draw the panel anew from the page (it is drawn on the full
  // page only); once the rematch has started, those seated there go to it.
  function onRematch(data) {
    if (data.match !== followed || leaving) { return; }
    if (data.rematch && (data.seated || []).indexOf(me) >= 0) {
      leaving = true;
      window.location.href = matchPath(data.rematch);
      return;
    }
    var panel = document.querySelector(".rematch-panel");
    if (!panel || !window.fetch || !window.DOMParser) { return; }
    window.fetch(matchPath(followed), { credentials: "same-origin" }).then(function (answer) {
      return answer.ok ? answer.text() : "";
    }).then(function (html) {
      var fresh = html && new DOMParser().parseFromString(html, "text/html").querySelector(".rematch-panel");
      var current = document.querySelector(".rematch-panel");
      if (fresh && current && !leaving) { current.replaceWith(document.importNode(fresh, true)); }
    }).catch(function () {}); // the next answer, or a reload, shows it
  }

  // ----- the lobby's lists -----

  var lobby = document.querySelector("[data-lobby]");
  var lobbyTimer = null;
  var lobbyHeard = false; // the first "following" comes with the page, which is up to date

  // Changes come in bursts (a match filling seat after seat): fetch once they settle.
  function onLobbyChange() {
    if (!lobby || !window.htmx || lobbyTimer) { return; }
    lobbyTimer = window.setTimeout(function () {
      lobbyTimer = null;
      window.htmx.ajax("GET", "/lobby/?part=lists", { target: "#lobby-lists", swap: "outerHTML" });
    }, 500);
  }

  // ----- the socket -----

  function onMessage(message) {
    var data;
    try { data = JSON.parse(message.data); } catch (error) { return; }
    if (data.type === "turn.notify") {
      onTurn(data.match);
    } else if (data.type === "tournament.seated") {
      onSeated(data);
    } else if (data.type === "match.notice") {
      onNotice(data);
    } else if (data.type === "rematch.updated") {
      onRematch(data);
    } else if (data.type === "chat.updated") {
      onChat(data);
    } else if (data.type === "lobby.changed") {
      onLobbyChange();
    } else if (data.type === "lobby.following") {
      // Following anew after a reconnect: changes may have been missed meanwhile.
      if (lobbyHeard) { onLobbyChange(); }
      lobbyHeard = true;
    } else if ((data.type === "following" || data.type === "match.updated") &&
               data.match === followed) {
      if (data.type === "following") { live.dataset.state = "following"; }
      if (data.to_act.indexOf(me) >= 0) { waiting.add(followed); } else { waiting.delete(followed); }
      showCount();
      onMatchChange(data.version, data.status);
    }
  }

  function reconnectLater() {
    if (leaving) { return; }
    // 1 s, doubling up to 30 s, each wait drawn from its upper half so tabs do not stampede.
    var ceiling = Math.min(MAX_DELAY, FIRST_DELAY * Math.pow(2, attempts));
    attempts += 1;
    window.setTimeout(connect, ceiling / 2 + Math.random() * ceiling / 2);
  }

  function connect() {
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + window.location.host + "/ws/live/");
    socket.addEventListener("open", function () {
      attempts = 0;
      live.dataset.state = "open"; // shown for tests and the curious; nothing styles it
      // Asked on every (re)connect: the answer's version shows what the page has missed.
      if (followed !== null) { socket.send(JSON.stringify({ follow: followed })); }
      if (lobby) { socket.send(JSON.stringify({ lobby: true })); }
    });
    socket.addEventListener("message", onMessage);
    socket.addEventListener("close", function () {
      live.dataset.state = "closed";
      reconnectLater();
    });
  }

  // A plain form on its way (htmx cancels the submit event of its own forms) or a page
  // being left: no reload or fetch may cut in.
  document.addEventListener("submit", function (event) {
    if (!event.defaultPrevented) { leaving = true; }
  });
  window.addEventListener("pagehide", function () { leaving = true; stopCountdown(); });
  window.addEventListener("pageshow", function (event) {
    // Back from the back-forward cache: the old socket is gone.
    if (event.persisted) { leaving = false; connect(); }
  });
  showNext();
  connect();
})();
