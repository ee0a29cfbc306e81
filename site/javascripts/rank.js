/* The All-papers Words box's search: what `papers search WORDS` finds, in its order.
   Each word (in any form: Snowball stems, javascripts/stem.js) and quoted phrase is
   required; if no paper has them all, words are read as prefixes, as the command
   then does. The ranking is the index's: SQLite FTS5's bm25 (its formula, from
   fts5_aux.c) with the index's column weights, the boost of a curated paper (tags or
   a summary) matching in its title, tags or summary, the boost of the words side by
   side, ties newest first, then by key. Its numbers come with the page's data
   (data.rank, from catalog/index/query.py's ranking() when the site is built), and
   the text is the pages' text, which the index reads too (catalog/index/rows.py).
   tests/test_rank_js.py compares it with `papers search` on the relevance set.
   Our own code, no library. */
(function () {
  "use strict";

  var root = typeof globalThis !== "undefined" ? globalThis : self;

  // Each searched field's text as the index reads it (catalog/index/rows.py).
  var FIELDS = {
    title: function (p) { return p.t; },
    authors: function (p) { return p.a.join(" "); },
    tags: function (p) { return p.g.join(" "); },
    summary: function (p) { return p.s; },
    venue_name: function (p) { return p.n; },
    abstract: function (p) { return p.b; }
  };

  // Each paper's stems by column, in the index's column order, and the catalog's
  // folded words (the index's words table, for prefixes). Made on the first search.
  function searchIndex(data) {
    if (data.ppIndex) return data.ppIndex;
    var W = root.papersWords, total = 0, folded = new Set(), stems = new Map();
    // Each distinct word stemmed once: most words of the abstracts repeat.
    var stem = function (w) {
      var s = stems.get(w);
      if (s === undefined) { s = W.stem(w); stems.set(w, s); }
      return s;
    };
    data.papers.forEach(function (p) {
      p._cols = data.rank.columns.map(function (name) {
        var words = W.words(FIELDS[name](p) || "");
        words.forEach(function (w) { folded.add(w); });
        return words.map(stem);
      });
      p._size = p._cols.reduce(function (n, c) { return n + c.length; }, 0);
      total += p._size;
    });
    data.ppIndex = { avgdl: total / data.papers.length, words: Array.from(folded).sort() };
    return data.ppIndex;
  }

  // The query's terms as `papers search` reads them (catalog/index/terms.py): each
  // quoted phrase, and each word between blanks, as its stems ("near-memory" is the
  // phrase "near memory"); a word ending in * (or every word, with prefix) begins a
  // word: its last word is kept as typed. A term is its phrases, any one of which does.
  function terms(query, prefix) {
    var W = root.papersWords, out = [];
    String(query).replace(/"([^"]*)"?|[^\s"]+/g, function (m, quoted) {
      var words = W.words(quoted === undefined ? m : quoted);
      if (!words.length) return m;
      var open = quoted === undefined && (prefix || /\*$/.test(m));
      var stems = words.map(function (w, i) {
        return open && i === words.length - 1 ? w : W.stem(w);
      });
      out.push([{ stems: stems, prefix: open, plain: !open && stems.length === 1 }]);
      return m;
    });
    return out;
  }

  // A prefix of one word also stands for the stems of the words it begins (the index
  // holds "embed" for "embedding", which "embedd*" begins), unless it begins too many.
  function widen(term, index, most) {
    var phrase = term[0];
    if (!phrase.prefix || phrase.stems.length !== 1) return term;
    var low = phrase.stems[0], words = index.words, found = [];
    var i = lowerBound(words, low);
    for (; i < words.length && words[i].lastIndexOf(low, 0) === 0; i++) found.push(words[i]);
    if (!found.length || found.length > most) return term;
    var stems = Array.from(new Set(found.map(root.papersWords.stem)));
    return term.concat(stems.map(function (s) { return { stems: [s], prefix: false }; }));
  }

  function lowerBound(sorted, value) {
    var lo = 0, hi = sorted.length;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (sorted[mid] < value) lo = mid + 1; else hi = mid;
    }
    return lo;
  }

  // Where in one column's stems the phrase stands: each start position.
  function places(col, phrase) {
    var out = [], n = phrase.stems.length, last = phrase.stems[n - 1];
    for (var i = 0; i + n <= col.length; i++) {
      var j = 0;
      while (j < n - 1 && col[i + j] === phrase.stems[j]) j++;
      if (j === n - 1 && (phrase.prefix ? col[i + j].lastIndexOf(last, 0) === 0
        : col[i + j] === last)) out.push(i);
    }
    return out;
  }

  // Whether one column has every near word within `distance` words of the others
  // (FTS5's NEAR of one-word phrases: all in a window of distance + 2 words).
  function near(col, stems, distance) {
    var at = [];
    stems.forEach(function (s, k) {
      col.forEach(function (c, i) { if (c === s) at.push([i, k]); });
    });
    at.sort(function (x, y) { return x[0] - y[0]; });
    for (var a = 0; a < at.length; a++) {
      var seen = new Set();
      for (var z = a; z < at.length && at[z][0] - at[a][0] <= distance + 1; z++) {
        seen.add(at[z][1]);
      }
      if (seen.size === stems.length) return true;
    }
    return false;
  }

  // The papers with every term, best first, with their scores (lower is better).
  function ranked(papers, data, query, prefix) {
    var index = searchIndex(data), rank = data.rank;
    var found = terms(query, prefix).map(function (t) { return widen(t, index, rank.widened); });
    var phrases = [].concat.apply([], found);
    // Each paper's count of each phrase, weighted by column; a paper with every term.
    var hits = phrases.map(function () { return 0; }), matched = [];
    papers.forEach(function (p) {
      var freq = phrases.map(function (phrase, k) {
        var f = 0, any = false;
        p._cols.forEach(function (col, c) {
          var n = places(col, phrase).length;
          if (n) any = true;
          for (var i = 0; i < n; i++) f += rank.weights[c];
        });
        if (any) hits[k]++;
        return f;
      });
      var at = 0, every = found.every(function (term) {
        var some = term.some(function (_, j) { return freq[at + j] > 0; });
        at += term.length;
        return some;
      });
      if (every) matched.push({ p: p, freq: freq });
    });
    var count = papers.length;
    var idf = hits.map(function (n) {
      var v = Math.log((count - n + 0.5) / (n + 0.5));
      return v <= 0 ? 1e-6 : v;
    });
    var nearStems = Array.from(new Set(found.filter(function (t) {
      return t.length === 1 && t[0].plain;
    }).map(function (t) { return t[0].stems[0]; })));
    matched.forEach(function (m) {
      var p = m.p, score = 0, k1 = rank.k1, b = rank.b;
      m.freq.forEach(function (f, k) {
        score += idf[k] * ((f * (k1 + 1.0)) / (f + k1 * (1 - b + b * p._size / index.avgdl)));
      });
      m.score = -1.0 * score;
      if ((p.g.length || p.s) && curatedHas(p, found, rank.curatedColumns)) {
        m.score *= rank.curated;
      }
      if (nearStems.length > 1 && p._cols.some(function (col) {
        return near(col, nearStems, rank.nearDistance);
      })) m.score *= rank.near;
    });
    matched.sort(function (x, y) {
      if (x.score !== y.score) return x.score - y.score;
      if (x.p.y !== y.p.y) return y.p.y - x.p.y;
      return x.p.k < y.p.k ? -1 : x.p.k > y.p.k ? 1 : 0;
    });
    return matched.map(function (m) { return m.p; });
  }

  // Whether every term stands in the curated columns (title, tags, summary).
  function curatedHas(p, found, columns) {
    return found.every(function (term) {
      return term.some(function (phrase) {
        return columns.some(function (c) { return places(p._cols[c], phrase).length > 0; });
      });
    });
  }

  // Papers with every word (in any form: stems compare) and phrase, best first, as
  // `papers search WORDS`; if none has them all, papers with words that begin so, as
  // the command then tries. null when the query has no words.
  function byWords(papers, data, query) {
    if (!root.papersWords.words(query).length) return null;
    var found = ranked(papers, data, query, false);
    return found.length ? found : ranked(papers, data, query, true);
  }

  var api = { byWords: byWords };
  root.papersRank = api;
  if (typeof module !== "undefined") module.exports = api;
})();
