/* The site search's worker: Material for MkDocs' own search worker, with queries
   that stem as `papers search` does and rank as it does. The page names it in place
   of Material's (papers-search-setup.js), with Material's worker file name after the
   '#'; it sits in the same folder.

   Why not the stemmer option of the search plugin (pipeline: [stemmer, ...])?
   Material appends '*' to every word typed, so that "embed" finds "embedding",
   and lunr passes a term with a wildcard through no pipeline: the index would
   hold stems ("embed") while the query stays a raw prefix ("embedding*"), which
   then finds only the few words that stemming left long enough. So the index
   stays as Material builds it (whole words), and each query word becomes the
   prefix it shares with its stem, by the catalog's own stemmer (Snowball English,
   javascripts/stem.js): "recommender" and "recommendation" both become
   "recommend*", "cache" and "caching" "cach*", "embeddings" "embed*", while
   "generative" stays "generative*" (not "gener*": generic, generation). That
   prefix only narrows the index's words to look at: the clause then finds those
   with the word's stem ("cach*" would find Cachew too), and, for a word the index
   does not hold whole (one still being typed), those it begins. Words in quotes
   (Material makes them required terms, "+word") are stemmed alike.

   As in `papers search`, a page must have every word typed (Material would list
   pages with any of them, "embedding cache" a KV-cache paper first, "Missing:
   embed"); the title weighs most (the plugin's field boosts) and a paper's page
   more than a list's (each page's `search: boost`, catalog/site/links.py). The grey
   suggestion completes only the word being typed: a word the index holds whole
   is not narrowed to a longer one ("cache" never becomes "cachedattention"). */
(function () {
  "use strict";

  // Only a file name of Material's worker, in this folder: never another script.
  var name = decodeURIComponent(self.location.hash.slice(1));
  if (!/^search\.[0-9a-f]+\.min\.js$/.test(name)) {
    throw new Error("papers-search.js: load it as papers-search.js#search.HASH.min.js");
  }
  importScripts(name);
  importScripts("../../../javascripts/stem.js"); // the catalog's stemmer: papersWords

  var lunr = self.lunr; // Material's worker exposes the lunr it indexes with
  // Another Material version without it: its search as it comes, unstemmed (the
  // browser tests fail then, rather than the site's search).
  if (!lunr || !lunr.Query || !lunr.Index || !self.papersWords) return;
  var MIN = 3; // a stem prefix shorter than this ("us" for "use") is not used

  function stem(word) {
    return self.papersWords.stem(word);
  }

  function isStopWord(word) {
    return !lunr.stopWordFilter(new lunr.Token(word));
  }

  // The longest prefix a word shares with its stem ("policy", "polici" -> "polic").
  function stemPrefix(word) {
    var stemmed = stem(word);
    var n = 0;
    while (n < word.length && n < stemmed.length && word[n] === stemmed[n]) n++;
    return n >= MIN ? word.slice(0, n) : word;
  }

  // The word typed for each stem prefix of the last query parsed ("cach" for "cache"):
  // Material looks up its suggestion with the parsed terms.
  var typed = {};

  // A clause as lunr's query parser makes it from the typed query, rewritten to
  // the stem's prefix and, unless excluded, required. Fuzzy (~) and boosted (^)
  // terms are left as typed.
  function rewrite(clause) {
    if (clause.editDistance || clause.boost !== 1) return;
    var term = clause.term;
    var word = /^[^*]+\*$/.test(term) ? term.slice(0, -1) : term;
    if (word === term) {
      // A term without wildcard: a required or excluded word ("+word", "-word").
      if (term.indexOf("*") !== -1 || clause.presence === lunr.Query.presence.OPTIONAL) return;
    }
    if (isStopWord(word)) return;
    var prefix = stemPrefix(word);
    typed[prefix] = word;
    clause.term = prefix + "*";
    clause.usePipeline = false;
    clause.ppTerms = sameStem(word, prefix, this.ppIndex);
    if (clause.presence === lunr.Query.presence.OPTIONAL) {
      clause.presence = lunr.Query.presence.REQUIRED;
    }
  }

  // The index's words, sorted, for the lookups below (once per index).
  function sortedTerms(index) {
    if (!index.ppSorted) index.ppSorted = Object.keys(index.invertedIndex).sort();
    return index.ppSorted;
  }

  // The index's words that begin with prefix, in order.
  function withPrefix(index, prefix) {
    var terms = sortedTerms(index), lo = 0, hi = terms.length;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (terms[mid] < prefix) lo = mid + 1; else hi = mid;
    }
    var out = [];
    for (var i = lo; i < terms.length && terms[i].lastIndexOf(prefix, 0) === 0; i++) {
      out.push(terms[i]);
    }
    return out;
  }

  // The words a typed word finds, as `papers search` finds them: the index's words
  // with its stem ("cache" finds cached and caching, not Cachew, whose stem is
  // "cachew"), and, unless the index holds the word whole (then it is typed to its
  // end), the words that begin with it ("embe" finds embedding). Undefined without
  // an index: the plain stem prefix.
  function sameStem(word, prefix, index) {
    if (!index || !index.invertedIndex) return undefined;
    var wanted = stem(word);
    var found = withPrefix(index, prefix).filter(function (t) { return stem(t) === wanted; });
    if (Object.prototype.hasOwnProperty.call(index.invertedIndex, word)) return found;
    return found.concat(withPrefix(index, word)).sort().filter(function (t, i, all) {
      return t !== all[i - 1];
    });
  }

  // A clause rewritten above finds exactly its words (lunr would expand the prefix).
  var fromClause = lunr.TokenSet.fromClause;
  lunr.TokenSet.fromClause = function (clause) {
    if (!clause.ppTerms) return fromClause.call(this, clause);
    return clause.ppTerms.length
      ? lunr.TokenSet.fromArray(clause.ppTerms)
      : lunr.TokenSet.fromString(clause.term.replace(/\*$/, ""));
  };

  // Material's suggestion lookup (title words beginning with each term): the word as
  // typed, whole when the index holds it whole, else a prefix of the words to come.
  function suggestion(clause, index) {
    var word = typed[clause.term.replace(/\*$/, "")];
    if (!word) return;
    var whole = index && Object.prototype.hasOwnProperty.call(index.invertedIndex, word);
    clause.term = whole ? word : word + "*";
    clause.wildcard = whole ? lunr.Query.wildcard.NONE : lunr.Query.wildcard.TRAILING;
    clause.usePipeline = false;
  }

  // Punctuation in a query is a separator, as it is in the index (mkdocs.yml's
  // separator): "moe:" or "Fleche:" would otherwise be read as a field name, and
  // "(cache)" as a word that no page holds. Each such character becomes a space, one
  // for one, so the positions Material's worker reads from the lexer stay right.
  // Kept: letters, digits, lunr's operators (+ - * ~ ^) and a dot between digits; a
  // hyphen inside a word separates, as in the index ("all-to-all" is not "all -to").
  // A '*' right after punctuation goes too (Material appends one to each word typed:
  // "fleche:*" must not leave a lone "*", which matches every page).
  var PUNCTUATION = /(?:[^\s\w*+~^.\-\u00c0-\uffff]|_|\.(?!\d)|(?<=[^\s+~^*-])-)+\**/g;
  var Lexer = lunr.QueryLexer;
  function CleanLexer(str) {
    Lexer.call(this, String(str).replace(PUNCTUATION, function (m) {
      return new Array(m.length + 1).join(" ");
    }));
  }
  CleanLexer.prototype = Lexer.prototype;
  Object.keys(Lexer).forEach(function (name) { CleanLexer[name] = Lexer[name]; });
  lunr.QueryLexer = CleanLexer;

  // The index a query runs on, for the suggestion lookup to ask what words it holds.
  var runQuery = lunr.Index.prototype.query;
  lunr.Index.prototype.query = function (fn) {
    var index = this;
    return runQuery.call(this, function (query) {
      query.ppIndex = index;
      return fn.call(this, query);
    });
  };

  var parse = lunr.QueryParser.prototype.parse;
  lunr.QueryParser.prototype.parse = function () {
    typed = {};
    return parse.apply(this, arguments);
  };

  var addClause = lunr.Query.prototype.clause;
  lunr.Query.prototype.clause = function (clause) {
    // The parser hands over clauses without a wildcard flag; Material's own
    // lookups (title suggestions) set one, with the terms the parser made.
    var parsed = !("wildcard" in clause);
    if (!parsed) suggestion(clause, this.ppIndex);
    addClause.call(this, clause);
    if (parsed) rewrite.call(this, clause);
    return this;
  };
})();
