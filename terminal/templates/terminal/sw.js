/* The table terminal's service worker, served from the terminal's own address so
   that its scope is the terminal's. It keeps the page, its scripts and styles and the
   three catalogues in one cache named by their digest, and answers the page from it
   first: with the network or the server gone, the page reloads as it was. The API is
   never cached: the page's own queue (IndexedDB) keeps what waits for the server. */
"use strict";

const VERSION = {{ version|safe }};
const CACHE = "terminal-" + VERSION;
const URLS = {{ urls|safe }};
const PAGE = {{ page|safe }};
const API = {{ api|safe }};

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(URLS.map((url) => new Request(url, {cache: "reload"})));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("terminal-") && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  if (event.data === "version") event.source.postMessage({version: VERSION});
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith(API)) return;
  const page = request.mode === "navigate" && url.pathname === PAGE;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    // The page is one document whatever its query (?pair=CODE from the QR code).
    // The cache holds one answer an address: the server's Vary (language,
    // cookies) is for the server's own caches, not this one.
    const cached = await cache.match(page ? PAGE : request, {ignoreSearch: page, ignoreVary: true});
    return cached || fetch(request);
  })());
});
