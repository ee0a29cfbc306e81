/* The authors index (authors/): a filter box over the names, by any part of a name
   or spelling, accents and case aside. Without scripts the page is the full list under
   its letters; the box shows only where this runs. */
(function () {
  "use strict";

  function fold(text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  function setup() {
    var box = document.querySelector(".pp-people-filter");
    var input = document.getElementById("pp-people-q");
    var status = document.getElementById("pp-people-count");
    if (!box || !input || !status || box.getAttribute("data-ready")) return;
    box.setAttribute("data-ready", "1");
    box.hidden = false;
    var sections = Array.prototype.slice.call(document.querySelectorAll("section.pp-letter"));
    var letters = Array.prototype.slice.call(document.querySelectorAll(".pp-letters a"));
    var people = sections.reduce(function (n, s) { return n + s.querySelectorAll("li").length; }, 0);

    function apply() {
      var words = fold(input.value).split(/\s+/).filter(Boolean);
      var shown = 0;
      sections.forEach(function (section) {
        var visible = 0;
        section.querySelectorAll("li").forEach(function (li) {
          var name = li.getAttribute("data-name") || "";
          var hit = words.every(function (w) { return name.indexOf(w) >= 0; });
          li.hidden = !hit;
          if (hit) visible += 1;
        });
        section.hidden = !visible;
        shown += visible;
        var link = letters.filter(function (a) { return a.hash === "#" + section.id; })[0];
        if (link) link.classList.toggle("pp-empty", !visible);
      });
      status.textContent = words.length
        ? shown + " of " + people + " authors" + (shown ? "." : ": no name has these letters.")
        : "";
    }

    input.addEventListener("input", apply);
    // A filter typed before a visit elsewhere is kept when Back returns here.
    if (input.value) apply();
  }

  // Material's instant navigation swaps pages without a load: run on each page shown.
  if (window.document$ && window.document$.subscribe) window.document$.subscribe(setup);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
})();
