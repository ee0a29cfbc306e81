/* Words as `papers search` matches them: the text cut at every character that is not
   a letter or digit, folded to lower case without accents, and each word reduced by
   Porter's stemmer, the algorithm of SQLite's porter tokenizer that the catalog's
   index uses. "embeddings" and "embedding" are one word here as they are there.
   tests/test_browser.py compares this stemmer with SQLite's on every indexed word.
   Written from Porter's 1980 description; no library. */
(function () {
  "use strict";

  function isConsonant(w, i) {
    var c = w[i];
    if ("aeiou".indexOf(c) >= 0) return false;
    if (c === "y") return i === 0 || !isConsonant(w, i - 1);
    return true;
  }

  // m in [C](VC){m}[V]: how many vowel-consonant runs the stem w[0..end) has.
  function measure(w, end) {
    var m = 0, i = 0;
    while (i < end && isConsonant(w, i)) i++;
    while (i < end) {
      while (i < end && !isConsonant(w, i)) i++;
      if (i >= end) break;
      while (i < end && isConsonant(w, i)) i++;
      m++;
    }
    return m;
  }

  function hasVowel(w, end) {
    for (var i = 0; i < end; i++) if (!isConsonant(w, i)) return true;
    return false;
  }

  function doubleConsonant(w, end) {
    return end >= 2 && w[end - 1] === w[end - 2] && isConsonant(w, end - 1);
  }

  // *o: the stem ends consonant-vowel-consonant, the last not w, x or y.
  function cvc(w, end) {
    return end >= 3 && isConsonant(w, end - 3) && !isConsonant(w, end - 2) &&
      isConsonant(w, end - 1) && "wxy".indexOf(w[end - 1]) < 0;
  }

  function ends(w, suffix) {
    return w.length > suffix.length && w.slice(-suffix.length) === suffix;
  }

  // The first rule whose suffix ends the word decides: its stem must have measure > min.
  function replaceFirst(w, rules, min) {
    for (var i = 0; i < rules.length; i += 2) {
      if (ends(w, rules[i])) {
        var stem = w.length - rules[i].length;
        return measure(w, stem) > min ? w.slice(0, stem) + rules[i + 1] : w;
      }
    }
    return w;
  }

  var STEP2 = ["ational", "ate", "tional", "tion", "enci", "ence", "anci", "ance", "izer",
    "ize", "logi", "log", "bli", "ble", "alli", "al", "entli", "ent", "eli", "e", "ousli",
    "ous", "ization", "ize", "ation", "ate", "ator", "ate", "alism", "al", "iveness", "ive",
    "fulness", "ful", "ousness", "ous", "aliti", "al", "iviti", "ive", "biliti", "ble"];
  var STEP3 = ["icate", "ic", "ative", "", "alize", "al", "iciti", "ic", "ical", "ic",
    "ful", "", "ness", ""];
  var STEP4 = ["al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment",
    "ent", "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize"];

  function step1(w) {
    if (ends(w, "sses") || ends(w, "ies")) w = w.slice(0, -2);
    else if (ends(w, "s") && !ends(w, "ss")) w = w.slice(0, -1);
    var again = false;
    if (ends(w, "eed")) {
      if (measure(w, w.length - 3) > 0) w = w.slice(0, -1);
    } else if (ends(w, "ed") && hasVowel(w, w.length - 2)) {
      w = w.slice(0, -2); again = true;
    } else if (ends(w, "ing") && hasVowel(w, w.length - 3)) {
      w = w.slice(0, -3); again = true;
    }
    if (again) {
      if (/(at|bl|iz)$/.test(w)) w += "e";
      else if (doubleConsonant(w, w.length) && !/[lsz]$/.test(w)) w = w.slice(0, -1);
      else if (measure(w, w.length) === 1 && cvc(w, w.length)) w += "e";
    }
    if (ends(w, "y") && hasVowel(w, w.length - 1)) w = w.slice(0, -1) + "i";
    return w;
  }

  function step4(w) {
    // The longest of these suffixes that ends the word (the list is checked longest
    // first among those sharing an ending), removed where the stem's measure is > 1.
    var best = "";
    STEP4.forEach(function (s) { if (ends(w, s) && s.length > best.length) best = s; });
    if (!best) return w;
    var stem = w.length - best.length;
    if (measure(w, stem) <= 1) return w;
    if (best === "ion" && !/[st]$/.test(w.slice(0, stem))) return w;
    return w.slice(0, stem);
  }

  function step5(w) {
    if (ends(w, "e")) {
      var m = measure(w, w.length - 1);
      if (m > 1 || (m === 1 && !cvc(w, w.length - 1))) w = w.slice(0, -1);
    }
    if (ends(w, "ll") && measure(w, w.length) > 1) w = w.slice(0, -1);
    return w;
  }

  function stem(word) {
    if (word.length < 3 || word.length > 64 || !/^[a-z0-9]+$/.test(word)) return word;
    var w = step1(word);
    w = replaceFirst(w, STEP2, 0);
    w = replaceFirst(w, STEP3, 0);
    return step5(step4(w));
  }

  function fold(text) {
    return String(text).toLowerCase().normalize("NFKD").replace(/\p{M}/gu, "")
      .replace(/ß/g, "ss").replace(/[øØ]/g, "o").replace(/[łŁ]/g, "l").replace(/æ/g, "ae")
      .replace(/œ/g, "oe").replace(/đ/g, "d").replace(/þ/g, "th");
  }

  function words(text) {
    return fold(text).match(/[\p{L}\p{N}]+/gu) || [];
  }

  window.papersWords = { stem: stem, words: words, fold: fold };
})();
