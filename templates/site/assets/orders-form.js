/* The "Send orders" form of a faction's page, in an open campaign.
 *
 * The page holds <div id="ck-send-orders" data-...> with where to find the order files' JSON Schema
 * (play/orders.schema.json), the faction's current template (play/templates/<faction>.yaml) and the
 * campaign's repository. This script builds a form from the schema with JSON Editor, fills it with the
 * template, checks the orders against the schema when the player asks, writes them as YAML with js-yaml,
 * and offers the GitHub way to send them:
 *
 * - a link to GitHub's "new file" page with orders/<faction>.yaml already written (GitHub forks the
 *   repository for a player who cannot push to it, and then offers the pull request), when the whole
 *   address fits under URL_LIMIT;
 * - otherwise the YAML to copy into the campaign's "Orders" issue form, which a workflow turns into a
 *   pull request under the player's name (.github/workflows/orders-from-issue.yml).
 *
 * Both libraries are served by the site itself (assets/campaign/vendor/form/): nothing loads from outside.
 * A sealed campaign gets no form yet: its orders must be sealed in the browser first (see the README).
 * The seam for it is showYaml: a sealed variant seals the YAML there instead of linking it, padded to the
 * one size of a sealed order file as `campaign seal` pads it (resolver/store/sealing.py), which no
 * address and no issue body can carry (about 90 KB armoured): it offers the file to download and GitHub's
 * upload page (OWNER/REPO/upload/main/orders) instead.
 */
(function () {
  "use strict";

  // GitHub answers 414 (URI Too Long) past 8,192 bytes of address; the margin leaves room for the request
  // line and for a browser that adds to it. The address is ASCII (percent-encoded), so characters = bytes.
  var URL_LIMIT = 8000;

  var box = document.getElementById("ck-send-orders");
  if (!box) return;
  var status = box.querySelector(".ck-form-status");
  var holder = box.querySelector(".ck-form-editor");
  var checkButton = box.querySelector(".ck-form-check");
  var result = box.querySelector(".ck-form-result");

  function say(text) {
    status.textContent = text;
  }

  if (!window.JSONEditor || !window.jsyaml || !window.fetch) {
    say("This browser cannot show the form; write your order file from the template instead.");
    return;
  }

  // The schema's player branch: the top level chooses the GM's actions or the players' with if/then/else
  // on the faction; a faction's form is never the GM's, so its orders are the "else" branch's.
  function playerSchema(schema, faction) {
    var copy = JSON.parse(JSON.stringify(schema));
    var players = ((copy["else"] || {}).properties || {}).orders;
    delete copy["if"];
    delete copy["then"];
    delete copy["else"];
    delete copy.$schema;
    if (players) copy.properties.orders = Object.assign({}, copy.properties.orders, players);
    copy.properties.faction = { "const": faction };
    ["campaign", "turn"].forEach(function (name) {
      if (copy.properties[name]) copy.properties[name].options = { hidden: true };
    });
    copy.title = "Orders";
    copy.description = "Your orders, articles and rumours for this turn; each field says what it takes.";
    return simplify(copy);
  }

  // What the form shows, field by field: an id the schema takes as text or a number becomes a text field
  // (both are read alike), and a value given either as one item or as a list becomes a list.
  function simplify(node) {
    if (Array.isArray(node)) return node.map(simplify);
    if (!node || typeof node !== "object") return node;
    var out = {};
    Object.keys(node).forEach(function (key) {
      out[key] = simplify(node[key]);
    });
    if (out.properties && typeof out.properties === "object") {
      // A field's label is its name in the file, in words ("retreat at losses").
      Object.keys(out.properties).forEach(function (name) {
        var field = out.properties[name];
        if (field && typeof field === "object" && !field.title) field.title = name.replace(/_/g, " ");
      });
    }
    if (Array.isArray(out.type) && out.type.indexOf("string") >= 0) out.type = "string";
    if (out.type === "object" && !out.properties && out.additionalProperties !== false) {
      // A record of free keys (goods to buy, units to equip): the player names each key.
      out.options = Object.assign({ disable_properties: false }, out.options);
    }
    if ("const" in out && !out.type) {
      // A fixed value (an order's action, the campaign): set, and not shown, since the choice of the
      // action above the order already says it.
      out.type = typeof out["const"] === "number" ? "integer" : typeof out["const"];
      out["default"] = out["const"];
      out.options = Object.assign({ hidden: true }, out.options);
    }
    ["anyOf", "oneOf"].forEach(function (key) {
      var options = out[key];
      if (!Array.isArray(options) || options.every(isRecord)) return;
      var list = options.filter(function (o) {
        return o.type === "array";
      })[0];
      if (!list) return;
      delete out[key];
      Object.keys(list).forEach(function (k) {
        if (!(k in out)) out[k] = list[k];
      });
    });
    return out;
  }

  function isRecord(option) {
    return option && option.type === "object";
  }

  // Values the player left empty are left out of the file, as they would be by hand.
  function prune(value) {
    if (Array.isArray(value)) return value.map(prune);
    if (!value || typeof value !== "object") return value;
    var out = {};
    Object.keys(value).forEach(function (key) {
      var v = prune(value[key]);
      if (v === undefined || v === null || v === "") return;
      out[key] = v;
    });
    return out;
  }

  // The file's parts in the template's order (campaign, turn, faction, orders...), and each order's action
  // first, as a player writes them; the schema lists its properties alphabetically.
  function inOrder(value, template) {
    var out = {};
    Object.keys(template || {})
      .concat(Object.keys(value))
      .forEach(function (key) {
        if (key in value && !(key in out)) out[key] = value[key];
      });
    if (Array.isArray(out.orders)) {
      out.orders = out.orders.map(function (order) {
        return order && typeof order === "object" ? Object.assign({ action: order.action }, order) : order;
      });
    }
    return out;
  }

  function orderYaml(value) {
    // lineWidth -1: no folded lines; noRefs: never anchors or aliases, which the check refuses. Every text
    // is quoted, as in the templates' examples: the engine reads YAML 1.1, where "no" is false, "0777" a
    // number and "2024-13-45" a date that does not exist (refused), and a quoted text is text in any YAML.
    // The YAML 1.1 schema quotes the keys it would read as something else.
    return window.jsyaml.dump(prune(value), {
      lineWidth: -1,
      noRefs: true,
      quoteStyle: "double",
      forceQuotes: true,
      schema: window.jsyaml.YAML11_SCHEMA,
    });
  }

  function describe(error) {
    var where = error.path.replace(/^root\.?/, "").replace(/\./g, " › ") || "the orders";
    return where + ": " + error.message;
  }

  function showErrors(errors) {
    result.replaceChildren();
    var heading = document.createElement("p");
    heading.textContent =
      errors.length === 1 ? "One problem to fix first:" : errors.length + " problems to fix first:";
    var list = document.createElement("ul");
    list.className = "ck-form-errors";
    errors.forEach(function (error) {
      var item = document.createElement("li");
      item.textContent = describe(error);
      list.appendChild(item);
    });
    result.append(heading, list);
    say(heading.textContent);
  }

  function link(text, href, className) {
    var a = document.createElement("a");
    a.textContent = text;
    a.href = href;
    a.className = className;
    a.rel = "noopener";
    return a;
  }

  function showYaml(yaml) {
    var data = box.dataset;
    result.replaceChildren();
    var intro = document.createElement("p");
    intro.textContent = "Your orders fit the rules' form. The file " + data.file + " reads:";
    var label = "ck-form-yaml-label";
    intro.id = label;
    var text = document.createElement("textarea");
    text.className = "ck-form-yaml";
    text.readOnly = true;
    text.rows = Math.min(24, yaml.split("\n").length + 1);
    text.value = yaml;
    text.setAttribute("aria-labelledby", label);
    result.append(intro, text);
    var next = document.createElement("p");
    var address = data.newFile
      ? data.newFile + "?filename=" + encodeURIComponent(data.file) + "&value=" + encodeURIComponent(yaml)
      : "";
    if (address && address.length <= URL_LIMIT) {
      next.append(
        "Next: ",
        link("open the pull request on GitHub", address, "ck-form-send"),
        ". GitHub shows the file, ready to commit; choose \"Propose new file\" and then \"Create pull " +
          "request\". The Orders check answers there."
      );
      if (data.issue) {
        // GitHub's new-file page refuses a name that is taken: orders already sent this turn.
        next.append(
          " If GitHub says the file exists already (you sent orders this turn), copy the text above into ",
          link("the Orders issue form", data.issue, "ck-form-issue-instead"),
          " instead."
        );
      }
      say("Your orders are ready to send as a pull request.");
    } else if (data.issue) {
      next.append(
        "These orders are too long for a link (" +
          address.length +
          " characters; GitHub takes about 8,000). Copy the text above, then ",
        link("open the Orders issue form", data.issue, "ck-form-issue"),
        ", choose your faction and paste it: a workflow turns the issue into a pull request in your name."
      );
      say("Your orders are ready: copy them into the Orders issue form.");
    } else {
      next.textContent =
        "This campaign names no GitHub repository; send the text above to your GM, or save it as " +
        data.file +
        " and open a pull request.";
      say("Your orders are ready.");
    }
    result.appendChild(next);
  }

  // JSON Editor keeps the fields of every kind of order a row has shown, hidden, with the same ids: a
  // label would then name a hidden field, and the one shown would have none. Only the field shown keeps
  // the id (the others keep it in data-ck-id, and get it back when they are shown again).
  function oneIdEach() {
    var groups = {};
    holder.querySelectorAll("[id], [data-ck-id]").forEach(function (element) {
      var id = element.getAttribute("data-ck-id") || element.id;
      (groups[id] = groups[id] || []).push(element);
    });
    Object.keys(groups).forEach(function (id) {
      var same = groups[id];
      if (same.length === 1) {
        same[0].id = id;
        return;
      }
      var shown = same.filter(function (element) {
        return element.getClientRects().length > 0;
      });
      var keeper = shown[0] || same[0];
      same.forEach(function (element) {
        element.setAttribute("data-ck-id", id);
        if (element === keeper) element.id = id;
        else element.removeAttribute("id");
      });
    });
    nameControls();
    // Their labels too: a hidden label would name the field shown, or leave it nameless.
    holder.querySelectorAll("label[for], label[data-ck-for]").forEach(function (label) {
      var target = label.getAttribute("data-ck-for") || label.htmlFor;
      label.setAttribute("data-ck-for", target);
      if (label.getClientRects().length > 0) label.htmlFor = target;
      else label.removeAttribute("for");
    });
  }

  // JSON Editor names some controls for screen readers by their place in the data ("root[press]-opt-in",
  // "root[orders][0] switcher"); they get words instead: "Include press", "Action of order 1".
  function nameControls() {
    holder.querySelectorAll("label").forEach(function (label) {
      var text = label.textContent;
      var parts = (text.match(/\[([^\]]+)\]/g) || []).map(function (part) {
        return part.slice(1, -1);
      });
      if (!parts.length) return;
      var last = parts[parts.length - 1];
      if (/-opt-in$/.test(text)) {
        label.textContent = "Include " + last.replace(/_/g, " ");
      } else if (/ switcher$/.test(text)) {
        var place = /^\d+$/.test(last) ? parts[parts.length - 2] + " " + (Number(last) + 1) : last;
        label.textContent = "Kind of " + place.replace(/^orders /, "order ").replace(/_/g, " ");
      }
    });
  }

  function start(schema, template) {
    var data = box.dataset;
    var initial = window.jsyaml.load(template) || {};
    var editor = new window.JSONEditor(holder, {
      schema: playerSchema(schema, data.faction),
      startval: initial,
      theme: "html",
      iconlib: null,
      disable_edit_json: true,
      disable_properties: true,
      disable_collapse: true,
      disable_array_delete_all_rows: true,
      disable_array_delete_last_row: true,
      prompt_before_delete: false,
      show_opt_in: true,
      show_errors: "interaction",
      use_name_attributes: true,
      keep_oneof_values: false,
    });
    editor.on("change", function () {
      window.setTimeout(oneIdEach, 0);
    });
    editor.on("ready", function () {
      oneIdEach();
      checkButton.hidden = false;
      say("The form holds your current template. Add orders, then check them.");
      box.setAttribute("data-ready", "true");
    });
    checkButton.addEventListener("click", function () {
      var errors = editor.validate();
      if (errors.length) return showErrors(errors);
      showYaml(orderYaml(inOrder(editor.getValue(), initial)));
    });
  }

  function text(response) {
    if (!response.ok) throw new Error(response.url + ": " + response.status);
    return response.text();
  }

  Promise.all([fetch(box.dataset.schema).then(text), fetch(box.dataset.template).then(text)])
    .then(function (found) {
      start(JSON.parse(found[0]), found[1]);
    })
    .catch(function (error) {
      say("The form could not load the rules' schema or your template (" + error.message + ").");
    });
})();
