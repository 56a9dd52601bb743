{% load static %}// The site's service worker (served by games/views/app.py from the root, so that its scope is
// the whole site). When the network is gone, a page asked for is answered with the offline
// page kept here at install; everything else goes to the network as if it were not here.
// Nothing kept holds a card or a name: the offline page, the style sheet and the icons.
"use strict";

var CACHE = "hearts-offline";
var OFFLINE = "{{ offline_url|escapejs }}";
var KEPT = [
  OFFLINE,
  "{% static 'games/site.css' %}",
  "{% static 'games/favicon.svg' %}",
  "{% static 'games/icons/icon-192.png' %}"
];

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE)
      .then(function (cache) { return cache.addAll(KEPT); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(self.clients.claim());
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.mode !== "navigate" || request.method !== "GET") { return; }
  event.respondWith(
    fetch(request).catch(function () {
      return caches.open(CACHE).then(function (cache) { return cache.match(OFFLINE); });
    })
  );
});
