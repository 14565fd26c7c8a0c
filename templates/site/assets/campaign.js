// The campaign site's own script, on top of Material for MkDocs.
//
// Material wraps each table in a box that scrolls sideways when the table is wider than the page's
// column (standings and rules tables on a phone). A box that scrolls must be reachable by keyboard, so
// that arrow keys can scroll it, and a screen reader must be able to say what it is: each such box
// becomes a focusable region named after its table. A box whose table fits gets neither, so it is no
// extra tab stop.
(function () {
  "use strict";

  function tableName(wrapper) {
    var table = wrapper.querySelector("table");
    if (table && table.caption) return table.caption.textContent.trim();
    // Otherwise the heading the table sits under (the table may be inside a box of its own), without
    // its permalink sign.
    for (var node = wrapper; node && !node.classList.contains("md-typeset"); node = node.parentElement) {
      for (var el = node.previousElementSibling; el; el = el.previousElementSibling) {
        if (/^H[1-6]$/.test(el.tagName)) {
          var heading = el.cloneNode(true);
          heading.querySelectorAll(".headerlink").forEach(function (link) { link.remove(); });
          return heading.textContent.trim();
        }
      }
    }
    return "";
  }

  function mark(wrapper) {
    if (wrapper.scrollWidth > wrapper.clientWidth + 1) {
      var name = tableName(wrapper);
      wrapper.setAttribute("tabindex", "0");
      wrapper.setAttribute("role", "region");
      wrapper.setAttribute("aria-label", (name ? "Table: " + name : "Table") + " (scrolls sideways)");
    } else {
      wrapper.removeAttribute("tabindex");
      wrapper.removeAttribute("role");
      wrapper.removeAttribute("aria-label");
    }
  }

  var resized = "ResizeObserver" in window ? new ResizeObserver(function (entries) {
    entries.forEach(function (entry) { mark(entry.target); });
  }) : null;

  function markAll() {
    document.querySelectorAll(".md-typeset__scrollwrap").forEach(function (wrapper) {
      mark(wrapper);
      if (resized) resized.observe(wrapper);
    });
  }

  // Landmarks a screen reader lists must be told apart by their names. Some of Material's navigation
  // landmarks have none: a section's menu is labelled by an element that holds only an icon, and each
  // code block's buttons have no label at all. Each gets a name from what it is.
  function spokenName(nav) {
    if (nav.getAttribute("aria-label")) return nav.getAttribute("aria-label");
    var by = nav.getAttribute("aria-labelledby");
    var label = by && document.getElementById(by);
    return label ? label.textContent.trim() : "";
  }

  function nameLandmarks() {
    var codeBlocks = 0;
    document.querySelectorAll("nav").forEach(function (nav) {
      if (nav.classList.contains("md-code__nav")) codeBlocks += 1;
      if (spokenName(nav)) return;
      var name = "";
      var title = nav.querySelector(":scope > .md-nav__title");
      if (nav.classList.contains("md-code__nav")) name = "Code block " + codeBlocks;
      else if (title) name = title.textContent.trim() + " menu";
      if (!name) return;
      nav.removeAttribute("aria-labelledby");
      nav.setAttribute("aria-label", name);
    });
  }

  function mountPage() {
    markAll();
    nameLandmarks();
  }

  // Material adds its code blocks' buttons after the page is mounted: name them once they appear.
  if ("MutationObserver" in window) {
    var pending = false;
    new MutationObserver(function () {
      if (pending) return;
      pending = true;
      window.requestAnimationFrame(function () {
        pending = false;
        nameLandmarks();
      });
    }).observe(document.documentElement, { childList: true, subtree: true });
  }

  // Material wraps the tables when it mounts the page: on its document$ signal, which also fires again
  // after an instant page change; without it, once the page is parsed.
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(mountPage);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", mountPage);
  } else {
    mountPage();
  }
})();
