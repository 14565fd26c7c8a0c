/* The campaign map: draws what stands on the map for one turn, a turn slider and a legend.
 *
 * The page's folium map calls campaignMap(map, data) once, with the JSON data the page carries in a
 * <script type="application/json"> element. Names (of tiles, places, factions, pieces) only ever reach
 * the page through textContent, never as HTML. The URL hash chooses the view:
 *   #turn=N           the turn shown first (default: the latest)
 *   controls=none     no slider and no legend (small maps); controls=legend keeps the legend only
 */
(function () {
  "use strict";

  var SHAPES = {
    settlement: "circle",
    army: "triangle",
    ruin: "cross",
    road: "square",
  };
  var SPARE_SHAPES = ["diamond", "star", "hexagon", "circle"];
  var NEUTRAL = "#6f6a64";

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

  function shapeOf(kind, index) {
    return SHAPES[kind] || SPARE_SHAPES[index % SPARE_SHAPES.length];
  }

  function title(kind) {
    return kind.charAt(0).toUpperCase() + kind.slice(1).replace(/_/g, " ");
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
    map.fitBounds(data.bounds, { padding: [8, 8] });

    // The terrain: one polygon a tile, its name and terrain in a tooltip.
    function tileInfo(tile) {
      var box = node("table", "cm-tile");
      [
        ["Tile", tile[1]],
        ["Terrain", data.terrains[tile[2]][0]],
        ["Place", tile[3] || "\u2014"],
      ].forEach(function (row) {
        var tr = node("tr");
        tr.appendChild(node("th", null, row[0]));
        tr.appendChild(node("td", null, row[1]));
        box.appendChild(tr);
      });
      return box;
    }

    var terrainLayer = L.layerGroup().addTo(map);
    var plain = { fillOpacity: 1.0, color: "#6b6256", weight: 0.6, opacity: 0.5 };
    var lit = { weight: 2.5, opacity: 1.0, color: "#222222" };
    data.tiles.forEach(function (tile) {
      var polygon = L.polygon(tile[0], L.extend({ fillColor: data.terrains[tile[2]][1], smoothFactor: 0 }, plain));
      polygon.bindTooltip(tileInfo(tile), { sticky: true });
      polygon.on("mouseover", function () {
        polygon.setStyle(lit);
      });
      polygon.on("mouseout", function () {
        polygon.setStyle(plain);
      });
      terrainLayer.addLayer(polygon);
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
    });

    var pieceLayer = L.layerGroup().addTo(map);
    var unit = data.cell;

    function owner(i) {
      return i >= 0 ? data.factions[i] : null;
    }

    function describe(p) {
      var who = owner(p[2]);
      var box = node("div", "cm-info");
      box.appendChild(node("strong", null, data.strings[p[3]]));
      if (data.strings[p[4]]) box.appendChild(node("div", null, data.strings[p[4]]));
      var meta = title(data.kinds[p[1]]) + (who ? " of " + who.name : "") + " · " + (data.labels[p[0]] || p[0]);
      box.appendChild(node("div", "cm-meta", meta));
      return box;
    }

    function draw(i) {
      index = i;
      pieceLayer.clearLayers();
      var rows = data.pieces[i] || [];
      var stacked = {};
      rows.forEach(function (p) {
        stacked[p[0]] = (stacked[p[0]] || 0) + 1;
      });
      var seen = {};
      rows.forEach(function (p) {
        var at = data.locations[p[0]];
        var n = stacked[p[0]];
        var k = (seen[p[0]] = (seen[p[0]] || 0) + 1) - 1;
        var lat = at[0], lng = at[1];
        if (n > 1) {
          // Several pieces on one tile: spread them on a small ring so each stays visible and clickable.
          var angle = Math.PI / 2 + (2 * Math.PI * k) / n;
          lat += Math.sin(angle) * unit * 0.24;
          lng += Math.cos(angle) * unit * 0.24;
        }
        var kind = data.kinds[p[1]];
        var who = owner(p[2]);
        var px = kind === "settlement" ? 14 + Math.min(p[5], 6) * 2 : kind === "road" ? 10 : 16;
        var icon = L.divIcon({
          className: "cm-piece cm-" + kind.replace(/[^a-z0-9_-]/gi, ""),
          html: shapeSvg(shapeOf(kind, p[1]), who ? who.color : NEUTRAL, px),
          iconSize: [px, px],
          iconAnchor: [px / 2, px / 2],
        });
        var marker = L.marker([lat, lng], { icon: icon, keyboard: true, riseOnHover: true });
        marker.bindTooltip(describe(p), { direction: "top", offset: [0, -px / 2] });
        marker.bindPopup(describe(p));
        if (kind === "settlement") {
          // The settlement's name under it, as a marker of its own that takes no clicks.
          var text = node("span", null, data.strings[p[3]]);
          pieceLayer.addLayer(
            L.marker([lat, lng], {
              icon: L.divIcon({ className: "cm-label", html: text, iconSize: null, iconAnchor: [-px / 2 - 2, 8] }),
              interactive: false,
              keyboard: false,
            })
          );
        }
        pieceLayer.addLayer(marker);
        var el = marker.getElement();
        if (el) {
          var name = data.strings[p[3]] + (who ? ", " + who.name : "") + ", " + (data.labels[p[0]] || p[0]);
          el.setAttribute("aria-label", name);
        }
      });
      container.setAttribute("data-turn", String(data.turns[i].turn));
      container.setAttribute("data-pieces", String(rows.length));
      if (slider) {
        slider.input.value = String(i);
        slider.input.setAttribute("aria-valuetext", data.turns[i].label);
        slider.label.textContent = data.turns[i].label;
        slider.prev.disabled = i === 0;
        slider.next.disabled = i === last;
      }
    }

    function zoomClass() {
      // Names are unreadable when the map is small: show them only from a comfortable zoom.
      var px = unit * Math.pow(2, map.getZoom());
      container.classList.toggle("cm-far", px < 40);
      container.classList.toggle("cm-very-far", px < 22);
    }
    map.on("zoomend", zoomClass);

    var slider = null;
    if (controls === "all" && last > 0) {
      var Slider = L.Control.extend({
        options: { position: "bottomleft" },
        onAdd: function () {
          var box = node("div", "cm-slider leaflet-bar");
          var id = "cm-turn";
          var label = node("label", "cm-slider-label");
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
          box.appendChild(label);
          box.appendChild(row);
          input.addEventListener("input", function () {
            draw(Number(input.value));
          });
          prev.addEventListener("click", function () {
            if (index > 0) draw(index - 1);
          });
          next.addEventListener("click", function () {
            if (index < last) draw(index + 1);
          });
          L.DomEvent.disableClickPropagation(box);
          L.DomEvent.disableScrollPropagation(box);
          slider = { input: input, label: label, prev: prev, next: next };
          return box;
        },
      });
      map.addControl(new Slider());
    }

    if (controls === "all" || controls === "legend") {
      var Legend = L.Control.extend({
        options: { position: "topright" },
        onAdd: function () {
          var box = node("details", "cm-legend");
          if (map.getSize().x > 760) box.open = true;
          box.appendChild(node("summary", null, "Legend"));
          var list = node("ul");
          data.factions.forEach(function (f) {
            var item = node("li");
            var sw = node("span", "cm-swatch");
            sw.style.background = f.color;
            item.appendChild(sw);
            item.appendChild(node("span", null, f.name));
            list.appendChild(item);
          });
          data.terrains.forEach(function (t) {
            var item = node("li");
            var sw = node("span", "cm-swatch cm-terrain");
            sw.style.background = t[1];
            item.appendChild(sw);
            item.appendChild(node("span", null, title(t[0])));
            list.appendChild(item);
          });
          data.kinds.forEach(function (kind, i) {
            var item = node("li");
            var icon = node("span", "cm-key");
            icon.innerHTML = shapeSvg(shapeOf(kind, i), "#ffffff", 14);
            item.appendChild(icon);
            item.appendChild(node("span", null, title(kind)));
            list.appendChild(item);
          });
          box.appendChild(list);
          L.DomEvent.disableClickPropagation(box);
          L.DomEvent.disableScrollPropagation(box);
          return box;
        },
      });
      map.addControl(new Legend());
    }

    draw(index);
    zoomClass();
  };
})();
