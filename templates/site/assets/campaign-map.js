/* The campaign map: draws what stands on the map for one turn and what happened in it, a turn bar and
 * a legend.
 *
 * The page's folium map calls campaignMap(map, data) once, with the JSON data the page carries in a
 * <script type="application/json"> element. Names (of tiles, places, factions, pieces, events) only ever
 * reach the page through textContent, never as HTML. The URL hash chooses the view:
 *   #turn=N           the turn shown first (default: the latest)
 *   controls=none     no turn bar and no legend (small maps); controls=legend keeps the legend only
 *
 * Layout rules a reader relies on: the turn bar sits above the map (before the pieces in tab order, and
 * never over a piece); names never overlap (a name that would is left out until the map is zoomed in);
 * every piece and mark is at least HIT px wide and overlaps no other one (arrows take no pointer and
 * no tab stop: a march's sentence belongs to what stands at its end); a tooltip never shows while a
 * popup is open.
 */
(function () {
  "use strict";

  var SHAPES = {
    settlement: "circle",
    army: "triangle",
    ruin: "cross",
    road: "square",
    // usurper's: each kind its own shape, so that the legend tells every one apart
    city: "hexagon",
    landmark: "star",
    lair: "square",
    encounter: "triangle",
    resource_node: "diamond",
    scouted_grid: "cross",
  };
  // The kinds of piece that are places with a name: the name shows beside the marker, and such a place
  // gives a stack its shape and name, the first kind of this list first.
  var NAMED = ["city", "landmark", "settlement"];
  var SPARE_SHAPES = ["diamond", "star", "hexagon", "circle"];
  var NEUTRAL = "#6f6a64";
  var HIT = 24; // the smallest side of anything a reader can point at or tap, in CSS pixels
  var GAP = 26; // pieces closer than this on screen are shown as one stack
  // Which mark shows when several events happened in one place: the first kind in this list.
  var MARK_ORDER = [
    "battle", "dislodged", "capture", "raze", "raid", "siege", "founded", "build", "disband", "change",
    "support", "convoy", "hold", "march",
  ];
  var MARK_NAMES = {
    march: "March",
    battle: "Battle",
    siege: "Siege",
    capture: "Capture",
    raid: "Raid",
    raze: "Razed",
    founded: "New settlement or holding",
    change: "Other change",
    support: "Support (an arrow at the move or unit supported)",
    convoy: "Convoy (an arrow at the move carried)",
    hold: "Hold (a ring round the unit)",
    dislodged: "Dislodged",
    build: "Built",
    disband: "Disbanded",
  };
  // How a drawn order's outcome looks (marks that tell one): solid, dashed, or dotted and grey.
  var OUTCOME_DASH = { succeeded: null, failed: "8 6", illegal: "2 5" };
  var OUTCOME_NAMES = {
    failed: "Dashed and crossed out: the order failed",
    illegal: "Dotted grey and crossed out: the order broke a rule",
  };

  function node(tag, className, text) {
    var el = document.createElement(tag);
    if (className) el.className = className;
    if (text !== undefined && text !== null) el.textContent = String(text);
    return el;
  }

  function hashOptions() {
    var options = {};
    location.hash.replace(/^#/, "").split("&").forEach(function (part) {
      if (!part) return;
      var kv = part.split("=");
      options[decodeURIComponent(kv[0])] = kv.length > 1 ? decodeURIComponent(kv[1]) : "";
    });
    return options;
  }

  // SVG markup for a marker: built from fixed shapes and validated colours only.
  function shapeSvg(shape, fill, px) {
    var s = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 20" width="' + px + '" height="' + px +
      '" aria-hidden="true" focusable="false">';
    var paint = ' fill="' + fill + '" stroke="#1d1b19" stroke-width="1.4"';
    if (shape === "circle") s += '<circle cx="10" cy="10" r="8"' + paint + "/>";
    else if (shape === "triangle") s += '<path d="M10 1.5 L18.5 17.5 L1.5 17.5 Z"' + paint + "/>";
    else if (shape === "square") s += '<rect x="4" y="4" width="12" height="12"' + paint + "/>";
    else if (shape === "cross")
      s += '<path d="M3 5 L5 3 L10 8 L15 3 L17 5 L12 10 L17 15 L15 17 L10 12 L5 17 L3 15 L8 10 Z"' + paint + "/>";
    else if (shape === "star")
      s += '<path d="M10 1 L12.6 7 L19 7.4 L14 11.6 L15.6 18 L10 14.5 L4.4 18 L6 11.6 L1 7.4 L7.4 7 Z"' + paint + "/>";
    else if (shape === "hexagon") s += '<path d="M5 2 L15 2 L19 10 L15 18 L5 18 L1 10 Z"' + paint + "/>";
    else s += '<path d="M10 1 L19 10 L10 19 L1 10 Z"' + paint + "/>";
    return s + "</svg>";
  }

  // SVG markup for an event mark: a white disc with a symbol in the colour of who did it.
  function markSvg(kind, color, px) {
    var s = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="' + px + '" height="' + px +
      '" aria-hidden="true" focusable="false"><circle cx="12" cy="12" r="11" fill="#fffdf6" stroke="' + color +
      '" stroke-width="2"/>';
    var ink = ' fill="none" stroke="' + color + '" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"';
    if (kind === "battle") s += '<path d="M6 6 L18 18 M18 6 L6 18 M5 9 L9 5 M15 5 L19 9"' + ink + "/>";
    else if (kind === "siege") s += '<path d="M6 18 L6 9 L8 9 L8 11 L11 11 L11 9 L13 9 L13 11 L16 11 L16 9 L18 9 L18 18 Z"' + ink + "/>";
    else if (kind === "capture") s += '<path d="M7 19 L7 5 M7 5 L17 8 L7 12"' + ink + "/>";
    else if (kind === "raid") s += '<path d="M12 4 L14 10 L19 10 L15 14 L17 20 L12 16 L7 20 L9 14 L5 10 L10 10 Z"' + ink + "/>";
    else if (kind === "raze") s += '<path d="M12 4 C16 9 17 12 15 16 C14 18 10 18 9 16 C7 13 10 11 11 8 C9 11 7 13 8 16"' + ink + "/>";
    else if (kind === "founded") s += '<path d="M12 5 L12 19 M5 12 L19 12"' + ink + "/>";
    else if (kind === "march") s += '<path d="M5 12 L18 12 M13 7 L18 12 L13 17"' + ink + "/>";
    else if (kind === "support") s += '<path d="M12 19 L12 6 M7 11 L12 6 L17 11 M7 19 L17 19"' + ink + "/>";
    else if (kind === "convoy") s += '<path d="M4 14 C8 18 16 18 20 14 M12 5 L12 14 M8 9 L16 9"' + ink + "/>";
    else if (kind === "hold") s += '<circle cx="12" cy="12" r="6"' + ink + '/><circle cx="12" cy="12" r="2"' + ink + "/>";
    else if (kind === "dislodged") s += '<path d="M6 18 L12 6 L18 18 Z M12 10 L12 14 M10 16 L14 12"' + ink + "/>";
    else if (kind === "build") s += '<path d="M12 5 L12 19 M5 12 L19 12 M8 8 L16 8"' + ink + "/>";
    else if (kind === "disband") s += '<path d="M6 12 L18 12 M7 7 L17 17"' + ink + "/>";
    else s += '<circle cx="12" cy="12" r="4"' + ink + "/>";
    return s + "</svg>";
  }

  function shapeOf(kind, index) {
    return SHAPES[kind] || SPARE_SHAPES[index % SPARE_SHAPES.length];
  }

  // Where a piece stands among a stack's: named places first, in the order of NAMED, then the others as
  // they come (the sort is stable).
  function namedRank(kind) {
    var at = NAMED.indexOf(kind);
    return at < 0 ? NAMED.length : at;
  }

  function title(kind) {
    return kind.charAt(0).toUpperCase() + kind.slice(1).replace(/_/g, " ");
  }

  function overlaps(a, b) {
    return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  }

  window.campaignMap = function (map, data) {
    var options = hashOptions();
    var controls = options.controls || "all";
    var last = data.turns.length - 1;
    var index = last;
    if (options.turn !== undefined) {
      for (var t = 0; t < data.turns.length; t++) if (String(data.turns[t].turn) === options.turn) index = t;
    }
    var container = map.getContainer();
    container.setAttribute("role", "application");
    container.setAttribute("aria-roledescription", "map");
    var unit = data.cell;
    var areas = data.areas || [];
    var axes = data.axes || [];
    var markKinds = data.markKinds || [];
    var drawnKinds = data.drawnKinds || ["march"];
    // Kinds drawn as lines over the map (marches, supports, convoys, holds): their sentence joins what
    // stands where they point, as a march's does.
    function isDrawn(m) {
      return drawnKinds.indexOf(markKinds[m[0]]) >= 0;
    }
    // The place a mark belongs to: a support's, a convoy's or a hold's unit (the first place of its path),
    // else the last place (where a march ends).
    function endOf(m) {
      var kind = markKinds[m[0]];
      var path = m[1];
      return kind === "support" || kind === "convoy" || kind === "hold" ? path[0] : path[path.length - 1];
    }
    var allMarks = data.marks || [];

    function owner(i) {
      return i >= 0 ? data.factions[i] : null;
    }

    // Who holds a tile in the turn shown: a faction, or null (nobody, or a world whose tiles are not held).
    var holders = data.holders || [];
    var held = holders.some(function (row) {
      return row.length > 0;
    });

    // The turn bar: above the map and before it in the page, so it comes first in tab order and never
    // covers a piece however the map is moved.
    var bar = null;
    if (controls === "all" && last > 0) {
      bar = node("div", "cm-bar");
      var id = "cm-turn";
      var label = node("label", "cm-slider-label", data.turns[index].label); // its full height from the start
      label.setAttribute("for", id);
      var row = node("div", "cm-slider-row");
      var prev = node("button", "cm-step", "\u2039");
      prev.type = "button";
      prev.setAttribute("aria-label", "Previous turn");
      var input = node("input");
      input.type = "range";
      input.id = id;
      input.min = "0";
      input.max = String(last);
      input.step = "1";
      var next = node("button", "cm-step", "\u203a");
      next.type = "button";
      next.setAttribute("aria-label", "Next turn");
      row.appendChild(prev);
      row.appendChild(input);
      row.appendChild(next);
      bar.appendChild(label);
      bar.appendChild(row);
      input.addEventListener("input", function () {
        draw(Number(input.value));
      });
      prev.addEventListener("click", function () {
        if (index > 0) draw(index - 1);
      });
      next.addEventListener("click", function () {
        if (index < last) draw(index + 1);
      });
      container.parentNode.insertBefore(bar, container);
      document.body.classList.add("cm-has-bar");
      bar = { box: bar, input: input, label: label, prev: prev, next: next };
      map.invalidateSize();
    }

    // The legend: open on wide screens, where the first view leaves room for it.
    var legendBox = null;
    var legendChosen = false;
    function roomy() {
      return map.getSize().x > 760;
    }
    if (controls === "all" || controls === "legend") {
      var Legend = L.Control.extend({
        options: { position: "topright" },
        onAdd: function () {
          var box = node("details", "cm-legend");
          if (roomy()) box.open = true;
          var summary = node("summary", null, "Legend");
          // A click (or Enter or Space) on the summary is the reader's choice, which a new size keeps.
          summary.addEventListener("click", function () {
            legendChosen = true;
          });
          box.appendChild(summary);
          var list = node("ul");
          function item(swatch, text) {
            var li = node("li");
            li.appendChild(swatch);
            li.appendChild(node("span", null, text));
            list.appendChild(li);
          }
          data.factions.forEach(function (f) {
            var sw = node("span", "cm-swatch");
            sw.style.background = f.color;
            item(sw, f.name);
          });
          data.terrains.forEach(function (t) {
            var sw = node("span", "cm-swatch cm-terrain");
            sw.style.background = t[1];
            item(sw, title(t[0]));
          });
          data.kinds.forEach(function (kind, i) {
            var icon = node("span", "cm-key");
            icon.innerHTML = shapeSvg(shapeOf(kind, i), "#ffffff", 14);
            item(icon, title(kind));
          });
          var used = {};
          allMarks.forEach(function (rows) {
            rows.forEach(function (m) {
              used[markKinds[m[0]]] = true;
            });
          });
          MARK_ORDER.forEach(function (kind) {
            if (!used[kind]) return;
            var icon = node("span", "cm-key");
            icon.innerHTML = markSvg(kind, "#3b352f", 14);
            item(icon, MARK_NAMES[kind]);
          });
          var told = {};
          allMarks.forEach(function (rows) {
            rows.forEach(function (m) {
              if (m[4]) told[m[4]] = true;
            });
          });
          ["failed", "illegal"].forEach(function (outcome) {
            if (!told[outcome]) return;
            var icon = node("span", "cm-key");
            icon.innerHTML =
              '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="14" height="14" aria-hidden="true"' +
              ' focusable="false"><path d="M2 12 L22 12" stroke="#3b352f" stroke-width="2.5" stroke-dasharray="' +
              OUTCOME_DASH[outcome].replace(" ", ",") + '"/><path d="M8 7 L16 17 M16 7 L8 17" stroke="#3b352f"' +
              ' stroke-width="2"/></svg>';
            item(icon, OUTCOME_NAMES[outcome]);
          });
          if (held) {
            // The holder layer in words: a province tinted and edged in a faction's colour is that
            // faction's; a plain one is nobody's.
            var tint = node("span", "cm-swatch cm-held");
            item(tint, "Tint and edge: the province's holder");
            item(node("span", "cm-swatch cm-unheld"), "No tint: held by nobody");
          }
          if (data.places.some(function (p) { return p[4]; })) {
            var centre = node("span", "cm-key");
            centre.innerHTML =
              '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 12 12" width="12" height="12" aria-hidden="true"' +
              ' focusable="false"><circle cx="6" cy="6" r="4" fill="#fffdf6" stroke="#3b352f" stroke-width="2"/></svg>';
            item(centre, data.markedPlaces || "Marked place");
          }
          var lit = node("span", "cm-swatch cm-lit");
          item(lit, "Changed in the turn shown");
          box.appendChild(list);
          L.DomEvent.disableClickPropagation(box);
          L.DomEvent.disableScrollPropagation(box);
          legendBox = box;
          return box;
        },
      });
      map.addControl(new Legend());
    }

    // The first view shows the whole world. Room for the zoom buttons on the left and an open legend on
    // the right, so neither covers a piece; and as much room on the right as on the left when the legend
    // is closed, since the names of the provinces along the east edge stand out past it (a phone's first
    // view used to cut them off).
    var EDGE = 44;
    var fitting = false;
    var moved = false; // the reader moved or zoomed the map: a new size then keeps their view
    function fit() {
      // A frame with no size yet (hidden, or not laid out) has no view to fit: Leaflet's zoom would be NaN.
      var now = map.getSize();
      if (!now.x || !now.y) return;
      var right = legendBox && legendBox.open ? Math.max(legendBox.offsetWidth + 16, EDGE) : EDGE;
      fitting = true;
      map.fitBounds(data.bounds, { paddingTopLeft: [EDGE, 8], paddingBottomRight: [right, 8], animate: false });
      fitting = false;
    }
    // Leaflet measures a new size itself (keeping the centre) without starting a move: only what the
    // reader does, or fit(), starts one.
    map.on("movestart zoomstart", function () {
      if (!fitting) moved = true;
    });
    fit();

    // The terrain: one polygon a tile, its name and terrain in a tooltip; never a tab stop.
    function infoTable(rows) {
      var box = node("table", "cm-tile");
      rows.forEach(function (row) {
        var tr = node("tr");
        tr.appendChild(node("th", null, row[0]));
        tr.appendChild(node("td", null, row[1]));
        box.appendChild(tr);
      });
      return box;
    }

    // A place inside another (a city inside its hex) is told as such: its kind and where it lies.
    var insideOf = {};
    (data.inner || []).forEach(function (pair) {
      insideOf[pair[0]] = pair[1];
    });
    function tileRows(tile, t) {
      if (t in insideOf) {
        return [
          ["Place", tile[1]],
          ["Kind", title(data.terrains[tile[2]][0])],
          ["Inside", data.tiles[insideOf[t]][1]],
        ];
      }
      return [
        ["Tile", tile[1]],
        ["Terrain", title(data.terrains[tile[2]][0])],
        ["Place", tile[3] || "\u2014"],
      ];
    }

    function holderOf(t, i) {
      var row = holders[i] || [];
      return t < row.length ? owner(row[t]) : null;
    }

    var terrainLayer = L.layerGroup().addTo(map);
    // Where tiles are provinces that someone holds, their borders are drawn plainly: two neighbouring
    // provinces of one terrain never read as one field.
    var plain = held
      ? { fillOpacity: 1.0, color: "#3b352f", weight: 1.6, opacity: 0.9 }
      : { fillOpacity: 1.0, color: "#6b6256", weight: 0.6, opacity: 0.5 };
    var lit = { weight: 2.5, opacity: 1.0, color: "#222222" };
    // Chromium makes an SVG shape with focus listeners (Leaflet adds them for tooltips) a tab stop: a
    // tile is never one, the pieces are what a keyboard reader steps through.
    function noTabStop(polygon) {
      polygon.getElement().setAttribute("tabindex", "-1");
    }
    function hoverable(polygon, normal) {
      polygon.on("mouseover", function () {
        polygon.setStyle(lit);
      });
      polygon.on("mouseout", function () {
        polygon.setStyle(normal);
      });
    }
    data.tiles.forEach(function (tile, t) {
      var polygon = L.polygon(tile[0], L.extend({ fillColor: data.terrains[tile[2]][1], smoothFactor: 0 }, plain));
      polygon.bindTooltip(
        function () {
          var who = holderOf(t, index);
          var rows = tileRows(tile, t);
          return infoTable(held ? rows.concat([["Held by", who ? who.name : "nobody"]]) : rows);
        },
        { sticky: true }
      );
      hoverable(polygon, plain);
      terrainLayer.addLayer(polygon);
      noTabStop(polygon);
      polygon.getElement().setAttribute("data-tile", tile[1]); // what tests and a reader's tools read back
    });

    // Areas: the parts of a location where pieces stand (a locale's locations, say), drawn inside it.
    var areaStyle = { fill: true, fillOpacity: 0.0, color: "#4a4238", weight: 1, opacity: 0.55, dashArray: "3 3" };
    areas.forEach(function (area) {
      var polygon = L.polygon(area[0], L.extend({ smoothFactor: 0, className: "cm-area" }, areaStyle));
      var tile = data.tiles[area[2]];
      polygon.bindTooltip(infoTable([["Location", data.strings[area[1]]]].concat(tileRows(tile).slice(1))), {
        sticky: true,
      });
      hoverable(polygon, areaStyle);
      terrainLayer.addLayer(polygon);
      noTabStop(polygon);
      polygon.getElement().setAttribute("data-area", data.strings[area[1]]);
    });

    // Column and row names around a grid, as its tile names are made of them ("A10").
    var axisLayer = L.layerGroup().addTo(map);
    axes.forEach(function (axis) {
      axisLayer.addLayer(
        L.marker([axis[1], axis[2]], {
          icon: L.divIcon({ className: "cm-coord", html: node("span", null, axis[0]), iconSize: null, iconAnchor: [0, 0] }),
          interactive: false,
          keyboard: false,
        })
      );
    });

    // Named places: a dot and a name that shows once the map is zoomed in far enough to read it.
    var placeLayer = L.layerGroup().addTo(map);
    data.places.forEach(function (p) {
      var dot = L.circleMarker([p[1], p[2]], {
        radius: p[3] ? 2.5 : 0,
        stroke: false,
        fillColor: "#3b352f",
        fillOpacity: 0.8,
        interactive: false,
      });
      dot.bindTooltip(node("span", null, p[0]), {
        permanent: true,
        direction: p[3] ? "right" : "center",
        className: "cm-place",
        // A province's name sits above its centre, where its pieces stand.
        offset: p[3] ? [3, 0] : [0, -18],
      });
      placeLayer.addLayer(dot);
      if (p[4]) {
        // A marked place (a supply centre): a small ring just above its name, where no piece stands.
        var ring = L.marker([p[1], p[2]], {
          icon: L.divIcon({
            className: "cm-place-ring",
            html:
              '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 12 12" width="12" height="12" aria-hidden="true"' +
              ' focusable="false"><circle cx="6" cy="6" r="4" fill="#fffdf6" stroke="#3b352f" stroke-width="2"/></svg>',
            iconSize: [12, 12],
            iconAnchor: [6, 38],
          }),
          interactive: false,
          keyboard: false,
          zIndexOffset: -3000,
        });
        placeLayer.addLayer(ring);
        ring.getElement().setAttribute("aria-hidden", "true");
      }
    });

    // Holders: each held province tinted and edged in its holder's colour, for the turn shown. Drawn
    // only, like the terrain: the tile's tooltip names the holder.
    var holderLayer = L.layerGroup().addTo(map);
    function drawHolders(i) {
      holderLayer.clearLayers();
      data.tiles.forEach(function (tile, t) {
        var who = holderOf(t, i);
        if (!who) return;
        var shape = L.polygon(tile[0], {
          className: "cm-holder",
          fillColor: who.color,
          fillOpacity: 0.32,
          color: who.color,
          weight: 3,
          opacity: 0.85,
          interactive: false,
          smoothFactor: 0,
        });
        holderLayer.addLayer(shape);
        var el = shape.getElement();
        el.setAttribute("data-holder", who.name);
        el.setAttribute("data-tile", tile[1]);
      });
    }

    var highlightLayer = L.layerGroup().addTo(map);
    var markLayer = L.layerGroup().addTo(map);
    var pieceLayer = L.layerGroup().addTo(map);

    function describe(p) {
      var who = owner(p[2]);
      var box = node("div", "cm-info");
      box.appendChild(node("strong", null, data.strings[p[3]]));
      if (data.strings[p[4]]) box.appendChild(node("div", null, data.strings[p[4]]));
      var meta = title(data.kinds[p[1]]) + (who ? " of " + who.name : "") + " · " + where(p);
      box.appendChild(node("div", "cm-meta", meta));
      return box;
    }

    function where(p) {
      var tile = data.labels[p[0]] || p[0];
      return p[6] >= 0 ? data.strings[areas[p[6]][1]] + ", " + tile : tile;
    }

    function pieceName(p) {
      var who = owner(p[2]);
      return data.strings[p[3]] + (who ? ", " + who.name : "") + ", " + where(p);
    }

    function signature(p) {
      return [p[0], p[1], p[2], p[3], p[6]].join("|");
    }

    // Both a tooltip (pointing) and a popup (selecting): while a popup is open no tooltip shows.
    var opener = null; // the marker whose popup is open
    function bindInfo(marker, tooltip, popup, offset) {
      marker.bindTooltip(tooltip, { direction: "top", offset: [0, -offset] });
      marker.bindPopup(popup);
      marker.on("popupopen", function () {
        opener = marker;
        marker.closeTooltip();
      });
      marker.on("popupclose", function () {
        if (opener === marker) opener = null;
      });
    }
    // Escape closes the open popup wherever the focus is (Leaflet's own handler listens only while the
    // map itself has the focus, not a marker), and the focus goes back to the marker that opened it.
    document.addEventListener("keydown", function (event) {
      if (event.key !== "Escape" || !opener) return;
      var marker = opener;
      map.closePopup();
      var el = marker.getElement();
      if (el) el.focus();
      event.preventDefault();
    });
    map.on("popupopen", function () {
      container.classList.add("cm-popup-open");
      map.eachLayer(function (layer) {
        var tip = layer.getTooltip && layer.getTooltip();
        if (tip && !tip.options.permanent && layer.isTooltipOpen()) layer.closeTooltip();
      });
    });
    map.on("popupclose", function () {
      container.classList.remove("cm-popup-open");
    });

    function pixelsPerUnit() {
      return Math.pow(2, map.getZoom());
    }

    // Where the pieces of one place stand: an area's cells, nearest its middle first, or a ring around
    // a tile's centre. Too close together on screen, they become one stack.
    function spots(p, count) {
      if (p[6] >= 0) {
        var cells = areas[p[6]][3];
        if (count <= cells.length) return { at: cells.slice(0, count), gap: pixelsPerUnit() };
      }
      var at = data.locations[p[0]];
      if (p[6] >= 0) at = areas[p[6]][3][0];
      if (count === 1) return { at: [p[7] || at], gap: Infinity }; // a piece alone stands at its own point
      var radius = unit * 0.3;
      var list = [];
      for (var k = 0; k < count; k++) {
        var angle = Math.PI / 2 + (2 * Math.PI * k) / count;
        list.push([at[0] + Math.sin(angle) * radius, at[1] + Math.cos(angle) * radius]);
      }
      return { at: list, gap: 2 * radius * Math.sin(Math.PI / count) * pixelsPerUnit() };
    }

    // A piece's marker; with events that joined it (other than the marches its arrows show), a small
    // mark of the first of them in its corner.
    function pieceIcon(p, changed, count, events) {
      var kind = data.kinds[p[1]];
      var who = owner(p[2]);
      var px = kind === "settlement" ? 14 + Math.min(p[5], 6) * 2 : kind === "road" ? 12 : 16;
      var box = Math.max(px, HIT);
      var html = shapeSvg(shapeOf(kind, p[1]), who ? who.color : NEUTRAL, px);
      if (count > 1) html += '<span class="cm-count">' + count + "</span>";
      var told = (events || []).filter(function (m) {
        return !isDrawn(m);
      });
      if (told.length) {
        var doer = owner(told[0][2]);
        html += '<span class="cm-badge">' + markSvg(markKinds[told[0][0]], doer ? doer.color : NEUTRAL, 14) + "</span>";
      }
      return {
        px: px,
        box: box,
        icon: L.divIcon({
          className:
            "cm-piece cm-" + kind.replace(/[^a-z0-9_-]/gi, "") + (changed ? " cm-changed" : "") + (count > 1 ? " cm-stack" : ""),
          html: html,
          iconSize: [box, box],
          iconAnchor: [box / 2, box / 2],
        }),
      };
    }

    function addLabel(text, latlng, px) {
      var span = node("span", null, text);
      span.setAttribute("data-gap", String(px + 4)); // how far the name moves to sit left of its piece
      pieceLayer.addLayer(
        L.marker(latlng, {
          icon: L.divIcon({ className: "cm-label", html: span, iconSize: null, iconAnchor: [-px / 2 - 2, 8] }),
          interactive: false,
          keyboard: false,
        })
      );
    }

    // What a reader can point at, tap or reach with the tab key: a target stands for one or more pieces
    // and for what happened at one or more places. No two targets' boxes (HIT px or more) overlap on
    // screen: pieces too close become one stack, and a place's events too close to everything else join
    // the nearest target. WCAG 2.2's 24 px target size then holds at every zoom.
    function target(at, area) {
      return { at: at, area: area, pieces: [], changed: false, events: [], keys: {}, dx: 0, dy: 0 };
    }

    function placeName(end) {
      return end[3] >= 0 ? data.strings[areas[end[3]][1]] : data.tiles[end[2]][1];
    }

    // Pieces name their tile by id and events by index: both by the place's name here.
    function placeKey(area, tileLabel) {
      return area >= 0 ? "a" + area : "t" + tileLabel;
    }

    function eventText(m) {
      return data.strings[m[3]];
    }

    function byMarkOrder(x, y) {
      return MARK_ORDER.indexOf(markKinds[x[0]]) - MARK_ORDER.indexOf(markKinds[y[0]]);
    }

    // Pieces: a place's pieces at their spots, or one stack when the spots are too close together.
    function pieceTargets(i) {
      var rows = data.pieces[i] || [];
      var before = {};
      if (i > 0)
        (data.pieces[i - 1] || []).forEach(function (p) {
          before[signature(p)] = true;
        });
      var changed = function (p) {
        return i > 0 && !before[signature(p)];
      };
      var groups = {};
      var order = [];
      rows.forEach(function (p) {
        var key = p[6] >= 0 ? "a" + p[6] : "t" + p[0];
        if (!groups[key]) {
          groups[key] = [];
          order.push(key);
        }
        groups[key].push(p);
      });
      var targets = [];
      order.forEach(function (key) {
        var group = groups[key];
        var place = spots(group[0], group.length);
        var stacked = group.length > 1 && place.gap < GAP;
        group.forEach(function (p, k) {
          if (stacked && k > 0) {
            targets[targets.length - 1].pieces.push(p);
          } else {
            targets.push(target(stacked ? standsAt(p) : place.at[k], p[6]));
            targets[targets.length - 1].pieces.push(p);
            targets[targets.length - 1].keys[placeKey(p[6], data.labels[p[0]] || p[0])] = true;
          }
          if (changed(p)) targets[targets.length - 1].changed = true;
        });
      });
      return { targets: targets, count: rows.length };
    }

    // Every target's box on screen is GAP px wide (the widest piece): two boxes closer than that clash.
    function clash(a, b) {
      return Math.abs(a.x - b.x) < GAP && Math.abs(a.y - b.y) < GAP;
    }

    function pointOf(t) {
      return map.latLngToContainerPoint(t.at).add([t.dx, t.dy]);
    }

    // Where a place's mark may stand, around the place's middle (where its pieces stand): up and to the
    // right first, then the other sides.
    var MARK_SPOTS = [
      [1, -1], [-1, -1], [1, 1], [-1, 1], [1, 0], [-1, 0], [0, -1], [0, 1],
    ];

    function layOut(i) {
      var made = pieceTargets(i);
      var placed = [];
      // Pieces first: one that clashes with a target already placed joins it.
      made.targets.forEach(function (t) {
        var point = pointOf(t);
        for (var k = 0; k < placed.length; k++) {
          if (clash(point, placed[k].point)) {
            var into = placed[k].target;
            into.pieces = into.pieces.concat(t.pieces);
            into.changed = into.changed || t.changed;
            L.extend(into.keys, t.keys);
            return;
          }
        }
        placed.push({ point: point, target: t });
      });
      // Then what happened, a group of events for each place.
      var rows = allMarks[i] || [];
      var bySpot = {};
      var spotOrder = [];
      rows.forEach(function (m) {
        var end = endOf(m);
        var key = end[3] >= 0 ? "a" + end[3] : "t" + end[2];
        if (!bySpot[key]) {
          bySpot[key] = { end: end, events: [] };
          spotOrder.push(key);
        }
        bySpot[key].events.push(m);
      });
      spotOrder.forEach(function (key) {
        var group = bySpot[key];
        group.events.sort(byMarkOrder);
        var join = function (into) {
          into.events = into.events.concat(group.events);
        };
        // Marches only: the arrow points at the place, whose pieces tell where they came from.
        var marches = group.events.every(isDrawn);
        if (marches) {
          var home = placed.filter(function (entry) {
            return entry.target.keys[placeKey(group.end[3], data.tiles[group.end[2]][1])];
          })[0];
          if (home) return join(home.target);
        }
        var t = target([group.end[0], group.end[1]], group.end[3]);
        var middle = pointOf(t);
        for (var s = 0; s < MARK_SPOTS.length; s++) {
          var point = middle.add([MARK_SPOTS[s][0] * GAP, MARK_SPOTS[s][1] * GAP]);
          var free = placed.every(function (entry) {
            return !clash(point, entry.point);
          });
          if (free) {
            t.dx = point.x - middle.x;
            t.dy = point.y - middle.y;
            join(t);
            placed.push({ point: point, target: t });
            return;
          }
        }
        // No room anywhere around it: the nearest target tells it too.
        var nearest = placed[0];
        placed.forEach(function (entry) {
          if (entry.point.distanceTo(middle) < nearest.point.distanceTo(middle)) nearest = entry;
        });
        if (nearest) return join(nearest.target);
        placed.push({ point: middle, target: t });
        join(t);
      });
      return { targets: placed.map(function (entry) { return entry.target; }), pieces: made.count, marks: rows.length };
    }

    function eventList(t) {
      var box = node("div", "cm-events");
      t.events.forEach(function (m) {
        box.appendChild(node("div", "cm-event", eventText(m)));
      });
      return box;
    }

    // A target's tooltip and popup: what happened there, then what stands there.
    function targetInfo(t, full) {
      var box = node("div", t.pieces.length > 1 && full ? "cm-stack-info" : "cm-info");
      if (t.events.length) box.appendChild(eventList(t));
      if (t.pieces.length === 1) {
        box.appendChild(describe(t.pieces[0]));
      } else if (t.pieces.length > 1 && full) {
        t.pieces.forEach(function (p) {
          box.appendChild(describe(p));
        });
      } else if (t.pieces.length > 1) {
        var places = {};
        t.pieces.forEach(function (p) {
          places[where(p)] = true;
        });
        var names = Object.keys(places);
        var summary = node("div", "cm-info");
        summary.appendChild(node("strong", null, t.pieces.length + " pieces at " + names.join("; ")));
        t.pieces.forEach(function (p) {
          summary.appendChild(node("div", null, data.strings[p[3]]));
        });
        box.appendChild(summary);
      }
      return box;
    }

    function markerOf(t) {
      var markerOptions = { keyboard: true, riseOnHover: true };
      if (!t.pieces.length) {
        var top = t.events[0];
        var who = owner(top[2]);
        markerOptions.icon = L.divIcon({
          className: "cm-mark cm-mark-" + markKinds[top[0]],
          html: markSvg(markKinds[top[0]], who ? who.color : NEUTRAL, HIT),
          iconSize: [HIT, HIT],
          iconAnchor: [HIT / 2 - t.dx, HIT / 2 - t.dy],
        });
        markerOptions.zIndexOffset = -1000; // under the pieces, should a piece ever come near
        return { marker: L.marker(t.at, markerOptions), box: HIT };
      }
      // One piece, or a stack: a named place among them gives it its shape and name.
      var first = t.pieces.slice().sort(function (a, b) {
        return namedRank(data.kinds[a[1]]) - namedRank(data.kinds[b[1]]);
      })[0];
      var made = pieceIcon(first, t.changed, t.pieces.length, t.events);
      markerOptions.icon = made.icon;
      return { marker: L.marker(t.at, markerOptions), box: made.box, first: first };
    }

    function drawTargets(i) {
      pieceLayer.clearLayers();
      markLayer.clearLayers();
      var laid = layOut(i);
      laid.targets.forEach(function (t) {
        var made = markerOf(t);
        var marker = made.marker;
        bindInfo(marker, targetInfo(t, false), targetInfo(t, true), made.box / 2);
        if (made.first && NAMED.indexOf(data.kinds[made.first[1]]) >= 0)
          addLabel(data.strings[made.first[3]], t.at, made.box);
        (t.pieces.length ? pieceLayer : markLayer).addLayer(marker);
        var el = marker.getElement();
        if (!el) return;
        var said = t.events.map(eventText);
        if (t.pieces.length === 1) said.push(pieceName(t.pieces[0]));
        if (t.pieces.length > 1) said.push(t.pieces.length + " pieces: " + t.pieces.map(pieceName).join("; "));
        el.setAttribute("aria-label", said.join(" "));
        el.setAttribute("data-count", String(t.pieces.length));
        if (t.area >= 0 && t.pieces.length) el.setAttribute("data-area", data.strings[areas[t.area][1]]);
        if (t.events.length) {
          // What the tests and a reader's tools can read back: each event's place, kind and sentence.
          el.setAttribute(
            "data-events",
            JSON.stringify(
              t.events.map(function (m) {
                return [placeName(endOf(m)), markKinds[m[0]], eventText(m)].concat(m[4] ? [m[4]] : []);
              })
            )
          );
        }
      });
      return laid;
    }

    function standsAt(p) {
      if (p[7]) return p[7];
      return p[6] >= 0 ? areas[p[6]][3][0] : data.locations[p[0]];
    }

    // The turn's moves and changed places, drawn only: an arrow for each march along its path, pointing
    // the way, and an outline around each place where something happened. None of it takes a pointer or
    // a tab stop; the march's sentence belongs to the target at its end.
    function drawPaths(i) {
      highlightLayer.clearLayers();
      var outlined = {};
      (allMarks[i] || []).forEach(function (m) {
        var who = owner(m[2]);
        var kind = markKinds[m[0]];
        var outcome = m[4];
        var color = outcome === "illegal" ? NEUTRAL : who ? who.color : NEUTRAL;
        var path = m[1];
        var end = path[path.length - 1];
        var key = end[3] >= 0 ? "a" + end[3] : "t" + end[2];
        if (!outlined[key]) {
          outlined[key] = true;
          var shape = end[3] >= 0 ? areas[end[3]][0] : data.tiles[end[2]][0];
          highlightLayer.addLayer(
            L.polygon(shape, { className: "cm-highlight", fill: false, color: "#f2b705", weight: 3.5, opacity: 0.95, interactive: false, smoothFactor: 0 })
          );
        }
        // A mark without an outcome is drawn dashed, as marches always were; a told outcome picks its dash.
        var dash = outcome in OUTCOME_DASH ? OUTCOME_DASH[outcome] : "7 5";
        var crossed = outcome === "failed" || outcome === "illegal";
        var at = function (k) {
          return [path[k][0], path[k][1]];
        };
        if (kind === "hold") {
          var ring = L.circleMarker(at(0), {
            className: "cm-arrow cm-hold" + (outcome ? " cm-" + outcome : ""),
            radius: 15, color: color, weight: 3, opacity: 0.95, fill: false, dashArray: dash, interactive: false,
          });
          highlightLayer.addLayer(ring);
          if (crossed) highlightLayer.addLayer(crossAt(at(0), color, 0, 14));
          return;
        }
        var line;
        if (kind === "support" || kind === "convoy") {
          // From the unit that helps to the middle of the move it helps, or to the unit it helps hold.
          if (path.length < 2) return;
          var aim = path.length > 2 ? [(path[1][0] + path[2][0]) / 2, (path[1][1] + path[2][1]) / 2] : at(1);
          line = [at(0), aim];
        } else if (kind === "march") {
          if (path.length < 2) return;
          line = path.map(function (p) {
            return [p[0], p[1]];
          });
        } else return;
        var thin = kind === "support" || kind === "convoy";
        highlightLayer.addLayer(
          L.polyline(line, {
            className: "cm-arrow cm-" + kind + (outcome ? " cm-" + outcome : ""),
            color: color, weight: thin ? 2 : 3, opacity: 0.9, dashArray: dash, interactive: false,
          })
        );
        var a = line[line.length - 2], b = line[line.length - 1];
        var angle = (Math.atan2(-(b[0] - a[0]), b[1] - a[1]) * 180) / Math.PI;
        // A march's head half way along its last step points the way; a support's or a convoy's sits at
        // its tip, on the arrow or unit it points at.
        var tip = thin ? b : [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
        var px = thin ? 13 : 18;
        var head = L.marker(tip, {
          icon: L.divIcon({
            className: "cm-arrowhead",
            html:
              '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="' + px + '" height="' + px + '"' +
              ' aria-hidden="true" focusable="false" style="transform: rotate(' + angle.toFixed(1) + 'deg)">' +
              (thin
                ? '<path d="M4 6 L20 12 L4 18" fill="none" stroke="' + color + '" stroke-width="3"/></svg>'
                : '<path d="M5 5 L20 12 L5 19 L9 12 Z" fill="' + color + '" stroke="#1d1b19" stroke-width="1.2"/></svg>'),
            iconSize: [px, px],
            iconAnchor: [px / 2, px / 2],
          }),
          interactive: false,
          keyboard: false,
          zIndexOffset: -2000,
        });
        highlightLayer.addLayer(head);
        head.getElement().setAttribute("aria-hidden", "true");
        if (crossed) {
          var mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
          highlightLayer.addLayer(crossAt(thin ? [(a[0] + 3 * b[0]) / 4, (a[1] + 3 * b[1]) / 4] : mid, color, angle, 16));
        }
      });
    }

    // A cross over a failed or illegal order's line, so it reads as failed without colour or dashes.
    function crossAt(latlng, color, angle, px) {
      var cross = L.marker(latlng, {
        icon: L.divIcon({
          className: "cm-arrowhead cm-cross",
          html:
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="' + px + '" height="' + px + '"' +
            ' aria-hidden="true" focusable="false" style="transform: rotate(' + angle.toFixed(1) + 'deg)">' +
            '<path d="M5 5 L19 19 M19 5 L5 19" stroke="#fffdf6" stroke-width="6" stroke-linecap="round"/>' +
            '<path d="M5 5 L19 19 M19 5 L5 19" stroke="' + color + '" stroke-width="3" stroke-linecap="round"/></svg>',
          iconSize: [px, px],
          iconAnchor: [px / 2, px / 2],
        }),
        interactive: false,
        keyboard: false,
        zIndexOffset: -1900,
      });
      return cross;
    }

    // Names never overlap one another: the grid's names first, then settlements, then places; a name
    // that would overlap one already shown (or a piece) tries the other side, else waits for a closer zoom.
    function declutter() {
      var shown = [];
      var obstacles = [];
      container.querySelectorAll(".cm-piece, .cm-mark, .cm-arrowhead").forEach(function (el) {
        obstacles.push(el.getBoundingClientRect());
      });
      // A settlement's name beside a piece near the world's east edge would stand out past it (and out
      // of a phone's first view): it takes the piece's other side. Measured against the world, not the
      // frame, so that panning never changes which side a name is on.
      var frame = container.getBoundingClientRect();
      var east = frame.left + map.latLngToContainerPoint(L.latLng(data.bounds[1])).x;
      function free(rect, againstPieces) {
        if (!rect.width) return false;
        for (var k = 0; k < shown.length; k++) if (overlaps(rect, shown[k])) return false;
        if (againstPieces)
          for (var o = 0; o < obstacles.length; o++) if (overlaps(rect, obstacles[o])) return false;
        return true;
      }
      var groups = [
        [".cm-coord", false],
        [".cm-label", true],
        [".leaflet-tooltip.cm-place", true],
      ];
      groups.forEach(function (group) {
        container.querySelectorAll(group[0]).forEach(function (el) {
          var span = el.querySelector("[data-gap]");
          var text = el.querySelector("span") || el;
          el.classList.remove("cm-hidden");
          if (span) span.style.transform = "";
          var rect = text.getBoundingClientRect();
          if (!rect.width) return; // hidden at this zoom
          var inside = !span || rect.right <= east + 4;
          if (inside && free(rect, group[1])) return shown.push(rect);
          if (span) {
            var width = span.getBoundingClientRect().width;
            span.style.transform = "translateX(" + -(width + Number(span.getAttribute("data-gap"))) + "px)";
            rect = span.getBoundingClientRect();
            if (free(rect, group[1])) return shown.push(rect);
            span.style.transform = "";
          }
          el.classList.add("cm-hidden");
        });
      });
    }

    // The page around the map's frame lists what stands on the map after the latest turn: it is told
    // which turn the slider shows, so that its words can say so (campaign.js).
    function tellThePage(turn, latest) {
      if (window.parent === window) return;
      window.parent.postMessage({ campaignMap: { turn: turn.turn, label: turn.label, latest: latest } }, "*");
    }

    function draw(i) {
      index = i;
      drawHolders(i);
      drawPaths(i);
      var laid = drawTargets(i);
      container.setAttribute("data-turn", String(data.turns[i].turn));
      container.setAttribute("data-pieces", String(laid.pieces));
      container.setAttribute("data-marks", String(laid.marks));
      tellThePage(data.turns[i], i === last);
      if (bar) {
        bar.input.value = String(i);
        bar.input.setAttribute("aria-valuetext", data.turns[i].label);
        bar.label.textContent = data.turns[i].label;
        bar.prev.disabled = i === 0;
        bar.next.disabled = i === last;
      }
      declutter();
    }

    function zoomClass() {
      // Names are unreadable when the map is small: show them only from a comfortable zoom.
      var px = unit * pixelsPerUnit();
      container.classList.toggle("cm-far", px < 40);
      container.classList.toggle("cm-very-far", px < 22);
    }
    map.on("zoomend", function () {
      zoomClass();
      draw(index);
    });

    // The page may change the map's size after it is drawn (late fonts in the turn bar, a phone turned
    // on its side): Leaflet then measures it again, so shapes and pieces stay where they belong.
    // A view the reader never moved from fits the whole world again at the new size: kept as it was, the
    // zoom chosen for a wider frame cut the east of the world off once a phone was turned upright, a
    // window narrowed or the page settled after the map was drawn. A view the reader chose keeps its
    // centre.
    if ("ResizeObserver" in window) {
      var size = map.getSize();
      new ResizeObserver(function () {
        var now = { x: container.clientWidth, y: container.clientHeight };
        if (now.x === size.x && now.y === size.y) return;
        size = now;
        if (!now.x || !now.y) return; // hidden: measured again once it shows
        if (!moved) {
          map.invalidateSize({ pan: false });
          if (legendBox && !legendChosen) legendBox.open = roomy();
          fit();
          draw(index); // the zoom may be the same, the pieces' places on screen are not
        } else {
          map.invalidateSize();
          declutter();
        }
      }).observe(container);
    }

    zoomClass();
    draw(index);
  };
})();
