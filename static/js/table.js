/* At the table: steppers, the deal tracker, the opening-meld checker, the deal form's live
   preview and its unsaved copy, and other tablets' saves showing up without a reload.

   Progressive enhancement only: every page works without this file, and the server judges
   every rule (/api/score, /api/opening, /api/go-out); this file only counts and asks. */
(function () {
  "use strict";

  var STORE = "scorekeeper:";
  var POLL_MS = 3000;

  /* --- small helpers ------------------------------------------------------------- */

  function $(selector, root) {
    return (root || document).querySelector(selector);
  }
  function $all(selector, root) {
    return Array.prototype.slice.call((root || document).querySelectorAll(selector));
  }
  function readJSON(key) {
    try {
      var text = window.localStorage.getItem(STORE + key);
      return text ? JSON.parse(text) : null;
    } catch (error) {
      return null; // storage off (private mode) or a broken entry: start empty
    }
  }
  function writeJSON(key, value) {
    try {
      window.localStorage.setItem(STORE + key, JSON.stringify(value));
    } catch (error) {
      /* storage full or off: the page still works, it just forgets on reload */
    }
  }
  function forget(key) {
    try {
      window.localStorage.removeItem(STORE + key);
    } catch (error) {
      /* nothing to forget */
    }
  }
  function storedKeys(prefix) {
    var keys = [];
    try {
      for (var i = 0; i < window.localStorage.length; i++) {
        var key = window.localStorage.key(i);
        if (key && key.indexOf(STORE + prefix) === 0) {
          keys.push(key.slice(STORE.length));
        }
      }
    } catch (error) {
      /* no storage */
    }
    return keys;
  }
  function debounce(fn, ms) {
    var timer = null;
    return function () {
      window.clearTimeout(timer);
      timer = window.setTimeout(fn, ms);
    };
  }
  /* POST a JSON question to the API; calls back with (status, body) or (0, null) offline. */
  function ask(url, body, done) {
    window
      .fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(body),
        credentials: "same-origin",
      })
      .then(function (response) {
        return response.json().then(
          function (data) {
            done(response.status, data);
          },
          function () {
            done(response.status, null);
          }
        );
      })
      .catch(function () {
        done(0, null);
      });
  }
  function whole(input) {
    var text = (input.value || "").trim();
    if (text === "") {
      return input.validity && input.validity.badInput ? NaN : 0;
    }
    return /^[0-9]+$/.test(text) ? parseInt(text, 10) : NaN;
  }
  /* A score as the pages write it (the points filter): digits grouped from five on. */
  function points(value, group) {
    var digits = String(Math.abs(value));
    if (digits.length > 4) {
      digits = digits.replace(/\B(?=(\d{3})+$)/g, group);
    }
    return (value < 0 ? "\u2212" : "") + digits; // the minus sign, as the points filter
  }

  function setValue(input, value) {
    input.value = String(value);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  /* --- steppers: big -/+ buttons beside a number box -------------------------------- */

  /* The focus stays on a step button, so the box's new number is said aloud here: "Clean
     books, Ann & Ben: 3" (the box's own words, data-says), also when it stays at a bound.
     The line is on the page before the first step: one added as it speaks is not heard. */
  var stepSaid = null;
  var stepTimer = null;
  function initSteppers(root) {
    var buttons = $all("button.step", root);
    buttons.forEach(function (button) {
      button.hidden = false;
    });
    if (buttons.length && !stepSaid) {
      stepSaid = document.createElement("p");
      stepSaid.className = "visually-hidden";
      stepSaid.setAttribute("role", "status");
      stepSaid.setAttribute("data-step-said", "");
      document.body.appendChild(stepSaid);
    }
  }
  function sayStep(input) {
    if (!stepSaid) {
      return;
    }
    var text = (input.getAttribute("data-says") || input.id) + ": " + input.value;
    window.clearTimeout(stepTimer);
    stepSaid.textContent = "";
    stepTimer = window.setTimeout(function () {
      stepSaid.textContent = text;
    }, 50);
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button.step") : null;
    if (!button) {
      return;
    }
    var input = document.getElementById(button.getAttribute("aria-controls"));
    if (!input || input.disabled) {
      return;
    }
    var low = parseInt(input.min || "0", 10);
    var high = parseInt(input.max || "9999", 10);
    var step = parseInt(button.getAttribute("data-step"), 10);
    var now = whole(input);
    if (isNaN(now)) {
      // "2.5" steps to 3 or 2, "-3" up to 0: the next whole number that way, not from 0.
      var typed = parseFloat((input.value || "").trim());
      now = isFinite(typed) ? (step > 0 ? Math.floor(typed) : Math.ceil(typed)) : 0;
    }
    setValue(input, Math.max(low, Math.min(high, now + step)));
    sayStep(input);
  });

  /* --- the deal tracker (game page) ------------------------------------------------- */

  function trackerKey(game, deal) {
    return "tracker:" + game + ":" + deal;
  }

  function initTracker(section) {
    if (!section) {
      return;
    }
    var game = section.getAttribute("data-game");
    var deal = parseInt(section.getAttribute("data-deal"), 10);
    var rules = JSON.parse(section.getAttribute("data-ruleset"));
    var key = trackerKey(game, deal);
    var teams = $all(".tracker-team", section);

    function read() {
      return teams.map(function (team) {
        var state = { opened: false, opening: null, feet: [] };
        $all("[data-track]", team).forEach(function (input) {
          var what = input.getAttribute("data-track");
          if (what === "opened") {
            state.opened = input.checked;
          } else if (what === "foot") {
            state.feet.push(input.checked);
          } else if (what === "opening") {
            state.opening = input.value === "" ? null : whole(input);
          } else {
            state[what] = whole(input) || 0;
          }
        });
        return state;
      });
    }

    function show(states) {
      teams.forEach(function (team, i) {
        var state = states[i] || {};
        var feet = 0;
        $all("[data-track]", team).forEach(function (input) {
          var what = input.getAttribute("data-track");
          if (what === "opened") {
            input.checked = !!state.opened;
          } else if (what === "foot") {
            input.checked = !!(state.feet && state.feet[feet++]);
          } else if (what === "opening") {
            input.value = state.opening === null || state.opening === undefined ? "" : state.opening;
          } else {
            input.value = state[what] || 0;
          }
        });
      });
    }

    var openingAsked = []; // per team: how many opening questions were asked so far
    function judge(states) {
      var body = {
        ruleset: rules,
        deal: deal,
        teams: states.map(function (state, i) {
          return {
            clean_books: state.clean_books || 0,
            dirty_books: state.dirty_books || 0,
            wild_books: state.wild_books || 0,
            black_three_books: state.black_three_books || 0,
            players: parseInt(teams[i].getAttribute("data-players"), 10) || 1,
            in_foot: (state.feet || []).filter(Boolean).length,
          };
        }),
      };
      ask(section.getAttribute("data-url"), body, function (status, data) {
        if (status !== 200 || !data) {
          return; // keep the last answer; the server judges again at the end
        }
        data.teams.forEach(function (answer, i) {
          var line = $("[data-go-out]", teams[i]);
          line.textContent = answer.message;
          line.classList.toggle("ready", answer.ready);
        });
      });
      states.forEach(function (state, i) {
        var line = $("[data-opening-status]", teams[i]);
        var asked = (openingAsked[i] = (openingAsked[i] || 0) + 1);
        if (!state.opened || state.opening === null || isNaN(state.opening)) {
          line.textContent = "";
          line.classList.remove("enough", "short");
          return;
        }
        var box = $('[data-track="opening"]', teams[i]);
        if (state.opening > parseInt(box.max, 10)) {
          // Past any opening: said in the box's own words, before the API says "points".
          line.textContent = line.getAttribute("data-out-of-range").replace("{typed}", function () {
            return box.value.trim();
          });
          line.classList.remove("enough");
          line.classList.add("short");
          return;
        }
        var question = { ruleset: rules, deal: deal, points: state.opening };
        ask(section.getAttribute("data-opening-url"), question, function (status, data) {
          if (asked !== openingAsked[i]) {
            return; // a later question is on its way: an older answer is stale
          }
          if (status === 200 && data) {
            line.textContent = data.message;
            line.classList.toggle("enough", data.enough);
            line.classList.toggle("short", !data.enough);
          } else if ((status === 400 || status === 422) && data && data.errors && data.errors.length) {
            // No opening counts these points (12 on the way to 120): say so, not the last verdict.
            line.textContent = data.errors[0].message;
            line.classList.remove("enough");
            line.classList.add("short");
          }
        });
      });
    }

    var saved = readJSON(key);
    if (saved && saved.teams) {
      show(saved.teams);
    }
    var judgeSoon = debounce(function () {
      judge(read());
    }, 150);
    function changed() {
      // Kept at once: the next tap may already be "Enter deal".
      writeJSON(key, { teams: read() });
      judgeSoon();
    }
    section.addEventListener("input", changed);
    section.addEventListener("change", changed);
    $("[data-track-clear]", section).addEventListener("click", function () {
      forget(key);
      show(teams.map(function () {
        return {};
      }));
      judge(read());
    });
    section.hidden = false;
    if (saved) {
      judge(read());
    }
  }

  /* --- the opening-meld checker (game page) ----------------------------------------- */

  function initChecker(box) {
    if (!box) {
      return;
    }
    var rules = JSON.parse(box.getAttribute("data-ruleset"));
    var deal = parseInt(box.getAttribute("data-deal"), 10);
    var picked = []; // [{card: the rank the API names, rank: the letter on it}]
    var checkerAsked = 0; // questions asked so far: only the latest one's answer is shown
    var list = $("[data-picked]", box);
    var verdict = $("[data-verdict]", box);
    var pickup = $("[data-pickup]", box);
    pickup.addEventListener("change", function () {
      $("[data-pickup-hint]", box).hidden = !pickup.checked;
      update();
    });

    function update() {
      var asked = (checkerAsked += 1);
      if (!picked.length) {
        list.textContent = list.getAttribute("data-empty");
        verdict.textContent = "";
        verdict.classList.remove("enough", "short");
        return;
      }
      var letters = picked.map(function (p) {
        return p.rank;
      });
      if (pickup.checked) {
        // With a pickup only the top discard and the player's own cards count.
        list.textContent = list
          .getAttribute("data-top")
          .replace("{card}", letters[0])
          .replace("{cards}", letters.slice(1).join(" ") || "\u2013");
      } else {
        list.textContent = letters.join(" ");
      }
      var ranks = {}; // by rank, so that K Q J is no meld
      picked.forEach(function (p) {
        ranks[p.card] = (ranks[p.card] || 0) + 1;
      });
      var question = { ruleset: rules, deal: deal, ranks: ranks };
      if (pickup.checked) {
        question.top_discard = picked[0].card; // the hand must hold two more of its rank
      }
      ask(box.getAttribute("data-url"), question, function (status, data) {
        if (asked !== checkerAsked) {
          return; // an older answer, arriving after a newer question
        }
        if (status === 200 && data) {
          verdict.textContent = data.message;
          verdict.classList.toggle("enough", data.enough);
          verdict.classList.toggle("short", !data.enough);
        } else {
          // No verdict on these cards: never the last one, which was about other cards.
          verdict.textContent = "";
          verdict.classList.remove("enough", "short");
        }
      });
    }
    box.addEventListener("click", function (event) {
      var key = event.target.closest("button.card-key");
      if (key) {
        picked.push({
          card: key.getAttribute("data-card"),
          rank: key.getAttribute("data-rank"),
        });
        update();
      } else if (event.target.closest("[data-remove-last]")) {
        picked.pop();
        update();
      } else if (event.target.closest("[data-clear]")) {
        picked = [];
        update();
      }
    });
    box.hidden = false;
  }

  /* --- the deal form: counters, going out, live preview, unsaved copy ---------------- */

  function initDealForm(form) {
    if (!form) {
      return;
    }
    var game = form.getAttribute("data-game");
    var deal = parseInt(form.getAttribute("data-deal"), 10);
    var draftKey = "draft:" + game + ":" + deal + ":" + form.getAttribute("data-version");
    var preview = $("[data-preview]", form);
    var teams = $all("fieldset.team-entry", form);
    var serverSaidSomething = form.getAttribute("data-errors") === "yes";
    try {
      // Back on the form: whatever was sent last was not saved, so its copy must stay.
      window.sessionStorage.removeItem(STORE + "submitted");
    } catch (error) {
      /* no storage */
    }
    // A copy stays until the game page shows its deal played (see forgetSaved). Stale here:
    // copies of this deal's corrections made to another version of it (the deal changed
    // since), and, on the next deal's form, copies and trackers of later deals (the game
    // went back since: their entries were shown again on this deal's form) and copies of
    // corrections to this deal or later ones.
    storedKeys("draft:" + game + ":").concat(storedKeys("tracker:" + game + ":")).forEach(function (key) {
      var parts = key.split(":");
      var number = parseInt(parts[2], 10);
      var newForm = form.getAttribute("data-version") === "new";
      // A correction's copy of this deal or a later one, on a new deal's form: the game went
      // back, and that deal will be entered afresh.
      var stale = parts[0] === "draft" && parts[3] !== "new"
        ? (number === deal && key !== draftKey) || (newForm && number >= deal)
        : newForm && number > deal;
      if (stale) {
        forget(key);
      }
    });

    function fields() {
      return $all("input[name], select[name], textarea[name]", form).filter(function (input) {
        return input.type !== "hidden";
      });
    }

    /* Card counters: the points of the cards counted, and counting switches the mode. */
    function subtotal(group) {
      var sum = 0;
      var any = false;
      $all("input[data-value]", group).forEach(function (input) {
        var n = whole(input);
        if (!isNaN(n) && n > 0) {
          sum += n * parseInt(input.getAttribute("data-value"), 10);
          any = true;
        }
      });
      var out = $("[data-subtotal]", group);
      if (out) {
        out.textContent = any ? String(sum) : "";
      }
      return any;
    }
    /* Counting the cards opens the counters and puts the points box away (the server reads
       the counts then, whatever it holds); totalling them brings the box back. */
    function showMode(group) {
      var counts = $("input[type=radio][value=counts]", group);
      var counted = Boolean(counts && counts.checked);
      var points = $(".points-input", group);
      if (points) {
        points.hidden = counted;
      }
      var counters = $("details.counts", group);
      if (counted && counters) {
        counters.open = true;
      }
    }
    function countsChanged(input) {
      var group = input.closest(".cards-entry");
      if (!group) {
        return;
      }
      // A count typed switches to counting; the table's own choice of mode is left as it is.
      if (subtotal(group) && input.hasAttribute("data-value")) {
        var counts = $("input[type=radio][value=counts]", group);
        if (counts && !counts.checked) {
          counts.checked = true;
        }
      }
      showMode(group);
    }
    $all(".cards-entry", form).forEach(function (group) {
      subtotal(group);
      showMode(group);
    });

    /* A team that went out holds at least the books going out needs. */
    /* What choosing the team that went out filled in, so that choosing another (a mistap,
       or the arrow keys walking the choices) takes it back: a team keeps no books it was
       given only for going out. A count changed by hand since is left as it is. */
    var filledIn = [];
    function wentOut(radio) {
      filledIn.forEach(function (fill) {
        if (fill.input.value === fill.to) {
          setValue(fill.input, fill.from);
        }
      });
      filledIn = [];
      var team = radio.value;
      var books = JSON.parse(radio.getAttribute("data-books") || "{}");
      // A black-three book is one of the clean books going out needs (seed 003), as many as
      // the rules count (data-black-three-books: RuleSet.clean_for_going_out's cap).
      var black = form.elements["t" + team + "-black_three_books"];
      var counted = parseInt(radio.getAttribute("data-black-three-books") || "0", 10);
      var blackBooks = black ? Math.min(counted, Math.max(0, whole(black) || 0)) : 0;
      Object.keys(books).forEach(function (field) {
        var input = form.elements["t" + team + "-" + field];
        var need = field === "clean_books" ? Math.max(0, books[field] - blackBooks) : books[field];
        if (input && (whole(input) || 0) < need) {
          filledIn.push({ input: input, from: input.value, to: String(need) });
          setValue(input, need);
        }
      });
    }

    /* A number typed outside its box's bounds (min and max, the rules core's): said here
       with the box's own words, before the API would say it with its field's name. */
    function outOfRange(input) {
      var text = (input.value || "").trim();
      if (!/^-?[0-9]+$/.test(text)) {
        return null;
      }
      var typed = parseInt(text, 10);
      var low = parseInt(input.min, 10);
      var high = parseInt(input.max, 10);
      if ((!isNaN(low) && typed < low) || (!isNaN(high) && typed > high)) {
        return { input: input, typed: text, low: low, high: high };
      }
      return null;
    }

    /* The tally the API reads, from the form as it is now. */
    function tally() {
      var bad = [];
      var outside = [];
      function counts(input, n) {
        var out = outOfRange(input);
        if (out) {
          outside.push(out);
        }
        return out ? 0 : n;
      }
      var went = form.elements.went_out ? form.elements.went_out.value : "";
      var body = teams.map(function (fieldset) {
        var i = fieldset.getAttribute("data-team");
        var prefix = "t" + i + "-";
        var team = { name: fieldset.getAttribute("data-name"), went_out: went === i };
        var modes = {};
        $all("input[type=radio][name$=_mode]", fieldset).forEach(function (radio) {
          if (radio.checked) {
            modes[radio.name.slice(prefix.length, -"_mode".length)] = radio.value;
          }
        });
        $all("input[type=number][name]", fieldset).forEach(function (input) {
          var parts = input.name.slice(prefix.length).split("-");
          var n = whole(input);
          if (isNaN(n)) {
            if (outOfRange(input)) {
              n = 0; // below zero: said as out of range, if the box counts (below)
            } else {
              bad.push(input);
              return;
            }
          }
          var head = parts[0];
          if (head === "opening_meld") {
            if (input.value.trim() !== "") {
              team.opening_meld = counts(input, n);
            }
          } else if (head === "melded" || head === "left") {
            var counted = modes[head] === "counts";
            if (parts.length === 1 && !counted) {
              team[head] = counts(input, n);
            } else if (parts.length === 2 && counted) {
              team[head] = team[head] || {};
              team[head][parts[1]] = counts(input, n);
            }
          } else if (head === "special_books") {
            team.special_books = team.special_books || {};
            team.special_books[parts.slice(1).join("-")] = counts(input, n); // ids have hyphens
          } else {
            team[head] = counts(input, n);
          }
        });
        return team;
      });
      return { teams: body, bad: bad, outside: outside };
    }

    /* What looks forgotten, each line "Check before saving: …"; rewritten only when it
       changes. */
    function showHints(hints) {
      var hintsBox = $("[data-hints]", preview);
      var lines = hints.map(function (hint) {
        return preview.getAttribute("data-hint").replace("{hint}", function () {
          return hint.message;
        });
      });
      if (lines.join("\n") === hintsBox.getAttribute("data-shown")) {
        return;
      }
      hintsBox.setAttribute("data-shown", lines.join("\n"));
      hintsBox.textContent = "";
      lines.forEach(function (line) {
        var item = document.createElement("p");
        item.textContent = line;
        hintsBox.appendChild(item);
      });
      hintsBox.hidden = !lines.length;
      preview.classList.toggle("has-hints", lines.length > 0);
      scrollableByKeyboard(hintsBox);
    }

    var asked = 0;
    function refresh() {
      if (!preview) {
        return;
      }
      var now = tally();
      var problems = $("[data-problems]", preview);
      var before = JSON.parse(preview.getAttribute("data-before"));
      var group = preview.getAttribute("data-group") || "";
      function blank() {
        $all("[data-deal-score]", preview).forEach(function (out) {
          out.textContent = "\u2013";
        });
        $all("[data-new-total]", preview).forEach(function (out, i) {
          out.textContent = points(before[i], group);
        });
      }
      function typedAsSaid(text) {
        // Grouped as the page groups, digit by digit as typed: a number too long for
        // JavaScript to keep every digit of is still said as it was typed.
        var negative = text.charAt(0) === "-";
        var digits = text.replace(/^-/, "").replace(/^0+(?=[0-9])/, "");
        if (digits.length > 4) {
          digits = digits.replace(/\B(?=(\d{3})+$)/g, group);
        }
        return (negative ? "\u2212" : "") + digits;
      }
      function says(input) {
        var label = form.querySelector('label[for="' + input.id + '"]');
        return input.getAttribute("data-says") || (label ? label.textContent.trim() : input.name);
      }
      if (now.bad.length || now.outside.length) {
        asked++; // an answer still on its way is about numbers no longer in the form
        blank();
        // Every box that is no number, then every number out of its bounds, in form order.
        // As typed: a "$&" in a team's name is no replacement pattern.
        var said = now.bad.map(function (input) {
          return preview.getAttribute("data-bad-number").replace("{field}", function () {
            return says(input);
          });
        }).concat(now.outside.map(function (out) {
          return (preview.getAttribute("data-out-of-range") ||
            preview.getAttribute("data-bad-number"))
            .replace("{low}", points(out.low, group))
            .replace("{high}", points(out.high, group))
            .replace("{typed}", typedAsSaid(out.typed))
            .replace("{field}", function () {
              return says(out.input);
            });
        }));
        problems.textContent = "";
        if (said.length === 1) {
          problems.textContent = said[0];
        } else {
          var several = document.createElement("ul");
          said.forEach(function (text) {
            var item = document.createElement("li");
            item.textContent = text;
            several.appendChild(item);
          });
          problems.appendChild(several);
        }
        showHints([]);
        preview.classList.add("has-problems");
        scrollableByKeyboard(problems);
        return;
      }
      var question = {
        ruleset: JSON.parse(preview.getAttribute("data-ruleset")),
        deal: deal,
        decks: parseInt(preview.getAttribute("data-decks"), 10),
        teams: now.teams,
        // How many players each team has: a player alone goes out with nothing left.
        players: JSON.parse(preview.getAttribute("data-players") || "null"),
      };
      var mine = ++asked;
      ask(preview.getAttribute("data-url"), question, function (status, data) {
        if (mine !== asked) {
          return; // a newer question is on its way
        }
        problems.textContent = "";
        if (status !== 200) {
          showHints([]);
        }
        if (status === 200 && data) {
          preview.classList.remove("has-problems");
          data.teams.forEach(function (team, i) {
            var li = $('li[data-team="' + i + '"]', preview);
            $("[data-deal-score]", li).textContent = points(team.score, group);
            $("[data-new-total]", li).textContent = points(before[i] + team.score, group);
          });
          // What looks forgotten (a team still holding cards with none left): to check,
          // never in the way of saving; only once the deal's end is told (who went out, or
          // nobody), so an empty form asks nothing.
          // Outside the live region: typing on past it never reads it out again.
          var ended = form.elements.went_out && form.elements.went_out.value !== "";
          showHints(ended && data.hints ? data.hints : []);
        } else if (data && data.errors) {
          blank();
          preview.classList.add("has-problems");
          var list = document.createElement("ul");
          data.errors.forEach(function (error) {
            var item = document.createElement("li");
            item.textContent = error.message;
            list.appendChild(item);
          });
          problems.appendChild(list);
        } else {
          blank();
          problems.textContent = preview.getAttribute("data-offline");
        }
        scrollableByKeyboard(problems);
      });
    }
    var refreshSoon = debounce(refresh, 200);

    /* The unsaved copy: every change is kept in this browser until the deal is saved. */
    function saveDraft() {
      var values = {};
      fields().forEach(function (input) {
        if (input.type === "radio" || input.type === "checkbox") {
          if (input.checked) {
            values[input.name] = input.value;
          }
        } else {
          values[input.name] = input.value;
        }
      });
      writeJSON(draftKey, { values: values, at: Date.now() });
    }
    function fill(values) {
      fields().forEach(function (input) {
        if (!(input.name in values)) {
          if (input.type === "radio") {
            input.checked = false;
          }
          return;
        }
        if (input.type === "radio" || input.type === "checkbox") {
          input.checked = values[input.name] === input.value;
        } else {
          input.value = values[input.name];
        }
      });
      $all(".cards-entry", form).forEach(function (group) {
        subtotal(group);
        showMode(group);
      });
    }
    function fromTracker() {
      var tracked = readJSON(trackerKey(game, deal));
      if (!tracked || !tracked.teams || form.getAttribute("data-version") !== "new") {
        return false;
      }
      var any = false;
      tracked.teams.forEach(function (state, i) {
        ["clean_books", "dirty_books", "wild_books", "black_three_books", "red_threes"].forEach(function (
          field
        ) {
          var input = form.elements["t" + i + "-" + field];
          if (input && state[field]) {
            input.value = state[field];
            any = true;
          }
        });
        var opening = form.elements["t" + i + "-opening_meld"];
        if (opening && state.opened && state.opening) {
          opening.value = state.opening;
          any = true;
        }
      });
      return any;
    }

    var notice = document.getElementById("restored");
    var draft = readJSON(draftKey);
    if (!serverSaidSomething && draft && draft.values) {
      fill(draft.values);
      notice.hidden = false;
    } else if (!serverSaidSomething && fromTracker()) {
      notice.hidden = false;
      $("[data-draft-text]", notice).hidden = true;
      $("[data-tracker-text]", notice).hidden = false;
    }
    $("[data-discard]", notice).addEventListener("click", function () {
      forget(draftKey);
      forget(trackerKey(game, deal));
      window.location.reload();
    });

    form.addEventListener("input", function (event) {
      // A black-three book counted after choosing who went out: the clean book filled in
      // for going out is taken back where the black-three book stands for it.
      var went = form.querySelector('input[name="went_out"]:checked');
      if (went && event.target.name === "t" + went.value + "-black_three_books") {
        wentOut(went);
      }
      countsChanged(event.target);
      saveDraft();
      refreshSoon();
    });
    /* Back from counting to a total: an empty points box takes the total of the cards
       counted, so the deal does not drop to nothing while the table decides. */
    var fromCounts = []; // [{box, value}]: what was filled in here, and not typed since
    function totalFromCounts(radio) {
      var group = radio.closest(".cards-entry");
      var box = group && $(".points-input input", group);
      var counted = group && $("[data-subtotal]", group);
      if (!box || !counted || counted.textContent === "") {
        return;
      }
      var filled = fromCounts.filter(function (f) {
        return f.box === box;
      })[0];
      // An empty box, or one still holding what an earlier switch put there (a recount
      // replaces it); a total the table typed is its own, and stays.
      if (box.value.trim() === "" || (filled && box.value === filled.value)) {
        setValue(box, counted.textContent);
        if (filled) {
          filled.value = box.value;
        } else {
          fromCounts.push({ box: box, value: box.value });
        }
      }
    }
    form.addEventListener("change", function (event) {
      if (event.target.name === "went_out") {
        wentOut(event.target);
      }
      if (event.target.type === "radio" && event.target.value === "points") {
        totalFromCounts(event.target);
      }
      countsChanged(event.target);
      saveDraft();
      refreshSoon();
    });
    form.addEventListener("submit", function () {
      // A correction's copy goes once the game page follows (see forgetSaved).
      try {
        window.sessionStorage.setItem(STORE + "submitted", draftKey);
      } catch (error) {
        /* the copy stays */
      }
    });
    if (preview) {
      preview.hidden = false;
      keepFocusClearOf(preview);
      var problemsBox = $("[data-problems]", preview);
      if ("ResizeObserver" in window) {
        // Turning the tablet changes how much of the list fits.
        new ResizeObserver(function () {
          scrollableByKeyboard(problemsBox);
        }).observe(problemsBox);
      }
      refresh();
    }
  }

  /* The score bar sticks to the bottom of the screen, so the page scrolls whatever the
     keyboard focuses far enough up to clear it (scroll-padding-bottom in games.css), however
     tall the bar is: it wraps on a narrow screen and grows with the problems it lists. */
  function keepFocusClearOf(bar) {
    var root = document.documentElement;
    function measure() {
      var height = Math.ceil(bar.getBoundingClientRect().height);
      root.style.setProperty("--deal-preview-height", height + "px");
      uncover();
    }
    /* What has the focus may come to lie under the bar without moving: the summary of a
       refused save, focused by app.js before the bar showed, or a field when the bar grows
       with the problems it lists. It is scrolled clear then, as a keyboard move would be;
       what lies off the screen, scrolled away by finger, is left where it is. */
    function uncover() {
      var focused = document.activeElement;
      if (!focused || focused === document.body || bar.contains(focused)) {
        return;
      }
      var box = focused.getBoundingClientRect();
      var covered = bar.getBoundingClientRect();
      if (box.bottom > covered.top && box.top < covered.bottom) {
        focused.scrollIntoView({ block: "nearest" });
      }
    }
    measure();
    if ("ResizeObserver" in window) {
      new ResizeObserver(measure).observe(bar);
    }
  }

  /* A list that scrolls inside its box (the problems in the score bar) is a tab stop while
     it has more than it shows, so a keyboard can scroll it too; not while it all fits. */
  function scrollableByKeyboard(box) {
    if (box.scrollHeight > box.clientHeight + 1) {
      box.setAttribute("tabindex", "0");
    } else if (box !== document.activeElement) {
      box.removeAttribute("tabindex");
    }
  }

  /* On the game page: copies of new deals that are now played can go, and so can their
     trackers. What the page does not show played stays: a save lost with the connection,
     or answered with this page (a game abandoned meanwhile), keeps its copy. So does a
     correction the page shows not made (see below); one saved goes. */
  function forgetSaved(loaded) {
    var body = document.body;
    var game = body.getAttribute("data-game");
    // The service worker's copy of the page, shown without a connection, is the game as it
    // was: it decides nothing.
    var offlineCopy = document.documentElement.hasAttribute("data-offline-copy");
    if (!game || document.getElementById("deal-form") || offlineCopy) {
      return;
    }
    try {
      var sent = window.sessionStorage.getItem(STORE + "submitted");
      var parts = sent ? sent.split(":") : [];
      if (sent && parts[1] === game) {
        if (parts[3] !== "new") {
          // The deal at another version: the correction was saved (or another tablet's
          // was, and the form forgets copies of other versions). At the version it was sent
          // from, and not said unchanged by the answer to it (this page, loaded): it never
          // arrived (a lost connection), and its copy stays.
          var row = document.getElementById("deal-" + parts[2]);
          var unchanged = loaded && document.querySelector(".flash-unchanged-" + parts[2]);
          if (!row || row.getAttribute("data-version") !== parts[3] || unchanged) {
            forget(sent);
          }
        }
        window.sessionStorage.removeItem(STORE + "submitted");
      }
    } catch (error) {
      /* nothing stored */
    }
    var next = parseInt(body.getAttribute("data-next-deal") || "9999", 10);
    storedKeys("draft:" + game + ":").concat(storedKeys("tracker:" + game + ":")).forEach(function (key) {
      var parts = key.split(":");
      if (parts[3] === "new" || parts[0] === "tracker") {
        if (parseInt(parts[2], 10) < next) {
          forget(key);
        }
      }
    });
  }

  /* --- two tablets, one game: poll a tiny stamp, refresh what changed ---------------- */

  function initLive() {
    var body = document.body;
    var url = body.getAttribute("data-stamp-url");
    if (!url) {
      return;
    }
    var busy = false;
    function gamePage(html) {
      var next = new DOMParser().parseFromString(html, "text/html");
      var news = document.getElementById("live-news");
      ["live-standing", "live-sheet"].forEach(function (id) {
        var fresh = next.getElementById(id);
        var old = document.getElementById(id);
        if (fresh && old) {
          old.replaceWith(document.importNode(fresh, true));
        }
      });
      var oldDuring = document.getElementById("during");
      var freshDuring = next.getElementById("during");
      var oldDeal = oldDuring ? oldDuring.getAttribute("data-deal") : null;
      var freshDeal = freshDuring ? freshDuring.getAttribute("data-deal") : null;
      if (oldDeal !== freshDeal) {
        // A new deal began: its tracker starts empty (the old one's deal is saved).
        var nav = $("nav.game-actions");
        var freshNav = $("nav.game-actions", next);
        if (nav && freshNav) {
          nav.replaceWith(document.importNode(freshNav, true));
        }
        if (oldDuring) {
          oldDuring.remove();
        }
        if (freshDuring) {
          var copy = document.importNode(freshDuring, true);
          document.getElementById("live-sheet").before(copy);
          initSteppers(copy);
          initTracker($("[data-tracker]", copy));
          initChecker($("[data-opening-checker]", copy));
        }
        if (freshDeal) {
          body.setAttribute("data-next-deal", freshDeal);
        } else {
          body.removeAttribute("data-next-deal");
        }
        forgetSaved();
      }
      if (news) {
        news.textContent = news.getAttribute("data-text") || "";
      }
    }
    function poll() {
      if (busy || document.visibilityState !== "visible" || !navigator.onLine) {
        return;
      }
      busy = true;
      window
        .fetch(url, { cache: "no-store", credentials: "same-origin" })
        .then(function (response) {
          return response.ok ? response.json() : null;
        })
        .then(function (data) {
          if (!data || data.stamp === body.getAttribute("data-stamp")) {
            return null;
          }
          body.setAttribute("data-stamp", data.stamp);
          if (document.getElementById("deal-form")) {
            // Never touch a form being filled in: only say that something changed.
            document.getElementById("elsewhere").hidden = false;
            return null;
          }
          return window
            .fetch(window.location.pathname, { cache: "no-store", credentials: "same-origin" })
            .then(function (response) {
              return response.ok ? response.text() : null;
            })
            .then(function (html) {
              if (html) {
                gamePage(html);
              }
            });
        })
        .catch(function () {
          /* offline for a moment: try again at the next tick */
        })
        .then(function () {
          busy = false;
        });
    }
    window.setInterval(poll, POLL_MS);
    document.addEventListener("visibilitychange", poll);
  }

  function start() {
    initSteppers(document);
    forgetSaved(true);
    initTracker($("[data-tracker]"));
    initChecker($("[data-opening-checker]"));
    initDealForm(document.getElementById("deal-form"));
    initLive();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
