/* Runs before Material's bundle (overrides/main.html), for three things the theme
   has no setting for:

   1. Search runs in our worker, workers/papers-search.js, which wraps Material's
      own and stems query words (see that file for why).
   2. The search index is fetched when search is first used, not on every page
      load: at 5,000 papers it is several megabytes. Material asks for it as the
      page loads; the request waits here until the reader opens or focuses the
      search box (or arrives from a search, with ?q= or ?h= in the address).
      Until then Material shows "Initializing search"; a query typed meanwhile
      runs as soon as the index is in. */
(function () {
  "use strict";

  var config = document.getElementById("__config");
  if (config) {
    try {
      var data = JSON.parse(config.textContent);
      var worker = /^(.*\/)?(search\.[0-9a-f]+\.min\.js)$/.exec(data.search || "");
      if (worker) {
        data.search = (worker[1] || "") + "papers-search.js#" + worker[2];
        config.textContent = JSON.stringify(data);
      }
    } catch (err) {
      // An unexpected configuration: Material's search as it comes, unstemmed.
    }
  }

  // 3. The search worker itself starts when search is first used: Material makes it
  //    as the page loads, but sends it nothing before the index is in (held back
  //    below), so a stand-in keeps its listeners and starts the real one on the
  //    first message. A reader who never searches never loads it.
  var RealWorker = window.Worker;
  var SEARCH_WORKER = /(papers-search|search\.[0-9a-f]+\.min)\.js(#.*)?$/;
  function LazyWorker(url, options) {
    this.url = url;
    this.options = options;
    this.real = null;
    this.listeners = [];
  }
  LazyWorker.prototype.start = function () {
    if (this.real) return this.real;
    this.real = new RealWorker(this.url, this.options);
    var real = this.real;
    this.listeners.splice(0).forEach(function (l) { real.addEventListener(l[0], l[1], l[2]); });
    return real;
  };
  LazyWorker.prototype.addEventListener = function (type, listener, options) {
    if (this.real) this.real.addEventListener(type, listener, options);
    else this.listeners.push([type, listener, options]);
  };
  LazyWorker.prototype.removeEventListener = function (type, listener, options) {
    if (this.real) this.real.removeEventListener(type, listener, options);
    else this.listeners = this.listeners.filter(function (l) {
      return l[0] !== type || l[1] !== listener;
    });
  };
  LazyWorker.prototype.postMessage = function (message, transfer) {
    this.start().postMessage(message, transfer);
  };
  LazyWorker.prototype.terminate = function () {
    if (this.real) this.real.terminate();
  };
  if (RealWorker) {
    window.Worker = function (url, options) {
      return SEARCH_WORKER.test(String(url)) ? new LazyWorker(url, options)
        : new RealWorker(url, options);
    };
  }

  var INDEX = /\/search\/search_index\.json([?#].*)?$/;
  var used = false;
  var waiting = [];

  function use() {
    if (used) return;
    used = true;
    waiting.splice(0).forEach(function (send) { send(); });
  }

  var open = XMLHttpRequest.prototype.open;
  var send = XMLHttpRequest.prototype.send;
  var abort = XMLHttpRequest.prototype.abort;
  XMLHttpRequest.prototype.open = function (method, url) {
    this.ppIndex = INDEX.test(String(url));
    this.ppAborted = false;
    return open.apply(this, arguments);
  };
  XMLHttpRequest.prototype.abort = function () {
    this.ppAborted = true;
    return abort.apply(this, arguments);
  };
  XMLHttpRequest.prototype.send = function () {
    if (this.ppIndex && !used) {
      var request = this;
      var args = arguments;
      waiting.push(function () {
        if (!request.ppAborted) send.apply(request, args);
      });
      return;
    }
    return send.apply(this, arguments);
  };

  function isSearch(node) {
    return node instanceof Element && (node.id === "__search"
      || node.matches("[data-md-component=search-query], label[for=__search]")
      || node.closest("label[for=__search]") !== null);
  }

  // Opening the search (the header's icon on a phone), focusing its box (a click,
  // Tab, or the theme's keys / s f), or arriving from a search result.
  document.addEventListener("focusin", function (ev) { if (isSearch(ev.target)) use(); });
  document.addEventListener("change", function (ev) { if (isSearch(ev.target)) use(); });
  document.addEventListener("pointerdown", function (ev) { if (isSearch(ev.target)) use(); },
                            true);
  var params = new URLSearchParams(location.search);
  if (params.has("q") || params.has("h")) use();
})();
