/* Service worker, served at /sw.js by scorekeeper/web/pwa.py, which fills in the version
   (a hash of the static files) and the list of files to store on install.

   - Static files: cache-first (a new version of any file means a new worker and a new cache).
   - Game pages (/games/<id>): network-first; the last one viewed is kept, and shown when the
     server cannot be reached, marked as an offline copy so the page says it is read-only.
   - Anything that is not a GET (saving a deal, a correction) is never touched: it goes to the
     server or fails, so nothing ever pretends to be saved. */
"use strict";

var VERSION = "__VERSION__";
var PRECACHE = ["__PRECACHE__"];
var STATIC_CACHE = "sk-static-" + VERSION;
var PAGE_CACHE = "sk-last-game";
var GAME_PAGE = /^\/games\/\d+\/?$/;

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches
      .open(STATIC_CACHE)
      .then(function (cache) {
        return cache.addAll(PRECACHE);
      })
      .then(function () {
        return self.skipWaiting();
      })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches
      .keys()
      .then(function (keys) {
        return Promise.all(
          keys
            .filter(function (key) {
              return key.indexOf("sk-static-") === 0 && key !== STATIC_CACHE;
            })
            .map(function (key) {
              return caches.delete(key);
            })
        );
      })
      .then(function () {
        return self.clients.claim();
      })
  );
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") {
    return;
  }
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) {
    return;
  }
  if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(cacheFirst(request));
  } else if (request.mode === "navigate" && GAME_PAGE.test(url.pathname)) {
    event.respondWith(networkFirst(request, url.origin + url.pathname));
  }
});

function cacheFirst(request) {
  return caches.open(STATIC_CACHE).then(function (cache) {
    return cache.match(request).then(function (hit) {
      if (hit) {
        return hit;
      }
      return fetch(request).then(function (response) {
        if (response.ok) {
          cache.put(request, response.clone());
        }
        return response;
      });
    });
  });
}

function networkFirst(request, key) {
  return caches.open(PAGE_CACHE).then(function (cache) {
    return fetch(request).then(
      function (response) {
        var html = (response.headers.get("Content-Type") || "").indexOf("text/html") === 0;
        if (response.ok && html && !response.redirected) {
          var copy = response.clone();
          // Only the last game viewed: drop the others, and store it before answering so
          // the copy is there even if the connection drops right after.
          return cache
            .keys()
            .then(function (keys) {
              return Promise.all(
                keys.map(function (old) {
                  return cache.delete(old);
                })
              );
            })
            .then(function () {
              return cache.put(key, copy);
            })
            .then(
              function () {
                return response;
              },
              function () {
                return response; // not stored (storage full?): the page itself is fine
              }
            );
        }
        return response;
      },
      function (error) {
        return cache.match(key).then(function (hit) {
          if (!hit) {
            throw error;
          }
          return hit.text().then(function (text) {
            // Mark the copy so app.js shows the offline banner and keeps forms disabled.
            var marked = text.replace("<html", "<html data-offline-copy");
            return new Response(marked, { status: 200, headers: hit.headers });
          });
        });
      }
    );
  });
}
