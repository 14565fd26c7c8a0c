/* What a page loads only when the reader wants it: the search index and the maps.
 *
 * Maps: an embedded map (iframe.ck-map) comes with its address in data-src (the site's build hook moves
 * it there) and loads when it scrolls into view.
 *
 * Search: Material for MkDocs asks for search/search_index.json (with XMLHttpRequest) as soon as a page is
 * ready, and the index grows with every turn of the campaign. This script holds that one request back
 * until the reader opens the search (the search toggle, the search field, or a search shortcut key, which
 * all open the toggle); everything else is sent as it is. Without the search form it holds nothing.
 */
(function () {
  "use strict";
  var INDEX = /\/search\/search_index\.json(?:[?#]|$)/;
  var open = XMLHttpRequest.prototype.open;
  var send = XMLHttpRequest.prototype.send;
  var held = [];
  var wanted = false;

  function release() {
    if (wanted) return;
    wanted = true;
    held.splice(0).forEach(function (go) {
      go();
    });
  }

  XMLHttpRequest.prototype.open = function (method, url) {
    this.ckSearchIndex = INDEX.test(String(url));
    return open.apply(this, arguments);
  };
  XMLHttpRequest.prototype.send = function () {
    if (!this.ckSearchIndex || wanted) return send.apply(this, arguments);
    var request = this;
    var args = arguments;
    held.push(function () {
      try {
        send.apply(request, args);
      } catch (error) {
        // Aborted while held back (the reader left the page): nothing to send.
      }
    });
  };

  function watch() {
    var toggle = document.querySelector("[data-md-toggle=search]");
    var query = document.querySelector("[data-md-component=search-query]");
    if (!toggle && !query) return release();
    if (toggle) {
      toggle.addEventListener("change", function () {
        if (toggle.checked) release();
      });
      if (toggle.checked) release();
    }
    if (query) {
      ["focus", "input", "pointerdown"].forEach(function (type) {
        query.addEventListener(type, release);
      });
      if (document.activeElement === query) release();
    }
  }

  function maps() {
    var frames = document.querySelectorAll("iframe.ck-map[data-src]");
    function load(frame) {
      var address = frame.getAttribute("data-src");
      if (address === null) return; // loaded already (a script that reads the page may load every map)
      frame.src = address;
      frame.removeAttribute("data-src");
    }
    if (!("IntersectionObserver" in window)) return frames.forEach(load);
    var observer = new IntersectionObserver(
      function (entries) {
        entries.forEach(function (entry) {
          if (!entry.isIntersecting) return;
          observer.unobserve(entry.target);
          load(entry.target);
        });
      },
      { rootMargin: "100px 0px" }
    );
    frames.forEach(function (frame) {
      observer.observe(frame);
    });
  }

  function start() {
    watch();
    maps();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
