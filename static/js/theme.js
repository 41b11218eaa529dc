/* Colour scheme: follows the device unless the user picked light or dark in the header.
   Loaded in <head> without defer so the choice applies before the first paint (no flash);
   an external file because the Content-Security-Policy allows no inline script. */
(function () {
  "use strict";
  var KEY = "scorekeeper-theme";
  var root = document.documentElement;

  function stored() {
    try {
      var value = window.localStorage.getItem(KEY);
      return value === "light" || value === "dark" ? value : "auto";
    } catch (e) {
      return "auto"; // storage blocked (private mode): just follow the device
    }
  }

  function apply(choice) {
    if (choice === "light" || choice === "dark") {
      root.setAttribute("data-theme", choice);
    } else {
      root.removeAttribute("data-theme");
    }
  }

  function remember(choice) {
    try {
      if (choice === "auto") {
        window.localStorage.removeItem(KEY);
      } else {
        window.localStorage.setItem(KEY, choice);
      }
    } catch (e) {
      /* not remembered, still applied */
    }
  }

  apply(stored());

  function wire() {
    var group = document.querySelector("[data-theme-switch]");
    var select = group && group.querySelector("select");
    if (!select) {
      return;
    }
    select.value = stored();
    select.addEventListener("change", function () {
      var choice = select.value;
      remember(choice);
      apply(choice);
    });
    // The switch needs JavaScript, so it only appears when JavaScript runs.
    group.hidden = false;
    // Another tab changed it: follow.
    window.addEventListener("storage", function (event) {
      if (event.key === KEY || event.key === null) {
        apply(stored());
        select.value = stored();
      }
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", wire);
  } else {
    wire();
  }
})();
