/* Our script on every page. It names the theme's search dialog, loads a list
   entry's BibTeX and abstract when their toggles are opened, saves a list page's
   citations, and runs the All-papers page: filters
   (year range, venue, tags, words), sorting, lazy rendering of full entries from
   window.PAPERS_DATA (assets/papers-data.js), and the citations of the papers shown.
   The page comes with its first entries in full; the data is loaded when the reader
   first acts (see loadData), and those entries stay as they are.

   Our own code, no library, no network beyond the site's own files: it works from
   file:// as from a server (data comes as scripts, never fetched). Entries are built
   with createElement and textContent only: the data is never parsed as HTML.
   Without JavaScript the page keeps its plain list. */
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

  // ---------------------------------------------------------------- a set's citations

  // Each format's texts of every paper, as papers export writes them, sit in
  // assets/cite-data/FORMAT.js with the way that format joins them into one file: the
  // page joins a list's or the shown papers' texts, in key order as export sorts them,
  // and writes nothing of its own.
  var citeWaiting = {};

  function withCite(fmt, done) {
    var loaded = (window.PAPERS_CITE || {})[fmt];
    if (loaded) return done(loaded);
    if (citeWaiting[fmt]) return citeWaiting[fmt].push(done);
    citeWaiting[fmt] = [done];
    var self = document.querySelector('script[src$="javascripts/papers.js"]');
    var script = document.createElement("script");
    script.src = self.src.replace(/javascripts\/papers\.js$/, "assets/cite-data/" + fmt + ".js");
    script.onload = function () {
      citeWaiting[fmt].splice(0).forEach(function (f) { f((window.PAPERS_CITE || {})[fmt]); });
    };
    document.head.appendChild(script);
  }

  function joined(cite, keys) {
    var texts = keys.slice().sort().map(function (k) { return cite.pieces[k]; })
      .filter(function (t) { return t !== undefined; });
    var j = cite.joint;  // [before, between, after, the file of none]
    return texts.length ? j[0] + texts.join(j[1]) + j[2] : j[3];
  }

  // The one way a set of papers is saved, for All papers' filtered set and a list
  // page's buttons alike: their pieces joined, as a file named NAME plus the ending.
  function saveCitations(fmt, keys, name) {
    withCite(fmt, function (cite) {
      var a = el("a");
      a.href = URL.createObjectURL(new Blob([joined(cite, keys)], { type: cite.mime }));
      a.download = name + cite.ending;
      document.body.appendChild(a);
      a.click();
      setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
    });
  }

  // A list page's buttons (<p data-cite-keys="KEY ..." data-cite-name="NAME">, each
  // <button data-cite="FORMAT">): the page ships no file of its own.
  document.addEventListener("click", function (ev) {
    var t = ev.target;
    var button = t instanceof Element && t.closest("button[data-cite]");
    var list = button && button.closest("[data-cite-keys]");
    if (!list) return;
    var keys = list.getAttribute("data-cite-keys").split(" ").filter(Boolean);
    saveCitations(button.getAttribute("data-cite"), keys, list.getAttribute("data-cite-name"));
  });

  function copyButton(text, what) {
    var button = el("button", "pp-copy md-icon", "Copy");
    button.type = "button";
    button.title = "Copy " + what;
    button.addEventListener("click", function () {
      var done = function () { button.textContent = "Copied"; };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(done, function () {});
      }
    });
    return button;
  }

  function bibtexBlock(text) {
    var wrap = el("div", "pp-bib");
    var pre = el("pre");
    pre.appendChild(el("code", null, text));
    wrap.appendChild(copyButton(text, "the BibTeX entry"));
    wrap.appendChild(pre);
    return wrap;
  }

  // A list entry's BibTeX toggle (<details data-bib="KEY">): filled when first opened,
  // from the BibTeX pieces the downloads join (the largest part of the lists, and most
  // readers never open one).
  function fillBibtex(details) {
    if (details.ppFilled) return;
    details.ppFilled = true;
    withCite("bibtex", function (cite) {
      var text = (cite.pieces[details.getAttribute("data-bib")] || "").trim();
      if (!text) return;
      Array.from(details.children).forEach(function (c) {
        if (c.tagName !== "SUMMARY") details.removeChild(c);
      });
      details.appendChild(bibtexBlock(text));
    });
  }

  // All papers' data (assets/papers-data.js), which holds every abstract: loaded once,
  // by All papers itself or here, whichever asks first.
  var dataWaiting = null;

  function withData(done) {
    if (window.PAPERS_DATA) return done(window.PAPERS_DATA);
    if (dataWaiting) return dataWaiting.push(done);
    dataWaiting = [done];
    var loading = document.querySelector('script[src$="assets/papers-data.js"]');
    var script = loading || document.createElement("script");
    script.addEventListener("load", function () {
      dataWaiting.splice(0).forEach(function (f) { f(window.PAPERS_DATA || { papers: [] }); });
    });
    if (loading) return;
    var self = document.querySelector('script[src$="javascripts/papers.js"]');
    script.src = self.src.replace(/javascripts\/papers\.js$/, "assets/papers-data.js");
    document.head.appendChild(script);
  }

  // A list entry's abstract toggle (<details data-abstract="KEY">): filled when first
  // opened, as text, never as HTML.
  function fillAbstract(details) {
    if (details.ppFilled) return;
    details.ppFilled = true;
    withData(function (data) {
      var key = details.getAttribute("data-abstract");
      var paper = data.papers.filter(function (p) { return p.k === key; })[0];
      if (!paper || !paper.b) return;
      Array.from(details.children).forEach(function (c) {
        if (c.tagName !== "SUMMARY") details.removeChild(c);
      });
      details.appendChild(el("p", null, paper.b));
    });
  }

  document.addEventListener("toggle", function (ev) {
    var t = ev.target;
    if (!(t instanceof Element) || !t.open) return;
    if (t.matches("details[data-bib]")) fillBibtex(t);
    else if (t.matches("details[data-abstract]")) fillAbstract(t);
  }, true);

  // ---------------------------------------------------------------- All papers

  // The first six authors, each a link to their page, as the list pages show them.
  function authors(p, data) {
    var div = el("div", "pp-authors");
    var names = p.a.slice(0, 6);
    names.forEach(function (name, i) {
      if (i) div.appendChild(document.createTextNode(
        i === names.length - 1 && p.a.length <= 6 && !p.e ? " and " : ", "));
      // p.o: the page of an author who is one of several people with one name.
      var target = (p.o && p.o[i]) || (data.authors && data.authors[name]);
      div.appendChild(target ? link(target, name) : el("span", null, name));
    });
    if (p.a.length > 6) div.appendChild(document.createTextNode(" et al."));
    else if (p.e) div.appendChild(document.createTextNode(" and others"));
    return div;
  }

  function entry(p, data) {
    var li = el("li", "pp-entry");
    li.appendChild(el("span", "pp-venue", p.v)).title = p.n;
    li.appendChild(document.createTextNode(" "));
    li.appendChild(el("span", "pp-year", p.y));
    li.appendChild(document.createTextNode(" "));
    li.appendChild(link(p.u, p.t, "pp-title"));
    li.appendChild(authors(p, data));
    if (p.c) li.appendChild(el("div", "pp-book", p.c));
    if (p.s) li.appendChild(el("div", "pp-summary", p.s));
    var meta = el("div", "pp-meta");
    p.g.forEach(function (t) {
      meta.appendChild(link(data.tags[t] || "", t, "pp-tag"));
      meta.appendChild(document.createTextNode(" "));
    });
    p.l.forEach(function (pair) {
      meta.appendChild(link(pair[1], pair[0], "pp-link"));
      meta.appendChild(document.createTextNode(" "));
    });
    if (meta.childNodes.length) li.appendChild(meta);
    if (p.b) {
      var abstract = el("details", "pp-toggle");
      abstract.appendChild(el("summary", null, "Abstract"));
      abstract.appendChild(el("p", null, p.b));
      li.appendChild(abstract);
    }
    var bib = el("details", "pp-toggle");
    bib.setAttribute("data-bib", p.k);
    bib.appendChild(el("summary", null, "BibTeX"));
    li.appendChild(bib);
    return li;
  }

  function option(select, value, text) {
    var o = el("option", null, text);
    o.value = value;
    select.appendChild(o);
    return o;
  }

  function field(form, label, control) {
    var wrap = el("label", "pp-field");
    wrap.appendChild(el("span", null, label));
    wrap.appendChild(control);
    control.setAttribute("aria-label", label); // a select's options are no part of its name
    form.appendChild(wrap);
    return control;
  }

  function readHash() {
    var out = [];
    location.hash.replace(/^#/, "").split("&").forEach(function (part) {
      if (!part) return;
      var at = part.indexOf("=");
      var name = at < 0 ? part : part.slice(0, at), value = at < 0 ? "" : part.slice(at + 1);
      try {
        out.push([decodeURIComponent(name), decodeURIComponent(value)]);
      } catch (err) {
        out.push([name, value]); // a malformed escape: reported as it stands
      }
    });
    return out;
  }

  // Papers with every word, best first, as `papers search WORDS` (javascripts/rank.js);
  // null when the query has no words.
  function byWords(papers, data, query) {
    return window.papersRank.byWords(papers, data, query);
  }

  var SORTS = [["rank", "best match first"], ["year", "newest first"],
    ["year-asc", "oldest first"], ["venue", "venue"], ["title", "title"]];

  function compare(key) {
    function title(p, q) {
      var a = p.t.toLowerCase(), b = q.t.toLowerCase();
      return a < b ? -1 : a > b ? 1 : 0;
    }
    return function (p, q) {
      if (key === "year-asc" && p.y !== q.y) return p.y - q.y;
      if ((key === "year" || key === "rank") && p.y !== q.y) return q.y - p.y;
      if (key === "venue") {
        var a = p.v.toLowerCase(), b = q.v.toLowerCase();
        if (a !== b) return a < b ? -1 : 1;
        if (p.y !== q.y) return q.y - p.y; // within a venue, newest first
      }
      return title(p, q);
    };
  }

  function setup(root, list, data) {
    var papers = data.papers;
    var years = papers.map(function (p) { return p.y; });
    var lo = Math.min.apply(null, years), hi = Math.max.apply(null, years);
    var venues = Array.from(new Set(papers.map(function (p) { return p.v; })))
      .sort(function (a, b) { return a.toLowerCase() < b.toLowerCase() ? -1 : 1; });
    var tagNames = Object.keys(data.tags).sort();

    var form = el("form", "pp-form");
    form.setAttribute("role", "search");
    form.setAttribute("aria-label", "Filter the papers");
    form.addEventListener("submit", function (e) { e.preventDefault(); });
    var text = field(form, "Words", el("input"));
    text.type = "search";
    text.placeholder = "title, author, summary";
    var from = field(form, "From", el("select")), to = field(form, "To", el("select"));
    for (var y = hi; y >= lo; y--) { option(from, y, y); option(to, y, y); }
    var venue = field(form, "Venue", el("select"));
    var anyVenue = option(venue, "", "any venue");
    var venueOptions = venues.map(function (v) { return option(venue, v, v); });
    var sort = field(form, "Sort", el("select"));
    SORTS.forEach(function (o) { option(sort, o[0], o[1]); });
    var reset = el("button", "pp-clear", "Clear all");
    reset.type = "button";
    form.appendChild(reset);

    // Tags: several at once, all of them or any of them, each with the count it gives.
    var tagBox = el("details", "pp-tags");
    var tagSummary = el("summary", null, "Tags");
    tagBox.appendChild(tagSummary);
    var mode = el("select");
    mode.setAttribute("aria-label", "Match");
    option(mode, "all", "papers with all the chosen tags");
    option(mode, "any", "papers with any chosen tag");
    var modeLabel = el("label", "pp-field pp-mode");
    modeLabel.appendChild(el("span", null, "Match"));
    modeLabel.appendChild(mode);
    tagBox.appendChild(modeLabel);
    var tagList = el("div", "pp-taglist");
    var tagChecks = tagNames.map(function (t) {
      var label = el("label", "pp-check");
      var box = el("input");
      box.type = "checkbox";
      box.value = t;
      label.appendChild(box);
      label.appendChild(document.createTextNode(" " + t + " "));
      label.appendChild(el("span", "pp-n"));
      tagList.appendChild(label);
      return box;
    });
    tagBox.appendChild(tagList);
    form.appendChild(tagBox);

    var notice = el("p", "pp-notice");
    notice.setAttribute("role", "status");
    var tools = el("p", "pp-tools");
    var citeFormat = el("select", "pp-citefmt");
    citeFormat.setAttribute("aria-label", "Citation format");
    // [format, label, file ending] of each format offered (catalog/site/downloads.py).
    var citeFormats = data.cite || [["bibtex", "BibTeX", ".bib"]];
    citeFormats.forEach(function (f) { option(citeFormat, f[0], f[1]); });
    var download = el("button", "pp-bibset", "");
    download.type = "button";
    tools.appendChild(citeFormat);
    tools.appendChild(document.createTextNode(" "));
    tools.appendChild(download);
    root.textContent = "";
    root.appendChild(form);
    root.appendChild(notice);
    root.appendChild(tools);
    var count = document.getElementById("pp-count");
    count.setAttribute("aria-live", "polite");

    function chosenTags() {
      return tagChecks.filter(function (b) { return b.checked; })
        .map(function (b) { return b.value; });
    }

    function matches(p, except) {
      var a = +from.value, b = +to.value;
      if (a > b) { var t = a; a = b; b = t; }
      if (p.y < a || p.y > b) return false;
      if (except !== "venue" && venue.value && p.v !== venue.value) return false;
      if (except !== "tags") {
        var tags = chosenTags();
        if (tags.length) {
          var has = function (t) { return p.g.indexOf(t) >= 0; };
          if (mode.value === "any" ? !tags.some(has) : !tags.every(has)) return false;
        }
      }
      return true;
    }

    // ------------------------------------------------------------ state in the address

    function toHash() {
      var parts = [];
      if (text.value) parts.push("q=" + encodeURIComponent(text.value));
      if (+from.value !== lo) parts.push("from=" + from.value);
      if (+to.value !== hi) parts.push("to=" + to.value);
      if (venue.value) parts.push("venue=" + encodeURIComponent(venue.value));
      chosenTags().forEach(function (t) { parts.push("tag=" + encodeURIComponent(t)); });
      if (mode.value !== "all") parts.push("match=" + mode.value);
      if (sort.value !== "rank") parts.push("sort=" + sort.value);
      return parts.length ? "#" + parts.join("&") : "";
    }

    // The filters as the address says; what it says that no filter can take is reported.
    function fromHash() {
      var ignored = [];
      text.value = ""; from.value = lo; to.value = hi; venue.value = ""; sort.value = "rank";
      mode.value = "all";
      tagChecks.forEach(function (b) { b.checked = false; });
      var choose = function (select, value, name, why) {
        var ok = Array.from(select.options).some(function (o) { return o.value === value; });
        if (ok) select.value = value;
        else ignored.push(name + "=" + value + " (" + why + ")");
      };
      readHash().forEach(function (kv) {
        var name = kv[0], value = kv[1];
        if (name === "q") text.value = value;
        else if (name === "from" || name === "to") {
          choose(name === "from" ? from : to, value, name,
                 "the papers run from " + lo + " to " + hi);
        } else if (name === "venue") choose(venue, value, name, "no paper from that venue");
        else if (name === "tag") {
          var box = tagChecks.filter(function (b) { return b.value === value; })[0];
          if (box) box.checked = true;
          else ignored.push("tag=" + value + " (no paper has that tag)");
        } else if (name === "match") choose(mode, value, name, "all or any");
        else if (name === "sort") choose(sort, value, name, "rank, year, year-asc, venue or title");
        else ignored.push(name + (value ? "=" + value : "") + " (not a filter)");
      });
      notice.textContent = ignored.length ?
        "Not understood in the address, and left out: " + ignored.join("; ") + "." : "";
    }

    // A change of filters is a step back in history; typing in Words is one step.
    function remember(push) {
      var hash = toHash();
      if (hash === location.hash || (!hash && !location.hash)) return;
      var target = hash || location.pathname + location.search;
      if (push) history.pushState(null, "", target);
      else history.replaceState(null, "", target);
    }

    // ------------------------------------------------------------ the list

    var shown = [], rendered = 0;
    var sentinel = el("li", "pp-more");
    var observer = "IntersectionObserver" in window ? new IntersectionObserver(function (seen) {
      if (seen.some(function (s) { return s.isIntersecting; })) more();
    }, { rootMargin: "800px" }) : null;

    function more(upTo) {
      var stop = Math.min(shown.length, Math.max(upTo || 0, rendered + BATCH));
      var frag = document.createDocumentFragment();
      for (; rendered < stop; rendered++) frag.appendChild(entry(shown[rendered], data));
      list.insertBefore(frag, sentinel);
      sentinel.textContent = rendered < shown.length ? "Loading more…" : "";
      if (!observer && rendered < shown.length) more();
    }

    // The full entries the page came with, if they are the first ones to show now: kept
    // (the plain lines after them go), so the list does not change under the reader.
    // Once only: after that the list is the script's own.
    var fresh = true;
    function written() {
      if (!fresh) return 0;
      fresh = false;
      var items = Array.from(list.children);
      var full = items.filter(function (li) { return li.classList.contains("pp-entry"); });
      var same = full.length <= shown.length && full.every(function (li, i) {
        var a = li.querySelector("a.pp-title");
        return a && items[i] === li && a.getAttribute("href") === shown[i].u;
      });
      if (!same) return 0;
      items.slice(full.length).forEach(function (li) { list.removeChild(li); });
      return full.length;
    }

    function counts(base) {
      // What each venue and each tag would give with the other filters as they are.
      var byVenue = {}, byTag = {};
      base.forEach(function (p) {
        if (matches(p, "venue")) byVenue[p.v] = (byVenue[p.v] || 0) + 1;
      });
      var tags = chosenTags(), any = mode.value === "any", kept = 0;
      base.forEach(function (p) {
        if (!matches(p, "tags")) return;
        var has = function (t) { return p.g.indexOf(t) >= 0; };
        // "all": the papers ticking a tag would leave. "any": those shown now (kept)
        // and the ones a tag would add: its papers that have none of the chosen tags.
        if (any && tags.some(has)) { kept++; return; }
        p.g.forEach(function (t) {
          if (any || tags.every(has)) byTag[t] = (byTag[t] || 0) + 1;
        });
      });
      if (any) tagNames.forEach(function (t) { byTag[t] = (byTag[t] || 0) + kept; });
      // A venue no paper would match is shown but cannot be chosen (unless it is).
      venueOptions.forEach(function (o) {
        var n = byVenue[o.value] || 0;
        o.textContent = o.value + " (" + n + ")";
        o.disabled = !n && o.value !== venue.value;
      });
      anyVenue.textContent = "any venue";
      tagChecks.forEach(function (b) {
        b.parentNode.querySelector(".pp-n").textContent = "(" + (byTag[b.value] || 0) + ")";
      });
      var n = tags.length;
      tagSummary.textContent = n ? "Tags: " + tags.join(mode.value === "any" ? " or " : " and ")
        : "Tags (any)";
    }

    function apply() {
      var found = byWords(papers, data, text.value), base = found || papers;
      shown = base.filter(function (p) { return matches(p); });
      // Best match first keeps the ranking; without words it is newest first.
      if (!found || sort.value !== "rank") shown.sort(compare(sort.value));
      counts(base);
      rendered = written();
      if (!rendered) list.textContent = "";
      list.classList.remove("pp-plain");
      list.appendChild(sentinel);
      more();
      count.textContent = shown.length + " of " + papers.length + " papers" +
        (shown.length ? "." : ": no paper matches; widen the filters.");
      downloadLabel();
      download.disabled = !shown.length;
    }

    function downloadLabel() {
      var f = citeFormats[citeFormat.selectedIndex];
      download.textContent = f[1] + " of these " + shown.length + " papers (" + f[2] + ")";
    }
    citeFormat.addEventListener("change", downloadLabel);

    download.addEventListener("click", function () {
      saveCitations(citeFormat.value, shown.map(function (p) { return p.k; }), "papers");
    });

    // Arrow keys run through a list's options, each a change: the first makes a step
    // in history, the next ones refine it until the list loses focus. A choice made
    // with the mouse is always a step.
    [from, to, venue, sort, mode].forEach(function (c) {
      var stepping = false, byKey = false;
      c.addEventListener("keydown", function () { byKey = true; });
      c.addEventListener("change", function () {
        apply();
        remember(!(byKey && stepping));
        stepping = byKey;
        byKey = false;
      });
      c.addEventListener("blur", function () { stepping = false; });
    });
    tagChecks.forEach(function (c) {
      c.addEventListener("change", function () { apply(); remember(true); });
    });
    // The first key typed makes a step in history; the next ones refine that step.
    var typing = false;
    text.addEventListener("input", function () { apply(); remember(!typing); typing = true; });
    text.addEventListener("change", function () { typing = false; });
    reset.addEventListener("click", function () {
      text.value = ""; from.value = lo; to.value = hi; venue.value = ""; sort.value = "rank";
      mode.value = "all";
      tagChecks.forEach(function (b) { b.checked = false; });
      apply(); remember(true);
    });
    window.addEventListener("hashchange", function () { fromHash(); apply(); });

    // Back from a paper: as many entries as were shown, and the same place in them.
    if ("scrollRestoration" in history) history.scrollRestoration = "manual";
    var saving = 0;
    function savePlace() {
      saving = 0;
      history.replaceState({ ppRendered: rendered, ppY: window.scrollY }, "", location.href);
    }
    window.addEventListener("scroll", function () {
      if (!saving) saving = setTimeout(savePlace, 150);
    }, { passive: true });
    window.addEventListener("pagehide", savePlace);

    if (observer) observer.observe(sentinel);
    var place = history.state;
    fromHash();
    apply();
    if (place && place.ppRendered) {
      more(place.ppRendered);
      window.scrollTo(0, place.ppY || 0);
    }
  }

  function nameSearchDialog() {
    // The theme's search dialog has no accessible name (axe: aria-dialog-name).
    var dialog = document.querySelector('.md-search[role="dialog"]');
    if (dialog && !dialog.hasAttribute("aria-label")) dialog.setAttribute("aria-label", "Search");
  }

  // The theme wraps each code block's copy button in an unnamed <nav>: one landmark per
  // block, none told apart (axe: landmark-unique). A button bar is no landmark.
  function unlandmarkCodeButtons() {
    document.querySelectorAll("nav.md-code__nav:not([role])").forEach(function (nav) {
      nav.setAttribute("role", "none");
    });
  }

  // The home page's search button opens the theme's search, as its header icon does.
  function searchButtons() {
    var toggle = document.getElementById("__search");
    var input = document.querySelector("[data-md-component=search-query]");
    document.querySelectorAll(".pp-open-search").forEach(function (button) {
      if (!toggle || !input) return;
      button.hidden = false;
      button.addEventListener("click", function () {
        toggle.checked = true;
        toggle.dispatchEvent(new Event("change"));
        input.focus();
      });
    });
  }

  function start() {
    nameSearchDialog();
    searchButtons();
    unlandmarkCodeButtons();
    if ("MutationObserver" in window && document.querySelector("pre > code")) {
      new MutationObserver(unlandmarkCodeButtons)
        .observe(document.body, { childList: true, subtree: true });
    }
    var root = document.getElementById("pp-filters");
    var list = document.getElementById("pp-all");
    if (root && list) loadData(root, function () { setup(root, list, window.PAPERS_DATA); });
  }

  // The All-papers data scripts (the words' stemmer and search, then the data), loaded when
  // the address or history asks for a filtered or scrolled list, else on the reader's
  // first sign of life (a pointer moved, a touch, a key, a scroll): the page comes with
  // its first entries in full, and parsing the data never holds up its first paint.
  function loadData(root, done) {
    var sources = (root.getAttribute("data-scripts") || "").split(" ").filter(Boolean);
    var started = false, asked = false;
    var events = ["pointermove", "pointerdown", "touchstart", "keydown", "focusin", "wheel",
      "scroll"];
    function next() {
      if (!sources.length) {
        if (!window.PAPERS_DATA) return;
        done();
        // The button standing in for the filters is gone: the Words box takes its focus.
        var words = root.querySelector("input");
        if (asked && words) words.focus();
        return;
      }
      var script = document.createElement("script");
      script.src = sources.shift();
      script.onload = next;
      document.head.appendChild(script);
    }
    function go() {
      if (started) return;
      started = true;
      events.forEach(function (e) { window.removeEventListener(e, go, true); });
      next();
    }
    var button = root.querySelector(".pp-show-filters");
    if (button) button.addEventListener("click", function () { asked = true; go(); });
    if (location.hash || (history.state && history.state.ppRendered)) return go();
    events.forEach(function (e) { window.addEventListener(e, go, { capture: true, passive: true }); });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
