// The class's answers as a histogram against the exact value: the teacher page's and the
// projector view's (one script for both, with its style).
(function () {
  "use strict";
  var style = document.createElement("style");
  style.textContent = [
    ".chart { position: relative; height: 150px; border-bottom: 1px solid #555; margin: 44px 0 4px; display: flex; align-items: flex-end; gap: 3px; }",
    ".bar { flex: 1; background: #5dade2; position: relative; min-height: 0; }",
    ".bar span { position: absolute; top: -17px; width: 100%; text-align: center; font-size: 12px; }",
    ".exact { position: absolute; top: -40px; bottom: 0; border-left: 3px dashed #c0392b; }",
    ".exact span { position: absolute; top: 0; left: 4px; white-space: nowrap; color: #c0392b; font-size: 12px; font-weight: bold; }",
    // Each bin's lower edge under a tick at the bar's left edge, the last bin's upper
    // edge at the right end: the labels name edges, not the bars' middles.
    ".axis { display: flex; gap: 3px; font-size: 11px; color: #555; position: relative; }",
    ".axis div { flex: 1; text-align: left; margin-left: -1px; border-left: 1px solid #555; padding: 3px 0 0 2px; }",
    ".axis .axis-end { position: absolute; right: 0; top: 0; border-right: 1px solid #555; padding: 3px 2px 0 0; }"
  ].join("\n");
  document.head.appendChild(style);
  var text = function (value) {
    // Quotes too: the pages put texts in attributes (title='...': "the students' pages").
    var d = document.createElement("div"); d.textContent = String(value);
    return d.innerHTML.replace(/"/g, "&quot;").replace(/'/g, "&#39;");
  };
  var number = function (v, kind) {
    if (v === null || v === undefined) { return "—"; }
    if (kind === "count") { return fixed(Math.round(v), 0); }
    return fixed(Number(v), 2);
  };

  function chart(q) {
    var bins = q.bins, top = 1, i;
    if (!bins.length) { return ""; }
    for (i = 0; i < bins.length; i++) { top = Math.max(top, bins[i].count); }
    var low = bins[0].low, high = bins[bins.length - 1].high, bars = "", axis = "";
    // A bin's edges as the question's numbers are written; a count's bins narrower than
    // one (every answer alike) with a decimal, so that no two edges read the same.
    var edge = function (v) {
      return q.kind === "count" && (high - low) / bins.length < 1 ? fixed(Number(v), 1)
        : number(v, q.kind);
    };
    for (i = 0; i < bins.length; i++) {
      var h = Math.round(100 * bins[i].count / top);
      // An end bin also holds the answers far beyond the range ("beyond"): said so.
      var beyond = bins[i].beyond ? " (" + say(i ? words.chart_far_above : words.chart_far_below,
                                                {n: bins[i].beyond}) + ")" : "";
      bars += "<div class='bar' title='" + text(say(words.chart_bin, {
        low: edge(bins[i].low), high: edge(bins[i].high),
        n: bins[i].count}) + beyond) + "' style='height:" + h + "%'>" +
        (bins[i].count ? "<span>" + bins[i].count + (bins[i].beyond ? "*" : "") + "</span>" : "") +
        "</div>";
      axis += "<div>" + (i === 0 && bins[i].beyond ? "≤ " : "") + edge(bins[i].low) + "</div>";
    }
    var marker = "";
    if (q.exact !== null && high > low) {
      var left = Math.max(0, Math.min(100, 100 * (q.exact - low) / (high - low)));
      marker = "<div class='exact' style='left:" + left + "%'><span>" +
        text(say(words.chart_exact, {text: q.exact_text || number(q.exact, q.kind),
                                     value: number(q.exact, q.kind)})) + "</span></div>";
    }
    // (None where the last bin also holds the answers far above: it has no upper edge.)
    if (!bins[bins.length - 1].beyond) {
      axis += "<span class='axis-end'>" + edge(high) + "</span>";
    }
    return "<div class='chart'>" + bars + marker + "</div><div class='axis'>" + axis + "</div>";
  }


  // The page's language (numbers as the language writes them: "0,43", "32 %") and the
  // chart's words in it, from the page.
  var locale = "en", words = {chart_far_above: "{n} far above", chart_far_below: "{n} far below",
                              chart_bin: "{low} to {high}: {n}", chart_exact: "exact {text} ≈ {value}"};
  function setLanguage(lang, given) {
    locale = lang === "qps" ? "en" : lang;
    Object.keys(words).forEach(function (k) { if (given && given[k]) { words[k] = given[k]; } });
  }
  function say(template, values) {
    return template.replace(/\{(\w+)\}/g, function (m, k) {
      return values && k in values ? String(values[k]) : m;
    });
  }
  function fixed(v, digits) {
    return new Intl.NumberFormat(locale, {minimumFractionDigits: digits,
                                          maximumFractionDigits: digits}).format(v);
  }
  function percent(x) {
    return new Intl.NumberFormat(locale, {style: "percent", maximumFractionDigits: 0}).format(x);
  }

  // A part of the page redrawn in place: the new HTML is compared with what is on the
  // page, element by element, and only what differs is changed (an attribute, a text,
  // an element added, moved or removed). Everything else stays the very same element:
  // a button under the pointer keeps its click, a field its focus and what was typed in
  // it, a selection of text stays selected, whatever arrives every second (issue 58: one
  // of every seven clicks on Pin was lost to a rebuild). Elements are matched by their
  // key (id, then data-key, data-question, data-answer, data-step, data-student,
  // data-position, data-move), else by their place among elements of their kind.
  var KEYS = ["id", "data-key", "data-question", "data-answer", "data-step", "data-student",
              "data-position", "data-move"];
  function key(node) {
    if (node.nodeType !== 1) { return null; }
    for (var i = 0; i < KEYS.length; i++) {
      var v = node.getAttribute(KEYS[i]);
      if (v !== null) { return KEYS[i] + "=" + v; }
    }
    return null;
  }
  function same(a, b) {
    return a.nodeType === b.nodeType && (a.nodeType !== 1 ||
      (a.nodeName === b.nodeName && key(a) === key(b)));
  }
  function syncAttributes(old, fresh) {
    var i, name;
    for (i = old.attributes.length - 1; i >= 0; i--) {
      name = old.attributes[i].name;
      if (!fresh.hasAttribute(name)) {
        old.removeAttribute(name);
        if (name === "checked") { old.checked = false; }
        if (name === "selected") { old.selected = false; }
      }
    }
    for (i = 0; i < fresh.attributes.length; i++) {
      name = fresh.attributes[i].name;
      var value = fresh.attributes[i].value;
      if (old.getAttribute(name) !== value) {
        old.setAttribute(name, value);
        // What the page shows follows a changed state (a field's typed value is never
        // touched: the pages write no value attribute into a field).
        if (name === "checked") { old.checked = true; }
        if (name === "selected") { old.selected = true; }
      }
    }
  }
  function syncNode(old, fresh) {
    if (old.nodeType !== 1) {
      if (old.nodeValue !== fresh.nodeValue) { old.nodeValue = fresh.nodeValue; }
      return;
    }
    syncAttributes(old, fresh);
    if (old.nodeName !== "TEXTAREA") { syncChildren(old, fresh); }
  }
  function syncChildren(old, fresh) {
    var o = old.firstChild, n = fresh.firstChild;
    while (n) {
      var next = n.nextSibling;
      if (o && same(o, n)) {
        syncNode(o, n);
        o = o.nextSibling;
      } else {
        var k = key(n), found = null, c;
        for (c = o; k && c; c = c.nextSibling) {
          if (key(c) === k && c.nodeName === n.nodeName) { found = c; break; }
        }
        if (found) {
          if (found !== o) { old.insertBefore(found, o); }
          syncNode(found, n);
          o = found.nextSibling;
        } else {
          old.insertBefore(n, o);  // moved out of the fresh tree
        }
      }
      n = next;
    }
    while (o) {
      var gone = o;
      o = o.nextSibling;
      old.removeChild(gone);
    }
  }
  function morph(element, html) {
    var fresh = document.createElement("template");
    fresh.innerHTML = html;
    syncChildren(element, fresh.content);
  }

  window.nidChart = {text: text, number: number, chart: chart, setLanguage: setLanguage,
                     fixed: fixed, percent: percent, morph: morph};
})();
