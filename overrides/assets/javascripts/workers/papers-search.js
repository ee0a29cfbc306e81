/* The site search's worker: Material for MkDocs' own search worker, with queries
   that stem. The page names it in place of Material's (papers-search-setup.js),
   with Material's worker file name after the '#'; it sits in the same folder.

   Why not the stemmer option of the search plugin (pipeline: [stemmer, ...])?
   Material appends '*' to every word typed, so that "embed" finds "embedding",
   and lunr passes a term with a wildcard through no pipeline: the index would
   hold stems ("embed") while the query stays a raw prefix ("embedding*"), which
   then finds only the few words that stemming left long enough. So the index
   stays as Material builds it (whole words), and each query word becomes the
   prefix it shares with its stem: "recommender" and "recommendation" both
   become "recommend*", "cache" and "caching" "cach*", "embeddings" "embed*".
   That prefix is never longer than the word typed, so whatever the plain
   prefix search found is still found. Words in quotes (Material makes them
   required terms, "+word") are stemmed alike. */
(function () {
  "use strict";

  // Only a file name of Material's worker, in this folder: never another script.
  var name = decodeURIComponent(self.location.hash.slice(1));
  if (!/^search\.[0-9a-f]+\.min\.js$/.test(name)) {
    throw new Error("papers-search.js: load it as papers-search.js#search.HASH.min.js");
  }
  importScripts(name);

  var lunr = self.lunr; // Material's worker exposes the lunr it indexes with
  // Another Material version without it: its search as it comes, unstemmed (the
  // browser tests fail then, rather than the site's search).
  if (!lunr || !lunr.Query || !lunr.stemmer) return;
  var MIN = 3; // a stem prefix shorter than this ("us" for "use") is not used

  function stem(word) {
    return lunr.stemmer(new lunr.Token(word)).toString();
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

  // A clause as lunr's query parser makes it from the typed query, rewritten to
  // the stem's prefix. Fuzzy (~) and boosted (^) terms are left as typed.
  function rewrite(clause) {
    if (clause.editDistance || clause.boost !== 1) return;
    var term = clause.term;
    var word = /^[^*]+\*$/.test(term) ? term.slice(0, -1) : term;
    if (word === term) {
      // A term without wildcard: a required or excluded word ("+word", "-word").
      if (term.indexOf("*") !== -1 || clause.presence === lunr.Query.presence.OPTIONAL) return;
      if (isStopWord(term)) return;
    }
    clause.term = stemPrefix(word) + "*";
    clause.usePipeline = false;
  }

  // Punctuation in a query is a separator, as it is in the index (mkdocs.yml's
  // separator): "moe:" or "Fleche:" would otherwise be read as a field name, and
  // "(cache)" as a word that no page holds. Each such character becomes a space, one
  // for one, so the positions Material's worker reads from the lexer stay right.
  // Kept: letters, digits, lunr's operators (+ - * ~ ^) and a dot between digits.
  // A '*' right after punctuation goes too (Material appends one to each word typed:
  // "fleche:*" must not leave a lone "*", which matches every page).
  var PUNCTUATION = /(?:[^\s\w*+~^.\-\u00c0-\uffff]|_|\.(?!\d))+\**/g;
  var Lexer = lunr.QueryLexer;
  function CleanLexer(str) {
    Lexer.call(this, String(str).replace(PUNCTUATION, function (m) {
      return new Array(m.length + 1).join(" ");
    }));
  }
  CleanLexer.prototype = Lexer.prototype;
  Object.keys(Lexer).forEach(function (name) { CleanLexer[name] = Lexer[name]; });
  lunr.QueryLexer = CleanLexer;

  var addClause = lunr.Query.prototype.clause;
  lunr.Query.prototype.clause = function (clause) {
    // The parser hands over clauses without a wildcard flag; Material's own
    // lookups (title suggestions) set one, and their terms are stemmed already.
    var parsed = !("wildcard" in clause);
    addClause.call(this, clause);
    if (parsed) rewrite(clause);
    return this;
  };
})();
