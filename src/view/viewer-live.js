/* toolscore view: a page follows the runs it shows. `watched` (the run ids this page shows, or
   "*" for the list of runs) is passed in by the server; when one of them changes, the page is
   fetched again and swapped in place: no reload, filters and scroll kept. `generation` counts the
   changes the server had announced when it made the page: when the events stream opens at a later
   count, a change came between, and the page is fetched again. */
(function (watched, generation) {
  "use strict";
  var updates = 0;
  var busy = false;
  var again = false;
  var fields = ["filter-text", "filter-status", "filter-metric", "filter-order"];
  function swap(text) {
    var next = new DOMParser().parseFromString(text, "text/html");
    var kept = {};
    fields.forEach(function (id) {
      var field = document.getElementById(id);
      if (field) kept[id] = field.value;
    });
    var scroll = window.scrollY;
    var body = document.importNode(next.body, true);
    document.body.replaceWith(body);
    // Scripts parsed from text do not run: the report's own is put in again, allowed by its hash.
    var inert = body.querySelector("script:not([type])");
    if (inert) {
      var script = document.createElement("script");
      script.textContent = inert.textContent;
      inert.replaceWith(script);
    }
    Object.keys(kept).forEach(function (id) {
      var field = document.getElementById(id);
      if (!field || field.value === kept[id]) return;
      field.value = kept[id];
      field.dispatchEvent(new Event(field.tagName === "INPUT" ? "input" : "change"));
    });
    window.scrollTo(0, scroll);
    updates += 1;
    document.documentElement.setAttribute("data-updates", String(updates));
  }
  function refresh() {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    fetch(window.location.href, { cache: "no-store" })
      .then(function (response) {
        if (!response.ok) throw new Error("status " + response.status);
        return response.text();
      })
      .then(swap)
      .catch(function () {
        // A file caught mid-write: the next change tries again.
      })
      .then(function () {
        busy = false;
        if (again) {
          again = false;
          refresh();
        }
      });
  }
  var events = new EventSource("/events");
  events.addEventListener("change", function (event) {
    if (watched.indexOf(event.data) !== -1) refresh();
  });
  events.addEventListener("hello", function (event) {
    var now = Number(event.data);
    if (now !== generation) {
      generation = now;
      refresh();
    }
    document.documentElement.setAttribute("data-live", "true");
  });
});
