// rules-judge site search: written for this project. Reads window.JUDGE_INDEX (search-index.js, loaded
// as a script so a page opened from the file system searches too); nothing is fetched. Served by
// `judge serve`, search-index.js sets window.JUDGE_SEARCH instead: the address, from the site's root,
// of the project's own search, asked as the judge types.
(function () {
  "use strict";
  var index = window.JUDGE_INDEX;
  var remote = window.JUDGE_SEARCH;
  var input = document.getElementById("q");
  var list = document.getElementById("results");
  var status = document.getElementById("status");
  if ((!index && !remote) || !input || !list) { return; }
  var root = document.body.getAttribute("data-root") || "";
  var words = index ? Object.keys(index.words) : [];
  var asked = 0, waiting = null;
  var LIMIT = 20;
  var active = -1;

  function distance(a, b, most) {
    if (Math.abs(a.length - b.length) > most) { return most + 1; }
    var prev = [], cur, i, j;
    for (j = 0; j <= b.length; j++) { prev.push(j); }
    for (i = 1; i <= a.length; i++) {
      cur = [i];
      var best = i;
      for (j = 1; j <= b.length; j++) {
        cur.push(Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)));
        best = Math.min(best, cur[j]);
      }
      if (best > most) { return most + 1; }
      prev = cur;
    }
    return prev[b.length];
  }

  function squash(text) { return text.toLowerCase().replace(/[\s.]/g, ""); }

  function byNumber(query) {
    var wanted = squash(query), exact = [], starts = [];
    index.rules.forEach(function (rule, i) {
      var number = squash(rule[1]);
      if (number === wanted) { exact.push(i); } else if (number.indexOf(wanted) === 0) { starts.push(i); }
    });
    return exact.concat(starts).slice(0, LIMIT);
  }

  // A rule scores for each query word by its best match among the index's words: the word itself 4,
  // a word it begins 3, a word one edit away 2, two edits 1 (a word of six letters or more); a rule
  // whose title or first words hold the word scores 2 more.
  function byWords(query) {
    var scores = {}, meant = [];
    (query.toLowerCase().match(/[a-z][a-z'\u2019]+/g) || []).forEach(function (word) {
      var most = word.length > 5 ? 2 : 1, found = [];
      words.forEach(function (known) {
        var weight = 0;
        if (known === word) { weight = 4; }
        else if (word.length >= 4 && known.indexOf(word) === 0) { weight = 3; }
        else { weight = most + 1 - distance(word, known, most); }
        if (weight > 0) { found.push([known, weight]); }
      });
      found.sort(function (a, b) {
        return b[1] - a[1] || index.words[b[0]].length - index.words[a[0]].length;
      });
      if (found.length && found[0][1] < 3) { meant.push(found[0][0]); }
      var best = {};
      found.slice(0, 8).forEach(function (pair) {
        var pattern = new RegExp("\\b" + pair[0] + "\\b", "i");
        index.words[pair[0]].forEach(function (i) {
          var weight = pair[1] + (pattern.test(index.rules[i][3]) ? 2 : 0);
          best[i] = Math.max(best[i] || 0, weight);
        });
      });
      Object.keys(best).forEach(function (i) { scores[i] = (scores[i] || 0) + best[i]; });
    });
    var ranked = Object.keys(scores).map(Number);
    ranked.sort(function (a, b) { return scores[b] - scores[a] || a - b; });
    return { rules: ranked.slice(0, LIMIT), meant: meant };
  }

  // Cards by name: the name holding the query, every word of the query beginning a word of the name
  // ("bolt", "janna"), or the whole name at most two edits away ("lightning blot").
  function byName(query) {
    var wanted = query.toLowerCase(), parts = wanted.split(/\s+/), found = [];
    (index.cards || []).forEach(function (card, i) {
      var name = card[0].toLowerCase(), score = 0;
      if (name === wanted) { score = 4; }
      else if (name.indexOf(wanted) >= 0) { score = 3; }
      else if (parts.every(function (p) { return name.split(/[\s,'\u2019/-]+/).some(function (w) { return w.indexOf(p) === 0; }); })) { score = 2; }
      else if (wanted.length >= 5 && distance(wanted, name, 2) <= 2) { score = 1; }
      if (score) { found.push([i, score]); }
    });
    found.sort(function (a, b) { return b[1] - a[1] || a[0] - b[0]; });
    return found.slice(0, 5).map(function (pair) { return pair[0]; });
  }

  function ruleItem(i) {
    var rule = index.rules[i];
    return { href: rule[2], label: rule[1] + " " + rule[3], note: index.books[rule[0]].id };
  }

  function cardItem(i) {
    var card = index.cards[i];
    return { href: card[1], label: card[0], note: "card, " + card[2] };
  }

  // data-query: the query the list shows the results of (served, they arrive after the typing).
  function show(found, note, query) {
    list.setAttribute("data-query", query === undefined ? input.value.trim() : query);
    list.innerHTML = "";
    active = -1;
    found.forEach(function (found, n) {
      var item = document.createElement("li");
      item.id = "result-" + n;
      item.setAttribute("role", "option");
      item.setAttribute("aria-selected", "false");
      var link = document.createElement("a");
      link.href = root + found.href;
      link.textContent = found.label;
      link.tabIndex = -1;
      var book = document.createElement("span");
      book.className = "book";
      book.textContent = " " + found.note;
      item.appendChild(link);
      item.appendChild(book);
      item.addEventListener("mousedown", function (event) { event.preventDefault(); window.location.href = link.href; });
      list.appendChild(item);
    });
    list.hidden = found.length === 0;
    input.setAttribute("aria-expanded", found.length ? "true" : "false");
    input.removeAttribute("aria-activedescendant");
    status.textContent = note + (found.length ? found.length + " found" : input.value.trim() ? "nothing found" : "");
  }

  // Served: the answer of the last query asked is shown, an earlier one arriving late is dropped.
  function ask(query) {
    var mine = ++asked;
    return fetch(root + remote + "?q=" + encodeURIComponent(query), { headers: { Accept: "application/json" } })
      .then(function (response) { return response.json(); })
      .then(function (answer) {
        if (mine !== asked) { return; }
        if (!answer.results) { show([], ""); return; }
        var corrected = answer.corrected ? "showing results for " + answer.corrected + ": " : "";
        show(answer.results, corrected, query);
      })
      .catch(function () { if (mine === asked) { show([], "the search did not answer: "); } });
  }

  function search() {
    var query = input.value.trim();
    if (remote) {
      clearTimeout(waiting);
      asked++;
      if (!query) { show([], ""); return; }
      waiting = setTimeout(function () { ask(query); }, 120);
      return;
    }
    if (!query) { show([], ""); return; }
    if (/^\d{1,3}(\s*\.?\s*[0-9a-z]+)*\.?$/i.test(query)) { show(byNumber(query).map(ruleItem), ""); return; }
    if (!/[a-z]/i.test(query)) { show([], ""); return; }
    var cards = byName(query).map(cardItem);
    var result = byWords(query);
    var note = result.meant.length && !cards.length ? "showing results for " + result.meant.join(" ") + ": " : "";
    show(cards.concat(result.rules.map(ruleItem)).slice(0, LIMIT), note);
  }

  function move(step) {
    var items = list.querySelectorAll("li");
    if (!items.length) { return; }
    if (active >= 0) { items[active].setAttribute("aria-selected", "false"); }
    active = (active + step + items.length) % items.length;
    items[active].setAttribute("aria-selected", "true");
    input.setAttribute("aria-activedescendant", items[active].id);
    items[active].scrollIntoView({ block: "nearest" });
  }

  input.addEventListener("input", search);
  input.addEventListener("keydown", function (event) {
    if (event.key === "ArrowDown") { move(1); event.preventDefault(); }
    else if (event.key === "ArrowUp") { move(-1); event.preventDefault(); }
    else if (event.key === "Enter") {
      var items = list.querySelectorAll("li a");
      var chosen = items[active >= 0 ? active : 0];
      if (chosen) { window.location.href = chosen.href; }
      event.preventDefault();
    } else if (event.key === "Escape") { input.value = ""; show([], ""); }
  });
  input.addEventListener("blur", function () { list.hidden = true; input.setAttribute("aria-expanded", "false"); });
  input.addEventListener("focus", function () { if (list.children.length) { list.hidden = false; } });
  document.addEventListener("keydown", function (event) {
    if (event.key === "/" && document.activeElement !== input) { input.focus(); event.preventDefault(); }
  });
  window.judgeSearch = function (query) {  // for tests and the console: the results a query shows
    input.value = query;
    search();
    return Array.prototype.map.call(list.querySelectorAll("li a"), function (a) { return a.getAttribute("href"); });
  };
}());
