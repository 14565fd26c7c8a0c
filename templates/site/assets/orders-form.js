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
 * In a sealed campaign (data-sealed="true") the plain orders never leave the page. The form starts from
 * the schema with this turn's heading (a sealed campaign publishes no template: it shows positions), or
 * from a file the player picks on their own machine (read here, sent nowhere); it checks the orders the
 * same way, then seals the YAML with age (vendor/form/age.js) exactly as `campaign seal` seals a file
 * (resolver/store/sealing.py, whose rules the page carries in data-sealing): the text framed by PAD_MAGIC
 * and its length, zero bytes up to ORDER_FILE_SIZE, sealed to the campaign key and the faction's own
 * recipients (data-recipients: Store.recipients), armoured, and followed by line breaks up to the one
 * length its recipients give, with the room age's random "grease" stanza may take. No address and no
 * issue body can carry such a file (about 90 KB): the form offers it for download and links GitHub's
 * upload page for the orders folder, from which the player opens the pull request.
 *
 * The libraries are served by the site itself (assets/campaign/vendor/form/): nothing loads from outside.
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
  var sealed = box.dataset.sealed === "true";

  function say(text) {
    status.textContent = text;
  }

  if (!window.JSONEditor || !window.jsyaml || !window.fetch) {
    say("This browser cannot show the form; write your order file from the template instead.");
    return;
  }
  if (sealed && !(window.campaignAge && window.crypto && window.crypto.subtle && window.TextEncoder)) {
    say("This browser cannot seal orders; seal them with campaign seal instead (see the README).");
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

  // -- sealing, in a sealed campaign -------------------------------------------------------------------

  var ARMOR_BEGIN = "-----BEGIN AGE ENCRYPTED FILE-----";
  var ARMOR_END = "-----END AGE ENCRYPTED FILE-----";

  function problem(text) {
    var error = new Error(text);
    error.forPlayer = true;
    return error;
  }

  // The file as `campaign seal` writes it: sealing.pad(text, ORDER_FILE_SIZE), encrypted to every
  // recipient, armoured, then line breaks up to sealing._target_length.
  function seal(yaml, rules, recipients) {
    var age = window.campaignAge;
    var data = new TextEncoder().encode(yaml);
    if (data.length > rules.max_bytes) {
      throw problem(
        "These orders take " + data.length + " bytes; an order file may take at most " + rules.max_bytes +
          ". Shorten the press or the rumours."
      );
    }
    var head = new TextEncoder().encode(rules.magic + data.length + "\n");
    var padded = new Uint8Array(rules.size); // zero bytes after the text
    padded.set(head, 0);
    padded.set(data, head.length);
    var encrypter = new age.Encrypter();
    return Promise.all(recipients.map(recipientFor)).then(function (parsed) {
      parsed.forEach(function (recipient) {
        encrypter.addRecipient(recipient);
      });
      return encrypter.encrypt(padded).then(function (binary) {
        var armoured = age.armor.encode(binary);
        var target = armouredLength(binary.length - greaseLength(binary, rules) + rules.grease_room);
        if (armoured.length > target) throw problem("age wrote a header longer than the room kept for it.");
        return armoured + "\n".repeat(target - armoured.length);
      });
    });
  }

  // sealing.armoured_length: base64 in lines of 64 between the BEGIN and END lines.
  function armouredLength(binaryLength) {
    var characters = 4 * Math.ceil(binaryLength / 3);
    var lines = Math.ceil(characters / 64);
    return ARMOR_BEGIN.length + 1 + characters + lines + ARMOR_END.length + 1;
  }

  // sealing._grease_length: the bytes of the header's stanzas of no recipient type.
  function greaseLength(binary, rules) {
    var text = new TextDecoder("latin1").decode(binary.subarray(0, Math.min(binary.length, 65536)));
    var header = text.slice(0, text.indexOf("\n---") + 1);
    var total = 0;
    header
      .split("\n-> ")
      .slice(1)
      .forEach(function (stanza) {
        var kind = stanza.split("\n")[0].split(" ")[0];
        if (rules.recipient_types.indexOf(kind) < 0) total += stanza.length + 4;
      });
    return total;
  }

  // A recipient as age-encryption takes it: an age1… key as it is; the SSH keys age also seals to
  // (ssh-ed25519, ssh-rsa), which age-encryption does not, as the age specification wraps the file key
  // for them (C2SP age: the ssh-ed25519 and ssh-rsa recipient types), with its own primitives.
  function recipientFor(line, index) {
    var text = String(line).trim();
    var kind = text.split(/\s+/)[0];
    // An X25519 key: "age1" and bech32 data, which holds no "1" (age's other kinds, age1pq1… and
    // age1tag1…, do: the campaign's tools take none of them).
    if (/^age1[02-9ac-hj-np-z]+$/.test(text)) return text;
    if (kind === "ssh-ed25519") return sshEd25519(text);
    if (kind === "ssh-rsa") return sshRsa(text);
    throw problem(
      "Key " + (index + 1) + " of your faction's recipients is not one the form can seal to. Ask the GM " +
        "to check campaign/players.yaml (campaign doctor says which key is wrong)."
    );
  }

  var SSH_ED25519_LABEL = "age-encryption.org/v1/ssh-ed25519";
  var SSH_RSA_LABEL = "age-encryption.org/v1/ssh-rsa";

  // The key's wire form (the base64 word of the .pub line), and its fields: a string each.
  function sshFields(text) {
    var blob = window.campaignAge.base64.decode(text.split(/\s+/)[1]);
    var fields = [];
    var at = 0;
    while (at + 4 <= blob.length) {
      var size = ((blob[at] << 24) | (blob[at + 1] << 16) | (blob[at + 2] << 8) | blob[at + 3]) >>> 0;
      fields.push(blob.subarray(at + 4, at + 4 + size));
      at += 4 + size;
    }
    return { blob: blob, fields: fields };
  }

  // The first four bytes of the key's SHA-256, which its stanza names (sealing.ssh_tag).
  function sshTag(blob) {
    var age = window.campaignAge;
    return age.base64nopad.encode(age.sha256(blob).subarray(0, 4));
  }

  function utf8(text) {
    return new TextEncoder().encode(text);
  }

  function sshEd25519(text) {
    var age = window.campaignAge;
    var key = sshFields(text);
    var theirs = age.ed25519.utils.toMontgomery(key.fields[1]);
    var tweak = age.hkdf(age.sha256, new Uint8Array(0), key.blob, utf8(SSH_ED25519_LABEL), 32);
    return {
      wrapFileKey: function (fileKey) {
        var ephemeral = window.crypto.getRandomValues(new Uint8Array(32));
        var ours = age.x25519.scalarMultBase(ephemeral);
        var shared = age.x25519.scalarMult(tweak, age.x25519.scalarMult(ephemeral, theirs));
        var salt = new Uint8Array(64);
        salt.set(ours, 0);
        salt.set(theirs, 32);
        var wrapping = age.hkdf(age.sha256, shared, salt, utf8(SSH_ED25519_LABEL), 32);
        var body = age.chacha20poly1305(wrapping, new Uint8Array(12)).encrypt(fileKey);
        return [new age.Stanza(["ssh-ed25519", sshTag(key.blob), age.base64nopad.encode(ours)], body)];
      },
    };
  }

  function base64url(bytes) {
    var start = 0;
    while (start < bytes.length - 1 && bytes[start] === 0) start += 1; // an mpint's leading zero
    var plain = window.campaignAge.base64nopad.encode(bytes.subarray(start));
    return plain.replace(/\+/g, "-").replace(/\//g, "_");
  }

  function sshRsa(text) {
    var age = window.campaignAge;
    var key = sshFields(text);
    var jwk = { kty: "RSA", e: base64url(key.fields[1]), n: base64url(key.fields[2]), alg: "RSA-OAEP-256" };
    return window.crypto.subtle
      .importKey("jwk", jwk, { name: "RSA-OAEP", hash: "SHA-256" }, false, ["encrypt"])
      .then(function (publicKey) {
        return {
          wrapFileKey: function (fileKey) {
            return window.crypto.subtle
              .encrypt({ name: "RSA-OAEP", label: utf8(SSH_RSA_LABEL) }, publicKey, fileKey)
              .then(function (body) {
                return [new age.Stanza(["ssh-rsa", sshTag(key.blob)], new Uint8Array(body))];
              });
          },
        };
      });
  }

  var downloadAddress = null; // the sealed file's blob: address, given back when a new one is made

  function sealAndOffer(yaml) {
    var data = box.dataset;
    var rules = JSON.parse(data.sealing);
    var recipients = JSON.parse(data.recipients);
    result.replaceChildren();
    say("Sealing your orders…");
    var sealing;
    try {
      sealing = seal(yaml, rules, recipients);
    } catch (error) {
      sealing = Promise.reject(error);
    }
    sealing
      .then(function (armoured) {
        offerSealed(yaml, armoured);
      })
      .catch(function (error) {
        var words = error.forPlayer
          ? error.message
          : "The form could not seal the orders (" + error.message + ").";
        var line = document.createElement("p");
        line.className = "ck-form-seal-error";
        line.textContent = words;
        result.replaceChildren(line);
        say(words);
      });
  }

  function offerSealed(yaml, armoured) {
    var data = box.dataset;
    var name = data.file.split("/").pop();
    if (downloadAddress) URL.revokeObjectURL(downloadAddress);
    downloadAddress = URL.createObjectURL(new Blob([armoured], { type: "application/octet-stream" }));
    result.replaceChildren();
    var intro = document.createElement("p");
    intro.id = "ck-form-yaml-label";
    intro.textContent =
      "Your orders fit the rules' form and are sealed, here in your browser, for the campaign's key and " +
      "your faction's keys. The sealed file holds this text, which only they can read:";
    var text = document.createElement("textarea");
    text.className = "ck-form-yaml";
    text.readOnly = true;
    text.rows = Math.min(24, yaml.split("\n").length + 1);
    text.value = yaml;
    text.setAttribute("aria-labelledby", intro.id);
    var steps = document.createElement("ol");
    steps.className = "ck-form-steps";
    function step() {
      var item = document.createElement("li");
      item.append.apply(item, arguments);
      steps.appendChild(item);
    }
    var download = link("Download the sealed file " + name, downloadAddress, "ck-form-download");
    download.download = name;
    step(download, " (" + armoured.length.toLocaleString("en") + " bytes: every sealed order file has this " +
      "length, whatever it holds). Keep its name, " + name + ": the check refuses any other.");
    if (data.upload) {
      // GitHub's upload page takes files only from those who can push to the repository; anyone else
      // uploads into a fork of their own, from which the pull request goes to the campaign.
      step(
        link("Open GitHub's upload page for the orders folder", data.upload, "ck-form-upload"),
        " if the GM lets you push to the campaign's repository. Otherwise, ",
        link("fork the campaign's repository", data.fork, "ck-form-fork"),
        " (once; GitHub keeps your fork), and on your fork press \"Sync fork\", then \"Update branch\" if " +
          "GitHub offers it (the check refuses a branch made before this turn began); open its orders " +
          "folder and choose \"Add file\", then \"Upload files\"."
      );
      step(
        "Drop the file there, or pick it with \"choose your files\". Under \"Commit changes\", choose " +
          "\"Create a new branch for this commit and start a pull request\", then \"Propose changes\". On " +
          "the next page, check that the pull request goes to the campaign's repository and main, and " +
          "press \"Create pull request\"."
      );
      step(
        "The Orders check answers on the pull request. It has no key: it checks that the file is sealed, " +
          "is yours and has the right length, not what it says; the resolver opens it with the campaign's " +
          "key at the deadline. To change your orders before then, seal new ones here and upload them the " +
          "same way."
      );
    } else {
      step(
        "This campaign names no GitHub repository: give the file to your GM, or commit it as " +
          data.file +
          "."
      );
    }
    result.append(intro, text, steps);
    say("Your orders are sealed: download the file, then upload it to GitHub.");
  }

  // Start from a file of the player's (a template `campaign template` wrote, or orders kept from an earlier
  // turn): read in the browser and never sent. It is set to this campaign, turn and faction.
  function startFromFile(editor) {
    var input = box.querySelector(".ck-form-start");
    if (!input) return;
    input.addEventListener("change", function () {
      var file = input.files && input.files[0];
      if (!file) return;
      file.text().then(function (raw) {
        var data = box.dataset;
        var read;
        try {
          // As the engine reads it (PyYAML, YAML 1.1): "1e3" unquoted is text there, a number in YAML 1.2.
          read = window.jsyaml.load(raw, { schema: window.jsyaml.YAML11_SCHEMA });
        } catch (error) {
          return say(file.name + " is not YAML the form can read (" + error.message.split("\n")[0] + ").");
        }
        if (!read || typeof read !== "object" || Array.isArray(read)) {
          return say(file.name + " holds no order file: it should start with campaign:, turn: and faction:.");
        }
        if (read.faction !== undefined && String(read.faction) !== data.faction) {
          return say(file.name + " holds the orders of " + read.faction + ", not of " + data.faction + ".");
        }
        var was = read.turn;
        read.campaign = data.campaign;
        read.turn = Number(data.turn);
        read.faction = data.faction;
        editor.setValue(read);
        window.setTimeout(oneIdEach, 0);
        say(
          "The form holds " + file.name + (was !== undefined && Number(was) !== read.turn ? ", set to turn " +
            read.turn + " (it was for turn " + was + ")" : "") + ". Check the orders before you seal them."
        );
      });
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
      say(
        sealed
          ? "The form holds this turn's empty order file. Add orders, then check and seal them."
          : "The form holds your current template. Add orders, then check them."
      );
      box.setAttribute("data-ready", "true");
    });
    checkButton.addEventListener("click", function () {
      var errors = editor.validate();
      if (errors.length) return showErrors(errors);
      var yaml = orderYaml(inOrder(editor.getValue(), initial));
      if (sealed) sealAndOffer(yaml);
      else showYaml(yaml);
    });
    if (sealed) startFromFile(editor);
  }

  function text(response) {
    if (!response.ok) throw new Error(response.url + ": " + response.status);
    return response.text();
  }

  // A sealed campaign's form starts from what every order file of this turn begins with, as
  // `campaign template` writes it, without the comments (they would show positions).
  function heading() {
    var data = box.dataset;
    return window.jsyaml.dump({
      campaign: data.campaign,
      turn: Number(data.turn),
      faction: data.faction,
      orders: [],
      press: [],
      rumors: [],
    });
  }

  var template = sealed ? Promise.resolve(heading()) : fetch(box.dataset.template).then(text);
  Promise.all([fetch(box.dataset.schema).then(text), template])
    .then(function (found) {
      start(JSON.parse(found[0]), found[1]);
    })
    .catch(function (error) {
      say("The form could not load the rules' schema or your template (" + error.message + ").");
    });
})();
