/* Progressive enhancement for every page: offline banner, service worker, screen wake lock.
   Every page works without this file; the server stays the judge of every rule. */
(function () {
  "use strict";
  var root = document.documentElement;

  /* A form sent back refused: the keyboard starts at what went wrong ("Nothing was saved"
     and each problem, linked to its field), not at the top of the page. */
  var refused = document.getElementById("form-errors");
  if (refused) {
    refused.focus();
    /* A problem's link leads to its field. Where it names a group (who went out, a team's
       seats), the first box or choice in it takes the focus, not the page; either way the
       field comes into view with its label, not at the screen's very edge. */
    refused.addEventListener("click", function (event) {
      var link = event.target.closest('a[href^="#"]');
      var target = link && document.getElementById(decodeURIComponent(link.hash.slice(1)));
      if (!target) {
        return;
      }
      var typed = "input:not([type=hidden]), select, textarea, button";
      var field = target.matches(typed) ? target : target.querySelector(typed);
      // A counter in a closed "Cards by kind" is opened first.
      for (var up = field && field.parentElement; up; up = up.parentElement) {
        if (up.tagName === "DETAILS" && !up.open) {
          up.open = true;
        }
      }
      if (!field || !field.getClientRects().length) {
        return; // not shown (a box put away): the link's own jump, as without this script
      }
      event.preventDefault();
      (field.closest(".field, fieldset") || field).scrollIntoView({ block: "center" });
      field.focus({ preventScroll: true });
    });
  }

  /* Printed, a standings row shows every rules its points came from, not only the first:
     what was closed is opened for the print, and closed again after it. */
  var openedToPrint = [];
  window.addEventListener("beforeprint", function () {
    var closed = document.querySelectorAll("details.rules-more:not([open])");
    for (var i = 0; i < closed.length; i++) {
      closed[i].open = true;
      openedToPrint.push(closed[i]);
    }
  });
  window.addEventListener("afterprint", function () {
    openedToPrint.forEach(function (details) {
      details.open = false;
    });
    openedToPrint = [];
  });

  /* Offline: say so, and make sure nothing looks as if it could be saved. A page the
     service worker served from its cache carries data-offline-copy on <html>. */
  function isCachedCopy() {
    return root.hasAttribute("data-offline-copy");
  }

  function setSaving(enabled) {
    var forms = document.querySelectorAll("form");
    for (var i = 0; i < forms.length; i++) {
      var form = forms[i];
      if ((form.getAttribute("method") || "get").toLowerCase() !== "post") {
        continue;
      }
      form.toggleAttribute("data-offline", !enabled);
      var controls = form.querySelectorAll("button, input, select, textarea");
      for (var j = 0; j < controls.length; j++) {
        var control = controls[j];
        if (!enabled && !control.disabled) {
          control.disabled = true;
          control.setAttribute("data-offline-disabled", "");
        } else if (enabled && control.hasAttribute("data-offline-disabled")) {
          control.disabled = false;
          control.removeAttribute("data-offline-disabled");
        }
      }
    }
  }

  function update() {
    var offline = isCachedCopy() || !navigator.onLine;
    var banner = document.getElementById("offline-banner");
    if (banner) {
      banner.hidden = !offline;
    }
    root.classList.toggle("is-offline", offline);
    setSaving(!offline);
  }

  // A form sent while offline would fail anyway; stop it so nothing pretends to be saved.
  document.addEventListener(
    "submit",
    function (event) {
      var form = event.target;
      var post = (form.getAttribute("method") || "get").toLowerCase() === "post";
      if (post && (isCachedCopy() || !navigator.onLine)) {
        event.preventDefault();
        update();
      }
    },
    true
  );
  window.addEventListener("online", update);
  window.addEventListener("offline", update);

  /* Service worker: caches the static files and the last game page viewed. Browsers only
     allow it on https or on localhost. */
  function registerWorker() {
    if (!("serviceWorker" in navigator) || !window.isSecureContext) {
      return;
    }
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {
      /* no offline copy, everything else works */
    });
  }

  /* Screen Wake Lock: keep the tablet awake on pages that ask for it with
     <body data-wake-lock>. The browser drops the lock when the page is hidden, so ask
     again whenever it becomes visible. */
  var lock = null;
  function setLockState(state) {
    document.body.setAttribute("data-wake-lock-state", state);
  }
  function requestWakeLock() {
    if (!("wakeLock" in navigator)) {
      setLockState("unsupported");
      return;
    }
    if (lock !== null || document.visibilityState !== "visible") {
      return;
    }
    navigator.wakeLock.request("screen").then(
      function (sentinel) {
        lock = sentinel;
        setLockState("active");
        sentinel.addEventListener("release", function () {
          lock = null;
          setLockState("released");
        });
      },
      function () {
        setLockState("refused"); // e.g. battery saver; the game page works all the same
      }
    );
  }

  /* New game: "Deals first" names each seat by the name typed for it, as it is typed. Each
     choice carries its texts, translated by the page: data-named ("{name}" stands for the
     name) and data-unnamed (the seat's place, while it has no name). */
  function nameTheSeats() {
    var select = document.getElementById("first_dealer");
    if (!select || !select.form) {
      return;
    }
    var options = select.querySelectorAll("option[data-seat-of]");
    function rename() {
      for (var i = 0; i < options.length; i++) {
        var option = options[i];
        var input = document.getElementById(option.getAttribute("data-seat-of"));
        var name = input ? input.value.trim() : "";
        var text = name
          ? option.getAttribute("data-named").replace("{name}", function () {
              return name; // as typed: a "$&" in a name is no replacement pattern
            })
          : option.getAttribute("data-unnamed");
        if (option.textContent !== text) {
          option.textContent = text;
        }
      }
    }
    select.form.addEventListener("input", rename);
    select.form.addEventListener("change", rename);
    // The browser may fill the boxes back in after the page loads (back button, reload).
    window.addEventListener("pageshow", rename);
    rename();
  }

  /* New game: the rules and seats chosen above are what the game starts with, so a choice
     there sets the table again at once (the page says so), instead of waiting for "Set the
     table" while "Start the game" would start the rules shown before. What was typed below
     goes along and is filled back in: the names in the order of their boxes, the team
     names, the date and the season. The keyboard comes back to the list it was on. */
  var FOCUS_KEY = "scorekeeper:new-game:focus";
  function setTheTable() {
    var seating = document.getElementById("seating-form");
    var game = document.getElementById("new-game-form");
    if (!seating || !game) {
      return;
    }
    function carry() {
      var old = seating.querySelectorAll("input[data-carried]");
      for (var i = 0; i < old.length; i++) {
        old[i].remove();
      }
      function add(name, value) {
        var input = document.createElement("input");
        input.type = "hidden";
        input.name = name;
        input.value = value;
        input.setAttribute("data-carried", "");
        seating.appendChild(input);
      }
      // The seating the names were typed for: team names are kept only while it stays.
      if (game.elements.seating) {
        add("seated", game.elements.seating.value);
      }
      var fields = game.elements;
      for (var j = 0; j < fields.length; j++) {
        var field = fields[j];
        if (/^t\d+-p\d+$/.test(field.name)) {
          add("player", field.value); // blanks too: each name keeps its place
        } else if (field.name === "left_out") {
          add("player", field.value); // typed for seats gone: after the boxes, as they were
        } else if (field.name === "season") {
          add(field.name, field.value); // "No season" too, chosen over today's
        } else if ((/^t\d+-name$/.test(field.name) || field.name === "played_on") && field.value) {
          add(field.name, field.value);
        }
      }
    }
    seating.addEventListener("submit", carry);
    var hint = seating.querySelector("[data-sets-the-table]");
    if (hint) {
      hint.hidden = false;
    }
    function setAgain(focus) {
      if (navigator.onLine === false) {
        return; // no page to come back to: "Set the table" once the connection is back
      }
      try {
        sessionStorage.setItem(FOCUS_KEY, focus);
      } catch (e) {
        // no storage: the page still comes back, the keyboard at its top
      }
      carry();
      seating.submit();
    }
    /* A list stepped through with the keyboard (arrow keys, letters) changes at every step:
       the table is set once the choice is made, by Enter or by leaving the list, and the
       keyboard then lands where it was going. A tap or a click chooses at once. */
    var STEP_KEYS = /^(Arrow(Up|Down|Left|Right)|Page(Up|Down)|Home|End|.)$/;
    function watch(list) {
      var stepping = false;
      var pending = false;
      list.addEventListener("keydown", function (event) {
        if (event.key === "Enter" && pending) {
          event.preventDefault();
          pending = false;
          setAgain(list.id);
          return;
        }
        // Space and Alt+Down open the list's picker instead, which chooses once.
        stepping =
          !event.altKey && !event.ctrlKey && !event.metaKey && event.key !== " " &&
          STEP_KEYS.test(event.key);
      });
      list.addEventListener("mousedown", function () {
        stepping = false;
      });
      list.addEventListener("change", function () {
        if (stepping) {
          pending = true;
          return;
        }
        setAgain(list.id);
      });
      list.addEventListener("blur", function (event) {
        if (!pending) {
          return;
        }
        pending = false;
        // The keyboard goes on where it was going, if that is on this form; else back here.
        var next = event.relatedTarget;
        var onward = next && next.id && (seating.contains(next) || game.contains(next));
        setAgain(onward ? next.id : list.id);
      });
    }
    var lists = seating.querySelectorAll("select");
    for (var k = 0; k < lists.length; k++) {
      watch(lists[k]);
    }
    var back = null;
    try {
      back = sessionStorage.getItem(FOCUS_KEY);
      sessionStorage.removeItem(FOCUS_KEY);
    } catch (e) {
      back = null;
    }
    var list = back && document.getElementById(back);
    if (back && !list) {
      list = seating.querySelector("select"); // that box is gone with its seat: the list
    }
    if (list && !document.getElementById("form-errors")) {
      list.focus();
      if (document.activeElement !== list) {
        seating.querySelector("select").focus();
      }
    }
  }

  function start() {
    update();
    registerWorker();
    nameTheSeats();
    setTheTable();
    if (document.body.hasAttribute("data-wake-lock")) {
      requestWakeLock();
      document.addEventListener("visibilitychange", function () {
        if (document.visibilityState === "visible") {
          requestWakeLock();
        }
      });
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
