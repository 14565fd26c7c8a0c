// The campaign site's own script, on top of Material for MkDocs.
//
// Material wraps each table in a box that scrolls sideways when the table is wider than the page's
// column. Such a table is shown as a stack of cards instead (see stack); should one still not fit, its box
// must be reachable by keyboard, so that arrow keys can scroll it, and a screen reader must be able to say
// what it is: each such box becomes a focusable region named after its table. A box whose table fits gets
// neither, so it is no extra tab stop.
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

  // A table wider than the page's column is shown as a stack of cards, one a row, each value beside its
  // column's name: the page never scrolls sideways and no column is cut off, on a phone as on a laptop.
  // Its roles are spelt out, so a screen reader still reads a table whatever the layout. Once the column
  // is as wide as the table was, it is a table again.
  function headings(table) {
    var row = table.tHead && table.tHead.rows[0];
    return row ? Array.prototype.map.call(row.cells, function (cell) {
      var copy = cell.cloneNode(true);
      copy.querySelectorAll(".headerlink").forEach(function (link) { link.remove(); });
      return copy.textContent.trim();
    }) : [];
  }

  var LONG = 24; // characters: a cell holding more is a sentence

  function setStacked(table, stacked) {
    var names = headings(table);
    table.toggleAttribute("data-ck-stacked", stacked);
    var role = function (el, value) {
      if (stacked) el.setAttribute("role", value);
      else el.removeAttribute("role");
    };
    role(table, "table");
    Array.prototype.forEach.call(table.rows, function (row) {
      role(row, "row");
      Array.prototype.forEach.call(row.cells, function (cell, index) {
        var header = cell.tagName === "TH";
        role(cell, header ? (row.parentElement === table.tHead ? "columnheader" : "rowheader") : "cell");
        if (stacked && names[index]) cell.setAttribute("data-label", names[index]);
        else cell.removeAttribute("data-label");
        // A sentence takes the card's whole width; short values share a line with another.
        cell.toggleAttribute("data-ck-long", stacked && cell.textContent.trim().length > LONG);
      });
    });
    Array.prototype.forEach.call(table.querySelectorAll("thead, tbody"), function (group) {
      role(group, "rowgroup");
    });
  }

  function stack(wrapper) {
    var table = wrapper.querySelector("table");
    if (!table || !table.tHead) return;
    if (table.hasAttribute("data-ck-stacked")) {
      if (wrapper.clientWidth < Number(table.getAttribute("data-ck-wide"))) return;
      setStacked(table, false);
    }
    if (wrapper.scrollWidth > wrapper.clientWidth + 1) {
      table.setAttribute("data-ck-wide", String(wrapper.scrollWidth));
      setStacked(table, true);
    }
  }

  var resized = "ResizeObserver" in window ? new ResizeObserver(function (entries) {
    entries.forEach(function (entry) {
      stack(entry.target);
      mark(entry.target);
    });
  }) : null;

  function markAll() {
    document.querySelectorAll(".md-typeset__scrollwrap").forEach(function (wrapper) {
      stack(wrapper);
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

  // A code block that scrolls sideways must be a tab stop, so that arrow keys can scroll it. The theme
  // makes it one only where the browser can hover, and takes it away again on a touch screen, where a
  // keyboard (or a switch device) may be in use all the same: here it is one wherever it scrolls.
  function focusableCode(code) {
    var scrolls = code.scrollWidth > code.clientWidth + 1;
    if (scrolls && code.getAttribute("tabindex") !== "0") code.setAttribute("tabindex", "0");
  }

  function markCode() {
    document.querySelectorAll(".md-typeset pre > code").forEach(function (code) {
      focusableCode(code);
      if (resizedCode) resizedCode.observe(code);
    });
  }

  var resizedCode = "ResizeObserver" in window ? new ResizeObserver(function (entries) {
    entries.forEach(function (entry) { focusableCode(entry.target); });
  }) : null;

  if ("MutationObserver" in window) {
    new MutationObserver(function (changes) {
      changes.forEach(function (change) {
        if (change.target.matches && change.target.matches(".md-typeset pre > code")) focusableCode(change.target);
      });
    }).observe(document.documentElement, { attributes: true, attributeFilter: ["tabindex"], subtree: true });
  }

  // The theme's "Back to top" button floats over the top of the page as the reader scrolls up: over a
  // map it would cover the map's turn bar or its pieces, so it steps aside while it overlaps one.
  function overlaps(a, b) {
    return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  }

  function clearMaps() {
    var button = document.querySelector(".md-top");
    if (!button) return;
    button.classList.remove("ck-top-aside");
    var box = button.getBoundingClientRect();
    var covered = Array.prototype.some.call(document.querySelectorAll("iframe.ck-map"), function (map) {
      return overlaps(box, map.getBoundingClientRect());
    });
    button.classList.toggle("ck-top-aside", covered);
  }

  var clearing = false;
  function clearMapsSoon() {
    if (clearing) return;
    clearing = true;
    window.requestAnimationFrame(function () {
      clearing = false;
      clearMaps();
    });
  }
  window.addEventListener("scroll", clearMapsSoon, { passive: true });
  window.addEventListener("resize", clearMapsSoon);

  // The map page lists what stands on the map after the latest turn; when its map's slider shows another
  // turn, a line under the heading says so and links that turn's chronicle, which lists what stood then.
  window.addEventListener("message", function (event) {
    var told = event.data && event.data.campaignMap;
    var frame = document.querySelector("iframe.ck-map");
    var line = document.querySelector(".ck-map-shown");
    if (!told || !frame || !line || event.source !== frame.contentWindow) return;
    var turn = Number(told.turn);
    if (told.latest || !Number.isInteger(turn)) {
      line.hidden = true;
      return;
    }
    line.textContent = "The map above shows turn " + turn + " (" + String(told.label) + "); the list below is of " +
      "the latest turn. What stood after turn " + turn + " is listed in ";
    var link = document.createElement("a");
    link.href = line.getAttribute("data-chronicle") + "turn-" + turn + "/";
    link.textContent = "the chronicle of turn " + turn;
    line.appendChild(link);
    line.appendChild(document.createTextNode("."));
    line.hidden = false;
  });

  // A weekly deadline ("every Friday at 18:00 UTC") is a rule: the reader's own clock finds the next such
  // moment, shown in the reader's time zone. Within the grace after one, that one is shown as passed.
  var WEEK = 7 * 24 * 3600 * 1000;

  function nextDeadline(el, now) {
    var hm = String(el.getAttribute("data-time")).split(":");
    var weekday = (Number(el.getAttribute("data-weekday")) + 1) % 7; // the data counts from Monday
    var when = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), Number(hm[0]), Number(hm[1])));
    when.setUTCDate(when.getUTCDate() + ((weekday - when.getUTCDay() + 7) % 7));
    if (when <= now) when = new Date(when.getTime() + WEEK);
    var grace = Number(el.getAttribute("data-grace")) * 3600 * 1000;
    var previous = new Date(when.getTime() - WEEK);
    return now - previous < grace ? { when: previous, passed: true } : { when: when, passed: false };
  }

  function showDeadlines() {
    document.querySelectorAll(".ck-deadline-rule").forEach(function (el) {
      if (el.nextElementSibling && el.nextElementSibling.classList.contains("ck-local-time")) return;
      var found = nextDeadline(el, new Date());
      if (isNaN(found.when)) return;
      var local = document.createElement("span");
      local.className = "ck-local-time";
      var words = found.when.toLocaleString(undefined, {weekday: "short", year: "numeric", month: "short",
        day: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short"});
      local.textContent = found.passed ? " (the last one passed " + words + ", your time: late orders are still taken)"
        : " (next: " + words + ", your time)";
      el.after(local);
    });
  }

  function mountPage() {
    showDeadlines();
    clearMapsSoon();
    markAll();
    markCode();
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
