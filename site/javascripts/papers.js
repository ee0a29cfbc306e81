/* Our script on every page. It names the theme's search dialog and runs the
   All-papers page: filters (year range, venue, tag, words), sorting and lazy
   rendering of full entries, from window.PAPERS_DATA (assets/papers-data.js).

   Our own code, no library, no network: it works from file:// as from a server.
   Entries are built with createElement and textContent only: the data is never
   parsed as HTML. Without JavaScript the page keeps its plain list. */
(function () {
  "use strict";

  var BATCH = 60; // entries rendered at a time; more as the reader scrolls

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function safeHref(url) {
    // http(s) or a relative link, nothing else: the data is checked already, this is a
    // second lock. Browsers drop tabs and newlines inside a scheme, so drop them first.
    var bare = String(url).replace(/[\t\n\r]/g, "").trim();
    if (/^https?:\/\//i.test(bare)) return bare;
    if (!bare || /^[a-z][a-z0-9+.-]*:/i.test(bare) || /^[\/\\]{2}/.test(bare)) return null;
    return bare;
  }

  function link(url, text, cls) {
    var href = safeHref(url);
    var node = el(href ? "a" : "span", cls, text);
    if (href) node.setAttribute("href", href);
    return node;
  }

  function authors(p) {
    var names = p.a.slice(0, 6);
    var text = names.join(", ");
    if (p.a.length > 6) text += " et al.";
    else if (p.e) text += " and others";
    return text;
  }

  function toggle(label, body) {
    var details = el("details", "pp-toggle");
    details.appendChild(el("summary", null, label));
    details.appendChild(body);
    return details;
  }

  function bibtex(text) {
    var wrap = el("div", "pp-bib");
    var pre = el("pre");
    pre.appendChild(el("code", null, text));
    var button = el("button", "pp-copy md-icon", "Copy");
    button.type = "button";
    button.title = "Copy the BibTeX entry";
    button.addEventListener("click", function () {
      var done = function () { button.textContent = "Copied"; };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(done, function () {});
      }
    });
    wrap.appendChild(button);
    wrap.appendChild(pre);
    return wrap;
  }

  function entry(p, tags) {
    var li = el("li", "pp-entry");
    li.appendChild(el("span", "pp-venue", p.v)).title = p.n;
    li.appendChild(document.createTextNode(" "));
    li.appendChild(el("span", "pp-year", p.y));
    li.appendChild(document.createTextNode(" "));
    li.appendChild(link(p.u, p.t, "pp-title"));
    li.appendChild(el("div", "pp-authors", authors(p)));
    if (p.c) li.appendChild(el("div", "pp-book", p.c));
    if (p.s) li.appendChild(el("div", "pp-summary", p.s));
    var meta = el("div", "pp-meta");
    p.g.forEach(function (t) {
      meta.appendChild(link(tags[t] || "", t, "pp-tag"));
      meta.appendChild(document.createTextNode(" "));
    });
    p.l.forEach(function (pair) {
      meta.appendChild(link(pair[1], pair[0], "pp-link"));
      meta.appendChild(document.createTextNode(" "));
    });
    if (meta.childNodes.length) li.appendChild(meta);
    if (p.b) li.appendChild(toggle("Abstract", el("p", null, p.b)));
    if (p.x) li.appendChild(toggle("BibTeX", bibtex(p.x)));
    return li;
  }

  function fold(text) {
    return String(text).toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  }

  function option(select, value, text) {
    var o = el("option", null, text);
    o.value = value;
    select.appendChild(o);
  }

  function field(form, label, control) {
    var wrap = el("label", "pp-field");
    wrap.appendChild(el("span", null, label));
    wrap.appendChild(control);
    control.setAttribute("aria-label", label);
    form.appendChild(wrap);
    return control;
  }

  function readHash() {
    var out = {};
    location.hash.replace(/^#/, "").split("&").forEach(function (part) {
      var kv = part.split("=");
      if (kv[0]) out[decodeURIComponent(kv[0])] = decodeURIComponent(kv[1] || "");
    });
    return out;
  }

  function setup(root, list, data) {
    var papers = data.papers, tags = data.tags;
    papers.forEach(function (p) {
      p._text = fold([p.t, p.a.join(" "), p.s, p.b, p.v, p.n, p.g.join(" "), p.k].join(" "));
    });
    var years = papers.map(function (p) { return p.y; });
    var lo = Math.min.apply(null, years), hi = Math.max.apply(null, years);
    var form = el("form", "pp-form");
    form.setAttribute("role", "search");
    form.setAttribute("aria-label", "Filter the papers");
    form.addEventListener("submit", function (e) { e.preventDefault(); });
    var text = field(form, "Words", el("input"));
    text.type = "search";
    text.placeholder = "title, author, summary";
    var from = field(form, "From", el("select")), to = field(form, "To", el("select"));
    for (var y = hi; y >= lo; y--) { option(from, y, y); option(to, y, y); }
    from.value = lo; to.value = hi;
    var venue = field(form, "Venue", el("select"));
    option(venue, "", "any venue");
    Array.from(new Set(papers.map(function (p) { return p.v; })))
      .sort(function (a, b) { return a.toLowerCase() < b.toLowerCase() ? -1 : 1; })
      .forEach(function (v) { option(venue, v, v); });
    var tag = field(form, "Tag", el("select"));
    option(tag, "", "any tag");
    Object.keys(tags).sort().forEach(function (t) { option(tag, t, t); });
    var sort = field(form, "Sort", el("select"));
    [["year", "newest first"], ["year-asc", "oldest first"], ["venue", "venue"],
     ["title", "title"]].forEach(function (o) { option(sort, o[0], o[1]); });
    var reset = el("button", "pp-clear", "Clear");
    reset.type = "button";
    form.appendChild(reset);
    root.appendChild(form);
    var count = document.getElementById("pp-count");
    count.setAttribute("aria-live", "polite");

    var state = readHash();
    if (state.q) text.value = state.q;
    if (state.from) from.value = state.from;
    if (state.to) to.value = state.to;
    if (state.venue) venue.value = state.venue;
    if (state.tag) tag.value = state.tag;
    if (state.sort) sort.value = state.sort;

    var shown = [], rendered = 0;
    var sentinel = el("li", "pp-more");
    var observer = "IntersectionObserver" in window ? new IntersectionObserver(function (seen) {
      if (seen.some(function (s) { return s.isIntersecting; })) more();
    }, { rootMargin: "800px" }) : null;

    function more() {
      var stop = Math.min(shown.length, rendered + BATCH);
      var frag = document.createDocumentFragment();
      for (; rendered < stop; rendered++) frag.appendChild(entry(shown[rendered], tags));
      list.insertBefore(frag, sentinel);
      sentinel.textContent = rendered < shown.length ? "Loading more…" : "";
      if (!observer && rendered < shown.length) more();
    }

    function apply() {
      var words = fold(text.value).split(/\s+/).filter(Boolean);
      var a = +from.value, b = +to.value;
      if (a > b) { var t = a; a = b; b = t; }
      shown = papers.filter(function (p) {
        return p.y >= a && p.y <= b && (!venue.value || p.v === venue.value) &&
          (!tag.value || p.g.indexOf(tag.value) >= 0) &&
          words.every(function (w) { return p._text.indexOf(w) >= 0; });
      });
      var key = sort.value;
      shown.sort(function (p, q) {
        if (key === "year-asc" && p.y !== q.y) return p.y - q.y;
        if (key === "year" && p.y !== q.y) return q.y - p.y;
        if (key === "venue" && p.v !== q.v) return p.v.toLowerCase() < q.v.toLowerCase() ? -1 : 1;
        return p.t.toLowerCase() < q.t.toLowerCase() ? -1 : p.t === q.t ? 0 : 1;
      });
      list.textContent = "";
      list.classList.remove("pp-plain");
      list.appendChild(sentinel);
      rendered = 0;
      more();
      count.textContent = shown.length + " of " + papers.length + " papers" +
        (shown.length ? "." : ": no paper matches; widen the filters.");
      var parts = [];
      if (text.value) parts.push("q=" + encodeURIComponent(text.value));
      if (+from.value !== lo) parts.push("from=" + from.value);
      if (+to.value !== hi) parts.push("to=" + to.value);
      if (venue.value) parts.push("venue=" + encodeURIComponent(venue.value));
      if (tag.value) parts.push("tag=" + encodeURIComponent(tag.value));
      if (sort.value !== "year") parts.push("sort=" + sort.value);
      var hash = parts.length ? "#" + parts.join("&") : " ";
      if (history.replaceState) history.replaceState(null, "", hash === " " ?
        location.pathname + location.search : hash);
    }

    [text, from, to, venue, tag, sort].forEach(function (c) {
      c.addEventListener(c === text ? "input" : "change", apply);
    });
    reset.addEventListener("click", function () {
      text.value = ""; from.value = lo; to.value = hi; venue.value = ""; tag.value = "";
      sort.value = "year"; apply();
    });
    if (observer) observer.observe(sentinel);
    apply();
  }

  function nameSearchDialog() {
    // The theme's search dialog has no accessible name (axe: aria-dialog-name).
    var dialog = document.querySelector('.md-search[role="dialog"]');
    if (dialog && !dialog.hasAttribute("aria-label")) dialog.setAttribute("aria-label", "Search");
  }

  function start() {
    nameSearchDialog();
    var root = document.getElementById("pp-filters");
    var list = document.getElementById("pp-all");
    if (!root || !list || !window.PAPERS_DATA) return;
    setup(root, list, window.PAPERS_DATA);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
