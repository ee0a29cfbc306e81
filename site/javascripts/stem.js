/* Words as `papers search` matches them: the text cut at every character that is not
   a letter or digit, folded to lower case without accents, and each word reduced to
   its Snowball English stem, with the few stems catalog/index/words.py pins for this
   field (PINNED). The catalog's index holds the same stems (PyStemmer), so the
   All-papers box and the search dialog find what `papers search` finds.
   tests/test_stems.py compares this stemmer with PyStemmer on every word of the
   catalog. Written from the published description of the algorithm; no library. */
(function () {
  "use strict";

  var PINNED = { generative: "generative", generatively: "generative", embed: "embed",
    embeds: "embed", accelerator: "accelerator", accelerators: "accelerator" };
  // Snowball keeps an s after a u ("gpus"): the field's processors in the plural.
  ["gpu", "tpu", "cpu", "npu", "dpu", "ipu", "xpu"].forEach(function (unit) {
    PINNED[unit + "s"] = unit;
  });
  var EXCEPTIONS = { skis: "ski", skies: "sky", dying: "die", lying: "lie", tying: "tie",
    idly: "idl", gently: "gentl", ugly: "ugli",
    early: "earli", only: "onli", singly: "singl", sky: "sky", news: "news", howe: "howe",
    atlas: "atlas", cosmos: "cosmos", bias: "bias", andes: "andes" };
  var AFTER_1A = ["inning", "outing", "canning", "herring", "earring", "proceed", "exceed",
    "succeed"];
  // Words beginning so have R1 right after the prefix (the algorithm's own exceptions).
  var R1_PREFIXES = ["gener", "commun", "arsen", "past", "univers", "later", "emerg",
    "organ", "inter"];

  function isVowel(c) { return "aeiouy".indexOf(c) >= 0; }

  // Where the region after the first non-vowel that follows a vowel begins, from i.
  function regionAfter(w, i) {
    for (; i < w.length - 1; i++) {
      if (isVowel(w[i]) && !isVowel(w[i + 1])) return i + 2;
    }
    return w.length;
  }

  // A short syllable ends w[0..end): non-vowel, vowel, non-vowel other than w, x, Y;
  // or, at the word's start, vowel then non-vowel.
  function shortSyllable(w, end) {
    if (end === 2) return isVowel(w[0]) && !isVowel(w[1]);
    return end >= 3 && !isVowel(w[end - 3]) && isVowel(w[end - 2]) &&
      !isVowel(w[end - 1]) && "wxY".indexOf(w[end - 1]) < 0;
  }

  function endsWith(w, s) { return w.length >= s.length && w.slice(-s.length) === s; }

  // The longest of these suffixes that ends w, or "".
  function longest(w, suffixes) {
    var best = "";
    suffixes.forEach(function (s) {
      if (s.length > best.length && endsWith(w, s)) best = s;
    });
    return best;
  }

  function step1a(w) {
    var s = longest(w, ["sses", "ied", "ies", "s", "us", "ss"]);
    if (s === "sses") return w.slice(0, -2);
    if (s === "ied" || s === "ies") return w.slice(0, -3) + (w.length > 4 ? "i" : "ie");
    if (s === "s") {
      // Removed when a vowel comes before the letter before the s.
      for (var i = 0; i < w.length - 2; i++) if (isVowel(w[i])) return w.slice(0, -1);
    }
    return w;
  }

  function step1b(w, r1) {
    var s = longest(w, ["eed", "eedly", "ed", "edly", "ing", "ingly"]);
    if (!s) return w;
    if (s === "eed" || s === "eedly") {
      return w.length - s.length >= r1 ? w.slice(0, -s.length) + "ee" : w;
    }
    var stem = w.slice(0, -s.length);
    if (!/[aeiouy]/.test(stem)) return w;
    if (/(at|bl|iz)$/.test(stem)) return stem + "e";
    // A double is undone ("bidd" -> "bid"), but not after an a, e or o that begins a
    // three-letter stem ("add", "ebb", "err").
    if (/(bb|dd|ff|gg|mm|nn|pp|rr|tt)$/.test(stem)) {
      return stem.length === 3 && "aeo".indexOf(stem[0]) >= 0 ? stem : stem.slice(0, -1);
    }
    if (r1 >= stem.length && shortSyllable(stem, stem.length)) return stem + "e";
    return stem;
  }

  function step1c(w) {
    var n = w.length;
    if (n > 2 && (w[n - 1] === "y" || w[n - 1] === "Y") && !isVowel(w[n - 2])) {
      return w.slice(0, -1) + "i";
    }
    return w;
  }

  var STEP2 = { tional: "tion", enci: "ence", anci: "ance", abli: "able", entli: "ent",
    izer: "ize", ization: "ize", ational: "ate", ation: "ate", ator: "ate", alism: "al",
    aliti: "al", alli: "al", fulness: "ful", ousli: "ous", ousness: "ous", iveness: "ive",
    iviti: "ive", biliti: "ble", bli: "ble", ogi: "og", fulli: "ful", lessli: "less",
    li: "" };
  var STEP2_KEYS = Object.keys(STEP2);

  function step2(w, r1) {
    var s = longest(w, STEP2_KEYS);
    var at = w.length - s.length;
    if (!s || at < r1) return w;
    if (s === "ogi" && w[at - 1] !== "l") return w;
    if (s === "li" && "cdeghkmnrt".indexOf(w[at - 1]) < 0) return w;
    return w.slice(0, at) + STEP2[s];
  }

  var STEP3 = { tional: "tion", ational: "ate", alize: "al", icate: "ic", iciti: "ic",
    ical: "ic", ful: "", ness: "", ative: "" };
  var STEP3_KEYS = Object.keys(STEP3);

  function step3(w, r1, r2) {
    var s = longest(w, STEP3_KEYS);
    var at = w.length - s.length;
    if (!s || at < r1 || (s === "ative" && at < r2)) return w;
    return w.slice(0, at) + STEP3[s];
  }

  var STEP4 = ["al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment",
    "ent", "ism", "ate", "iti", "ous", "ive", "ize", "ion"];

  function step4(w, r2) {
    var s = longest(w, STEP4);
    var at = w.length - s.length;
    if (!s || at < r2) return w;
    if (s === "ion" && "st".indexOf(w[at - 1]) < 0) return w;
    return w.slice(0, at);
  }

  function step5(w, r1, r2) {
    var n = w.length;
    if (w[n - 1] === "e" && (n - 1 >= r2 || (n - 1 >= r1 && !shortSyllable(w, n - 1)))) {
      return w.slice(0, -1);
    }
    if (w[n - 1] === "l" && n - 1 >= r2 && w[n - 2] === "l") return w.slice(0, -1);
    return w;
  }

  function snowball(word) {
    if (word.length <= 2) return word;
    if (EXCEPTIONS.hasOwnProperty(word)) return EXCEPTIONS[word];
    // A y at the start or after a vowel is a consonant: Y while the steps run.
    var w = word.replace(/^y/, "Y").replace(/([aeiouy])y/g, "$1Y");
    var r1 = w.length;
    R1_PREFIXES.forEach(function (p) { if (r1 === w.length && w.indexOf(p) === 0) r1 = p.length; });
    if (r1 === w.length) r1 = regionAfter(w, 0);
    var r2 = regionAfter(w, r1);
    w = step1a(w);
    if (AFTER_1A.indexOf(w) >= 0) return w;
    w = step1c(step1b(w, r1));
    w = step5(step4(step3(step2(w, r1), r1, r2), r2), r1, r2);
    return w.replace(/Y/g, "y");
  }

  function stem(word) {
    return PINNED.hasOwnProperty(word) ? PINNED[word] : snowball(word);
  }

  function fold(text) {
    return String(text).toLowerCase().normalize("NFKD").replace(/\p{M}/gu, "")
      .replace(/ß/g, "ss").replace(/[øØ]/g, "o").replace(/[łŁ]/g, "l").replace(/æ/g, "ae")
      .replace(/œ/g, "oe").replace(/đ/g, "d").replace(/þ/g, "th");
  }

  function words(text) {
    return fold(text).match(/[\p{L}\p{N}]+/gu) || [];
  }

  var api = { stem: stem, words: words, fold: fold };
  if (typeof window !== "undefined") window.papersWords = api;
  if (typeof self !== "undefined") self.papersWords = api;
  if (typeof module !== "undefined") module.exports = api;
})();
